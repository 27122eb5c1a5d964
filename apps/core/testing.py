"""Test helpers shared by every app's tests: tenants, users, and an API client bound to a
tenant host. Fixtures built on these live in the top-level conftest.py."""
from __future__ import annotations

import itertools
import json
import os
import time
import uuid

from django.conf import settings
from django.db import connection
from django.test import Client as HttpClient
from django_tenants.utils import schema_context

from apps.accounts.models import User
from apps.accounts.services import user_create
from apps.accounts.tokens import token_issue
from tenants.models import Client
from lifecycle.services import client_register

_counter = itertools.count(1)
DEFAULT_PASSWORD = "password123"
# Seconds each create_tenant() took since the suite's plugin last read them (apps/core/testsuite).
company_seconds: list[float] = []


def unique_subdomain(prefix: str = "co") -> str:
    return f"{prefix}-{os.getpid() % 10000}-{next(_counter)}-{uuid.uuid4().hex[:4]}"


def create_tenant(subdomain: str | None = None, *, admin_email: str = "admin@example.com",
                  admin_password: str = DEFAULT_PASSWORD, plan: str | None = None,
                  verified: bool = True) -> Client:
    subdomain = subdomain or unique_subdomain()
    started = time.perf_counter()
    client = client_register(
        company_name=f"Company {subdomain}",
        contact_name="Contact Person",
        contact_email=f"contact@{subdomain}.example.com",
        subdomain=subdomain,
        admin_username=f"admin-{subdomain}"[:150],
        admin_email=admin_email,
        admin_password=admin_password,
        plan=plan,
        verified=verified,  # False: as a sign-up, waiting for the emailed link (lifecycle.verification)
    )
    company_seconds.append(time.perf_counter() - started)
    return client


def tenant_admin(tenant: Client) -> User:
    with schema_context(tenant.schema_name):
        return User.objects.filter(role="admin").order_by("created_at").first()


def create_user(tenant: Client, role: str = "viewer", *, email: str | None = None, username: str | None = None,
                password: str = DEFAULT_PASSWORD, status: str = "active") -> User:
    suffix = uuid.uuid4().hex[:8]
    with schema_context(tenant.schema_name):
        return user_create(
            username=username or f"{role}-{suffix}",
            email=email or f"{role}-{suffix}@example.com",
            password=password,
            role=role,
            status=status,
        )


def host_of(tenant: Client | None) -> str:
    return f"{tenant.subdomain}.{settings.ROOT_DOMAIN}" if tenant else settings.ROOT_DOMAIN


class Api:
    """A JSON client for one host, optionally signed in as a user of that tenant."""

    def __init__(self, tenant: Client | None, user: User | None = None, token: str | None = None,
                 headers: dict | None = None):
        self.tenant = tenant
        self.http = HttpClient(HTTP_HOST=host_of(tenant))
        self.headers = dict(headers or {})
        if user is not None and token is None:
            token, _ = token_issue(user=user, schema_name=tenant.schema_name)
        if token:
            self.headers["Authorization"] = f"Bearer {token}"
        self.user = user

    def as_user(self, user: User) -> "Api":
        return Api(self.tenant, user=user)

    def _call(self, method: str, path: str, data=None, headers=None, **kwargs):
        all_headers = {**self.headers, **(headers or {})}
        if data is not None and not isinstance(data, (str, bytes)) and "content_type" not in kwargs:
            data = json.dumps(data)
            kwargs["content_type"] = "application/json"
        response = getattr(self.http, method)(path, data=data, headers=all_headers, **kwargs)
        connection.set_schema_to_public()
        return response

    def get(self, path, data=None, **kw):
        all_headers = {**self.headers, **kw.pop("headers", {})}
        response = self.http.get(path, data=data, headers=all_headers, **kw)
        connection.set_schema_to_public()
        return response

    def post(self, path, data=None, **kw):
        return self._call("post", path, data, **kw)

    def put(self, path, data=None, **kw):
        return self._call("put", path, data, **kw)

    def patch(self, path, data=None, **kw):
        return self._call("patch", path, data, **kw)

    def delete(self, path, data=None, **kw):
        return self._call("delete", path, data, **kw)


class LiveApp:
    """A running server (the `live_app` fixture): JSON requests to a tenant's host over real HTTP."""

    def __init__(self, base_url: str, log_path):
        self.base_url = base_url
        self.log_path = log_path

    def request(self, method: str, tenant: Client | None, path: str, *, token: str | None = None,
                json_body=None, headers: dict | None = None):
        import requests

        all_headers = {"Host": host_of(tenant), **(headers or {})}
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        return requests.request(method, self.base_url + path, json=json_body, headers=all_headers, timeout=60)

    def log(self) -> str:
        """The server's output (tracebacks of 500s end up here)."""
        try:
            return self.log_path.read_text(errors="replace")[-5000:]
        except FileNotFoundError:
            return ""


def parallel(calls: list) -> list:
    """Run every callable in its own thread, released together by a barrier, so the requests
    they make overlap; returns their results in order."""
    import threading
    from concurrent.futures import ThreadPoolExecutor

    barrier = threading.Barrier(len(calls))

    def run(call):
        barrier.wait(timeout=30)
        return call()

    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        return list(pool.map(run, calls))


def token_for(tenant: Client, user: User) -> str:
    token, _ = token_issue(user=user, schema_name=tenant.schema_name)
    return token
