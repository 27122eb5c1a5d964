"""The console's session: a signed, time-limited cookie (HttpOnly, SameSite=Strict, Secure over
HTTPS) naming the operator, the step reached (`password`, then `code`) and the account's session
version (bumped: every session of the account ends). Nothing else identifies an operator: a
company's token or cookie means nothing here."""
from __future__ import annotations

from django.conf import settings
from django.core import signing

from lifecycle.operator.models import OperatorAccount

COOKIE = "cms_operator"
SALT = "cms.operator.session"
PASSWORD, CODE = "password", "code"


def session_set(response, account: OperatorAccount, step: str) -> None:
    value = signing.dumps({"o": account.pk, "s": step, "v": account.session_version}, salt=SALT)
    response.set_cookie(COOKIE, value, max_age=settings.OPERATOR_SESSION_SECONDS, httponly=True, samesite="Strict",
                        secure=settings.PUBLIC_SCHEME == "https", path="/operator/")


def session_clear(response) -> None:
    response.delete_cookie(COOKIE, path="/operator/", samesite="Strict")


def session_get(request, *, step: str = CODE) -> OperatorAccount | None:
    """The operator of the request's cookie, if it reached `step` and the account is active."""
    try:
        data = signing.loads(request.COOKIES.get(COOKIE, ""), salt=SALT, max_age=settings.OPERATOR_SESSION_SECONDS)
    except signing.BadSignature:
        return None
    if data.get("s") != step and not (step == PASSWORD and data.get("s") == CODE):
        return None
    account = OperatorAccount.objects.filter(pk=data.get("o"), active=True).first()
    if account is None or account.session_version != data.get("v"):
        return None
    return account
