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


def send_by_name(name: str, *, args: list, **options):
    """Queue the task `name` without importing its module: services send work to their app's
    tasks module this way (the tasks call the services; importing them back was a cycle), and a
    web process never loads the tasks modules (they load Pillow and the AI providers), so Celery's
    registry there does not hold them. The app's send_task adds the company's schema header
    (tenant-schemas-celery), as a task's own apply_async does."""
    from celery import current_app

    if current_app.conf.task_always_eager:  # run here and now (CELERY_TASK_ALWAYS_EAGER, tests)
        if name not in current_app.tasks:
            current_app.loader.import_default_modules()
        options.pop("connection", None)
        return current_app.tasks[name].apply_async(args=args, **options)
    return current_app.send_task(name, args=args, **options)
