"""Tasks run in the schema of the company that sent them; a task whose company is gone is
dropped, never run against the public schema."""
import time

import pytest
from django_tenants.utils import tenant_context


@pytest.mark.django_db(transaction=True)
def test_a_task_of_a_deleted_company_is_dropped(make_tenant, celery_worker_process):
    from apps.content.tasks import publish_tenant_scheduled_posts

    kept, gone = make_tenant(), make_tenant()
    celery_worker_process.stop()
    with tenant_context(gone):
        publish_tenant_scheduled_posts.delay()
    with tenant_context(kept):
        publish_tenant_scheduled_posts.delay()
    gone.delete(force_drop=True)
    celery_worker_process.start()

    deadline = time.monotonic() + 30
    log = ""
    while time.monotonic() < deadline:
        log = celery_worker_process.log_path.read_text()
        if f"company schema {gone.schema_name} is gone" in log and log.count("succeeded") >= 2:
            break
        time.sleep(0.2)
    assert f"Dropping task content.publish_tenant_scheduled_posts: company schema {gone.schema_name} is gone" in log
    assert "ProgrammingError" not in log
    assert log.count("succeeded") >= 2  # the kept company's task ran (the dropped one returns None)
