"""The Celery app. tenant-schemas-celery carries the current schema with every task sent from
a tenant context and switches to it in the worker."""
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
# A worker starts without Django's system checks (Celery runs them at start unless this is set):
# they import every URLconf, and with them every API module and schema, which no task needs
# (17 MB more per worker process and 0.3 s more CPU per start, measured on the test settings).
# The checks run where the code ships: `migrate_schemas` runs them in the release step
# (deploy/docker/entrypoint.sh), and the tests run `manage.py check --deploy`.
os.environ.setdefault("CELERY_SKIP_CHECKS", "1")

from celery.signals import task_postrun, task_prerun  # noqa: E402
from tenant_schemas_celery.app import CeleryApp  # noqa: E402

from apps.core import broker  # noqa: E402

broker.register()  # sentinel:// brokers (REDIS_SENTINELS) through apps.core.broker's transport
app = CeleryApp("cms", task_cls="apps.core.tasks_base:CMSTask")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@task_prerun.connect(weak=False)
def _log_context(task=None, **kwargs):
    """Tag logs and Sentry events of each task with its tenant (tenant-schemas-celery has
    already switched the connection's schema when this runs)."""
    from django.db import connection

    from apps.core.logging import bind_tenant

    bind_tenant(getattr(connection, "schema_name", "public"))


@task_postrun.connect(weak=False)
def _count_outcome(**kwargs):
    """Each finished task's outcome, for /metrics (apps.core.metrics: shared by every worker)."""
    from apps.core.metrics import on_task_postrun

    on_task_postrun(**kwargs)
