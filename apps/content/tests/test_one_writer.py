"""One writer per kind of row (docs/content.md): posts, pages, categories and tags are created,
changed and deleted by apps.content's services only, whoever calls (the dashboard, an import, the
Ghost-compatible API, AI, translations). Two guards:

- the code: outside apps/content no product module calls a write of these models (`create`,
  `bulk_create`, `update`, `delete`... on their managers and querysets, `save` on a row built
  there) or names their tables in an INSERT, UPDATE or DELETE;
- a real import of both sample exports: every statement that writes these tables is issued from
  apps/content, never from the importer's own frames."""
from __future__ import annotations

import ast
import re
import traceback
from pathlib import Path

import pytest
from django.db import connection
from django_tenants.utils import schema_context

from apps.core import testing

ROOT = Path(__file__).resolve().parents[3]
PRODUCT = ("apps", "lifecycle", "tenants", "platform")
OWNER = "apps/content"
MODELS = {"Post", "Category", "Tag", "PostRevision", "PostListing"}
WRITES = {"create", "bulk_create", "bulk_update", "update", "delete", "update_or_create", "get_or_create",
          "add", "set", "remove", "clear", "save"}
TABLES = re.compile(r"\b(INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+[\"\w.%{}]*content_(post|category|tag)\w*",
                    re.IGNORECASE)


def _root_name(node: ast.AST) -> str | None:
    """The name a chain of attribute reads and calls starts from (`Post` in Post.objects.filter().update)."""
    while True:
        if isinstance(node, ast.Call):
            node = node.func
        elif isinstance(node, ast.Attribute):
            node = node.value
        elif isinstance(node, ast.Subscript):
            node = node.value
        else:
            return node.id if isinstance(node, ast.Name) else None


def _writes(source: str, filename: str) -> list[str]:
    found = []
    tree = ast.parse(source, filename=filename)
    built = set()  # names bound to a row built here: `post = Post(...)`
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                and node.value.func.id in MODELS:
            built.update(target.id for target in node.targets if isinstance(target, ast.Name))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in WRITES:
            root = _root_name(node.func.value)
            if root in MODELS or root in built:
                found.append(f"{filename}:{node.lineno} {root}...{node.func.attr}()")
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and TABLES.search(node.value):
            found.append(f"{filename}:{node.lineno} SQL writes {TABLES.search(node.value).group(0)!r}")
    return found


def _outside_writes() -> list[str]:
    found = []
    for top in PRODUCT:
        for path in sorted((ROOT / top).rglob("*.py")):
            relative = path.relative_to(ROOT)
            parts = relative.parts
            if relative.as_posix().startswith(OWNER + "/") or "tests" in parts or "migrations" in parts:
                continue
            found += _writes(path.read_text(), relative.as_posix())
    return found


def test_no_code_outside_the_content_app_writes_posts_pages_or_terms():
    assert _outside_writes() == []


def test_the_check_sees_each_form_of_a_write():
    source = (
        "from apps.content.models import Post, Category\n"
        "def f(cursor):\n"
        "    Post.objects.bulk_create([])\n"
        "    Post.objects.filter(pk=1).update(title='x')\n"
        "    Category.objects.create(name='a')\n"
        "    post = Post(title='x')\n"
        "    post.save()\n"
        "    Post.categories.through.objects.bulk_create([])\n"
        "    cursor.execute('UPDATE content_post SET title = %s')\n"
        "    Post.objects.filter(pk=1).exists()\n"  # a read: not a write
    )
    assert [line.split(" ", 1)[1] for line in _writes(source, "x.py")] == [
        "Post...bulk_create()", "Post...update()", "Category...create()", "post...save()", "Post...bulk_create()",
        "SQL writes 'UPDATE content_post'"]


@pytest.mark.django_db
def test_an_import_writes_content_only_through_the_content_services(tenant):
    from apps.portability.tests.test_import_samples import GHOST, WXR, run, upload

    api = testing.Api(tenant, user=testing.tenant_admin(tenant))
    writers = []

    def watch(execute, sql, params, many, context):
        if TABLES.search(sql):
            frames = [frame.filename for frame in traceback.extract_stack()
                      if str(ROOT) in frame.filename and "/.venv/" not in frame.filename
                      and not frame.filename.endswith(("conftest.py", "test_one_writer.py"))
                      and "/tests/" not in frame.filename]
            innermost = Path(frames[-1]).relative_to(ROOT).as_posix() if frames else "?"
            writers.append((innermost, TABLES.search(sql).group(0)))
        return execute(sql, params, many, context)

    for path in (WXR, GHOST):
        job = upload(api, path).json()["job"]["id"]
        with connection.execute_wrapper(watch):
            run(tenant, job)
        assert api.get(f"/api/imports/{job}").json()["job"]["status"] == "completed"
    with schema_context(tenant.schema_name):
        from apps.content.models import Post

        assert Post.objects.count() > 50
    assert writers, "the import wrote no content?"
    outside = sorted({(where, what) for where, what in writers if not where.startswith(OWNER + "/")})
    assert outside == [], outside
