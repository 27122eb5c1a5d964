"""manage.py import_blog: a dry run that writes nothing, then the import with its progress and
report; a malformed file or an unknown company is a clear error."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django_tenants.utils import schema_context

from apps.content.models import Post
from apps.portability.models import ImportJob
from apps.portability.tests.test_import_samples import GHOST, WXR


@pytest.mark.django_db
def test_dry_run_then_import(tenant, tmp_path, capsys):
    out = StringIO()
    call_command("import_blog", str(WXR), schema=tenant.schema_name, dry_run=True, stdout=out)
    plan = json.loads(out.getvalue())
    assert plan["counts"]["post"] == {"create": 58}
    with schema_context(tenant.schema_name):
        assert not Post.objects.exists() and not ImportJob.objects.exists()
    out, report = StringIO(), tmp_path / "report.csv"
    call_command("import_blog", str(WXR), schema=tenant.schema_name, no_images=True, report=str(report), stdout=out)
    counts = json.loads(out.getvalue())
    assert counts["post"] == {"created": 58} and counts["page"] == {"created": 21}
    assert "posts    [##############################] " in capsys.readouterr().err
    assert "nav_menu_item,skipped,70" in report.read_text()
    with schema_context(tenant.schema_name):
        assert Post.objects.count() == 79
        assert ImportJob.objects.get().status == "completed"


@pytest.mark.django_db
def test_errors_are_told_plainly(tenant, tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text('{"db": [')
    with pytest.raises(CommandError, match="The JSON is not valid at line 1"):
        call_command("import_blog", str(broken), schema=tenant.schema_name)
    with pytest.raises(CommandError, match="No company has the schema"):
        call_command("import_blog", str(GHOST), schema="t_nobody")
