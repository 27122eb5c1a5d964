from ninja import Router

from apps.core.ratelimit import client_ip
from apps.core.schemas import snake_case_fields
from tenants import services
from tenants.schemas import RegisterClientIn, RegisterClientOut

router = Router(tags=["sign-up"])


@router.post("/auth/register-client", response={201: RegisterClientOut})
def register_client(request, payload: RegisterClientIn):
    services.signup_throttle(ip=client_ip(request), contact_email=payload.contactEmail)
    client = services.client_register(**snake_case_fields(payload))
    return RegisterClientOut(
        message="Registration successful! You can now sign in to your company dashboard.",
        data={"subdomain": client.subdomain, "loginUrl": services.tenant_base_url(client.subdomain) + "/login"},
    )
