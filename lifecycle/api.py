from ninja import Router

from apps.core.permissions import PUBLIC, requires
from apps.core.ratelimit import client_ip
from apps.core.schemas import MessageOut, snake_case_fields
from lifecycle import services
from tenants import directory
from tenants.addresses import tenant_base_url
from lifecycle.schemas import FindCompaniesIn, RegisterClientIn, RegisterClientOut

# Operation ids name the module these routes were first written in (tenants.*): the OpenAPI
# documents and the clients generated from them keep them.
router = Router(tags=["sign-up"])


@router.post("/auth/register-client", response={201: RegisterClientOut}, operation_id="tenants_api_register_client")
@requires(PUBLIC)
def register_client(request, payload: RegisterClientIn):
    services.signup_throttle(ip=client_ip(request), contact_email=payload.contactEmail)
    client = services.client_register(**snake_case_fields(payload))
    return RegisterClientOut(
        message="Registration successful! You can now sign in to your company dashboard.",
        data={"subdomain": client.subdomain, "loginUrl": tenant_base_url(client.subdomain) + "/login"},
    )


@router.post("/auth/find-companies", response=MessageOut, operation_id="tenants_api_find_companies")
@requires(PUBLIC)
def find_companies(request, payload: FindCompaniesIn):
    """Sign-in on the root domain: emails the address the sign-in links of the companies where it has an
    active account. The same 200 whatever the address (no enumeration); throttled per client address
    and per email (429)."""
    directory.find_companies_request(email=payload.email, ip=client_ip(request))
    return MessageOut(message=directory.FIND_REQUESTED)
