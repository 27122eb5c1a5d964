"""A bare WSGI app returning fixed bytes: the ceiling a Python server reaches on this machine,
measured in the same sitting as the public API (bench/public_api.py)."""
import os

BODY = open(os.environ["BENCH_BARE_BODY"], "rb").read()  # noqa: SIM115
HEADERS = [("Content-Type", "application/json"), ("Content-Length", str(len(BODY)))]


def application(environ, start_response):
    start_response("200 OK", HEADERS)
    return [BODY]
