"""Django's PostgreSQL backend, with the pooler check (apps/core/pooler.py) run once per process
before its first connection is opened (so a thread waiting for the check holds no server
connection of a small pool). django-tenants builds on it (settings.ORIGINAL_BACKEND)."""
from django.db.backends.postgresql.base import *  # noqa: F403 - the backend module's names
from django.db.backends.postgresql.base import DatabaseWrapper as PostgresWrapper

from apps.core import pooler


class DatabaseWrapper(PostgresWrapper):
    def get_new_connection(self, conn_params):
        pooler.check_before_connect(conn_params)
        return super().get_new_connection(conn_params)
