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


def task_named(name: str):
    """The registered task `name`, for services that send work to their app's tasks module
    without importing it (the tasks call the services: importing them back was a cycle). A web
    process has not loaded the tasks modules yet on its first send: loading the default modules
    runs Celery's autodiscovery (every app's `tasks`)."""
    from celery import current_app
    from celery.exceptions import NotRegistered

    try:
        return current_app.tasks[name]
    except NotRegistered:
        current_app.loader.import_default_modules()
        return current_app.tasks[name]
