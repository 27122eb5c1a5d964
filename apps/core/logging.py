"""Request-scoped log context: every log line carries the request id and the tenant."""
from __future__ import annotations

import contextvars
import logging
import sys

request_id_var: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")
tenant_var: contextvars.ContextVar[str] = contextvars.ContextVar("tenant", default="-")
# The request's client address (apps.core.ratelimit.client_ip); never logged: the audit log keeps
# only its daily keyed hash (apps.audit.services).
client_address_var: contextvars.ContextVar[str] = contextvars.ContextVar("client_address", default="")
# The operator of a support session (apps.accounts.support): the audit log names what the request
# does as "support (operator X) as user Y".
support_operator_var: contextvars.ContextVar[str] = contextvars.ContextVar("support_operator", default="")


class ContextFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id_var.get()
        record.tenant = tenant_var.get()
        return True


def bind_tenant(schema_name: str) -> None:
    tenant_var.set(schema_name)
    sentry_sdk = sys.modules.get("sentry_sdk")  # imported by the settings only when SENTRY_DSN is set
    if sentry_sdk is not None:
        sentry_sdk.set_tag("tenant", schema_name)
