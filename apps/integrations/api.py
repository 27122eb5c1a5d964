"""Integrations of the company on the dashboard API (admins: capability integrations.manage):
Settings -> Integrations (docs/publishing-from-tools.md)."""
from __future__ import annotations

from ninja import Router

from apps.core.permissions import requires
from apps.core.schemas import MessageOut
from apps.integrations import selectors, services
from apps.integrations.schemas import IntegrationIn, IntegrationListOut, IntegrationOut, IntegrationRotateIn, \
    IntegrationSavedOut
from tenants.addresses import tenant_base_url

router = Router(tags=["integrations"])
CANNOT_MANAGE = "Only administrators can manage integrations"


@router.get("", response=IntegrationListOut)
@requires("integrations.manage", CANNOT_MANAGE)
def list_integrations(request):
    """Every integration, the company's own Ghost content key's first; keys as their hints."""
    services.integration_company_key_ensure(client=request.tenant)
    return IntegrationListOut(integrations=[IntegrationOut.of(i, request.tenant) for i in selectors.integration_list()],
                              ghostUrl=tenant_base_url(request.tenant.subdomain))


@router.post("", response={201: IntegrationSavedOut})
@requires("integrations.manage", CANNOT_MANAGE)
def create_integration(request, payload: IntegrationIn):
    """A new integration; the reply carries its two keys whole: they are shown this once."""
    issued = services.integration_create(client=request.tenant, name=payload.name, actor=request.auth)
    return 201, IntegrationSavedOut(message="Integration created. Copy its keys now: they are not shown again.",
                                    integration=IntegrationOut.of(issued.integration, request.tenant, issued))


@router.post("/{integration_id}/rotate", response=IntegrationSavedOut)
@requires("integrations.manage", CANNOT_MANAGE)
def rotate_integration(request, integration_id: str, payload: IntegrationRotateIn):
    """New keys (`keys`: content, admin; both when left out), shown this once; the old ones stop
    working at once."""
    integration = selectors.integration_get(integration_id)
    issued = services.integration_rotate(client=request.tenant, integration=integration, keys=tuple(payload.keys),
                                         actor=request.auth)
    return IntegrationSavedOut(message="Keys rotated. The previous keys no longer work.",
                               integration=IntegrationOut.of(issued.integration, request.tenant, issued))


@router.delete("/{integration_id}", response=MessageOut)
@requires("integrations.manage", CANNOT_MANAGE)
def delete_integration(request, integration_id: str):
    services.integration_delete(client=request.tenant, integration=selectors.integration_get(integration_id),
                                actor=request.auth)
    return MessageOut(message="Integration deleted. Its keys no longer work.")


ROUTES = [("/integrations", router)]
