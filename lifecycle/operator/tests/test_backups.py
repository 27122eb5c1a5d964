"""The console's backups: started from the company page, made by a real Celery worker (the backup
service of `manage.py tenant_backup`), kept in private storage, shown with their state, downloaded
by an operator only, audited; another company's backup is not reachable through this company."""
from __future__ import annotations

import io
import json
import tarfile
import time

import pytest

from apps.core import testing
from apps.media.storage import private_storage
from lifecycle.operator.models import OperatorAction, OperatorBackup
from lifecycle.operator.tests.test_console import signed_in

pytestmark = [pytest.mark.timeout(300), pytest.mark.django_db(transaction=True)]


def _wait_done(backup_id: int, seconds: float = 120) -> OperatorBackup:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        made = OperatorBackup.objects.get(pk=backup_id)
        if made.status in ("done", "failed"):
            return made
        time.sleep(0.3)
    raise AssertionError(f"backup {backup_id} still {made.status}")


def test_a_backup_is_made_by_the_worker_shown_and_downloaded(operator, make_tenant, celery_worker_process,
                                                             settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"
    celery_worker_process.stop()
    celery_worker_process.env["MEDIA_ROOT"] = str(tmp_path / "media")  # the worker writes where this test reads
    celery_worker_process.start()
    company, other = make_tenant("backup-one"), make_tenant("backup-two")
    web = signed_in(operator)
    base = f"/operator/companies/{company.subdomain}"

    started = time.monotonic()
    assert web.post(f"{base}/backup").status_code == 302
    assert time.monotonic() - started < 10  # the request only queues it
    [made] = OperatorBackup.objects.filter(client_id=company.pk)
    made = _wait_done(made.pk)
    assert made.status == "done", made.error
    assert made.file_key.startswith(f"{company.schema_name}/portability/backups/") and made.size > 0
    assert private_storage().exists(made.file_key)

    page = web.get(base).content.decode()
    assert "Done" in page and made.file_name in page and f"{base}/backups/{made.pk}" in page
    download = web.get(f"{base}/backups/{made.pk}")
    assert download.status_code == 200 and made.file_name in download["Content-Disposition"]
    with tarfile.open(fileobj=io.BytesIO(b"".join(download.streaming_content)), mode="r:gz") as archive:
        manifest = json.load(archive.extractfile("manifest.json"))
    assert manifest["company"]["subdomain"] == company.subdomain

    # the backup of one company is not found through another's page; no one else downloads it
    assert web.get(f"/operator/companies/{other.subdomain}/backups/{made.pk}").status_code == 404
    admin = testing.Api(company, user=testing.tenant_admin(company))
    on_company_host = admin.get(f"{base}/backups/{made.pk}")  # the dashboard's page, not the console
    assert "attachment" not in on_company_host.get("Content-Disposition", "")
    assert not on_company_host.content.startswith(b"\x1f\x8b")
    assert testing.Api(None).get(f"{base}/backups/{made.pk}").status_code == 302  # to the sign-in page
    # the media view never serves it
    assert testing.Api(company).get(f"/media/{made.file_key}").status_code == 404

    actions = list(OperatorAction.objects.filter(company=company.subdomain).order_by("id")
                   .values_list("action", flat=True))
    assert actions == ["backup_started", "backup_downloaded"]
