"""The base class of every Celery task of the product."""
from __future__ import annotations

import logging

from django.db import connection
from tenant_schemas_celery.app import get_schema_name_from_task
from tenant_schemas_celery.task import TenantTask

from apps.core import outbox
from tenants.models import Client

logger = logging.getLogger(__name__)


class CMSTask(TenantTask):
    """A task sent from a tenant context runs in that tenant's schema (tenant-schemas-celery).
    Fails closed: when the schema could not be switched to (the company was deleted since the
    task was queued), the task is dropped instead of running against the public schema.

    A task sent by the outbox (apps.core.outbox: its message names the row) removes the row when it
    returns, or when its company is gone; raising outbox.Later makes the row due again at that
    time; raising outbox.Busy leaves it as it is."""

    abstract = True

    def __call__(self, *args, **kwargs):
        key = outbox.key_of(self.request)
        wanted = get_schema_name_from_task(self, kwargs)
        if wanted and wanted != "public" and connection.schema_name != wanted:
            # The switch failed: the company is gone, or the database did not answer (then this
            # query raises too, and the task fails: the outbox sends it again).
            if _company_exists(wanted):
                raise RuntimeError(f"task {self.name} could not switch to schema {wanted}; tried again later")
            logger.warning("Dropping task %s: company schema %s is gone", self.name, wanted)
            if key:
                outbox.outbox_finish(key=key)
            return None
        try:
            result = super().__call__(*args, **kwargs)
        except outbox.Busy:
            return None
        except outbox.Later as later:
            outbox.outbox_reschedule(key=key, task=self.name,
                                     args=list(args) if later.args_ is None else later.args_,
                                     kwargs=kwargs if later.kwargs_ is None else later.kwargs_,
                                     schema_name=connection.schema_name or "public", at=later.at, error=later.error)
            return None
        if key:
            outbox.outbox_finish(key=key)
        return result


def _company_exists(schema_name: str) -> bool:
    return Client.objects.filter(schema_name=schema_name).exists()
