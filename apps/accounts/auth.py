"""Bearer-token authentication for the dashboard API."""
from __future__ import annotations

import uuid

from django.db import connection
from ninja.security import HttpBearer

from apps.accounts.models import User
from apps.accounts.support import support_session_check
from apps.accounts.tokens import TokenInvalid, token_decode
from apps.accounts.two_factor import two_factor_gate
from apps.core.errors import Unauthorized
from apps.plans.rules import dashboard_write_gate


class JWTAuth(HttpBearer):
    def authenticate(self, request, token: str) -> User:
        try:
            claims = token_decode(token)
        except TokenInvalid as exc:
            raise Unauthorized(exc.message) from exc
        # A token is valid only on the tenant that issued it.
        if claims.get("tenant") != connection.schema_name:
            raise Unauthorized("Invalid authentication token")
        try:
            user = User.objects.get(pk=uuid.UUID(str(claims["userId"])))
        except (ValueError, User.DoesNotExist) as exc:
            raise Unauthorized("Invalid authentication token") from exc
        if user.token_version != claims.get("tv") or user.status != User.Status.ACTIVE:
            raise Unauthorized("Your session has expired. Please log in again.")
        support_session_check(request, claims)  # an operator's support session: ended -> 401
        two_factor_gate(request, user)  # the company may require two-factor sign-in: 403 until set up
        dashboard_write_gate(request)  # a trial that ended: reads only (403 plan_expired)
        request.user = user
        return user


jwt_auth = JWTAuth()
