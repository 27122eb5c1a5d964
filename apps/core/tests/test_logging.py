import json
import logging

from pythonjsonlogger.json import JsonFormatter

from apps.core.logging import ContextFilter, request_id_var, tenant_var
from apps.core.testing import Api


def test_json_log_lines_carry_tenant_and_request_id():
    formatter = JsonFormatter("%(asctime)s %(levelname)s %(name)s %(tenant)s %(request_id)s %(message)s",
                              rename_fields={"levelname": "level"})
    record = logging.LogRecord("cms", logging.WARNING, __file__, 1, "post %s saved", ("x",), None)
    request_token, tenant_token = request_id_var.set("req-123"), tenant_var.set("t_acme")
    try:
        ContextFilter().filter(record)
    finally:
        request_id_var.reset(request_token)
        tenant_var.reset(tenant_token)
    line = json.loads(formatter.format(record))
    assert line["tenant"] == "t_acme" and line["request_id"] == "req-123"
    assert line["message"] == "post x saved" and line["level"] == "WARNING"


def test_request_id_is_echoed_or_made(tenant):
    api = Api(tenant)
    assert api.get("/api/auth/me", headers={"X-Request-ID": "abc-1"})["X-Request-ID"] == "abc-1"
    made = api.get("/api/auth/me")["X-Request-ID"]
    assert len(made) == 32
