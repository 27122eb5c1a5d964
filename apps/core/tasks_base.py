"""The base class of every Celery task of the product."""
from __future__ import annotations

import logging

from django.db import connection
from tenant_schemas_celery.app import get_schema_name_from_task
from tenant_schemas_celery.task import TenantTask

logger = logging.getLogger(__name__)


class CMSTask(TenantTask):
    """A task sent from a tenant context runs in that tenant's schema (tenant-schemas-celery).
    Fails closed: when the schema could not be switched to (the company was deleted since the
    task was queued), the task is dropped instead of running against the public schema."""

    abstract = True

    def __call__(self, *args, **kwargs):
        wanted = get_schema_name_from_task(self, kwargs)
        if wanted and wanted != "public" and connection.schema_name != wanted:
            logger.warning("Dropping task %s: company schema %s is gone", self.name, wanted)
            return None
        return super().__call__(*args, **kwargs)
