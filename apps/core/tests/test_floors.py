"""Tenants in two floors (docs/contributing.md). The ground floor, `tenants/` (the Client and Domain
models, addresses, the Host -> company middleware, the account directory), is what every app may
read. The top floor, `lifecycle/` (sign-up and provisioning, spare schemas, email verification,
deletion, backup and restore, batch migrations, the operator commands, the sign-up and company
settings APIs), may use every app. Nothing in apps/ or tenants/ imports the top floor, and no
module there imports project code inside a function (the way an import loop is hidden), except
the few listed in ALLOWED, each for its reason. Tests and the test-suite's own support modules are
not product code and are left out."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BELOW = ("apps", "tenants")  # the apps and the ground floor
TOP = "lifecycle"
PROJECT = ("apps", "tenants", "lifecycle", "config")
# Test support (pytest's plugin, the company factory, the functions every test imports): they make
# companies through the sign-up code and the spare schemas, as users get them, and they run inside
# pytest's hooks, before and after Django is set up. Never imported by the product.
TEST_SUPPORT = ("apps/core/testing.py", "apps/core/testsuite/")

READY = "AppConfig.ready(): Django's place to connect receivers and subscribers, once every model is loaded"
CELERY = "Celery is loaded on a web process's first send, not by every web worker (test_web_imports.py)"
GEMINI = "the chosen provider only: the Gemini SDK (google-genai) is loaded when AI_PROVIDER picks it"
PILLOW = "Pillow is loaded by the first upload or rendition, not by every web worker (test_web_imports.py)"
SENDING = "requests and urllib3 (apps.webhooks.sending) are loaded by the Celery worker only (test_web_imports.py)"
EXPORT = ("the export reads the three assembled APIs (config.api, above every app): loaded when the command "
          "runs, never by the product")
SIGNUP = ("a content worker loads the members' sign-up (its services, the newsletters' and the outgoing email) on "
          "its first member request, not as it starts: most content workers serve reads only (test_web_imports.py)")
MIGRATION = "a data migration runs the directory's code when it is applied, not when the migration graph loads"
PORTABILITY = ("a worker with every route loads the Ghost Admin API's views and the blog importer, parsers and "
               "exporter on their first use, not with the URL conf (test_web_imports.py)")

ALLOWED: dict[tuple[str, str], str] = {
    ("apps/audit/apps.py", "apps.core"): READY,
    ("apps/content/apps.py", "apps.core"): READY,
    ("apps/newsletters/apps.py", "apps.core"): READY,
    ("apps/newsletters/apps.py", "apps.newsletters"): READY,
    ("apps/core/apps.py", "apps.core"): READY,
    ("apps/core/apps.py", "apps.core.pooler"): READY,
    ("apps/public_api/apps.py", "apps.core"): READY,
    ("apps/public_api/apps.py", "apps.public_api"): READY,
    ("apps/webhooks/apps.py", "apps.core"): READY,
    ("apps/core/task_queue.py", "config.celery"): CELERY,
    ("apps/ai/providers/__init__.py", "apps.ai.providers.gemini"): GEMINI,
    ("apps/ai/providers/__init__.py", "apps.ai.providers.offline"): GEMINI,
    ("apps/media/services.py", "apps.media"): PILLOW,
    ("apps/webhooks/services.py", "apps.webhooks.sending"): SENDING,
    ("apps/members/public.py", "apps.members"): SIGNUP,
    ("apps/core/management/commands/openapi_export.py", "config"): EXPORT,
    ("tenants/migrations/0010_fill_account_directory.py", "tenants.directory"): MIGRATION,
    ("apps/ghost_api/admin/urls.py", "apps.ghost_api.admin.views"): PORTABILITY,
    ("apps/portability/services.py", "apps.portability.exporter"): PORTABILITY,
    ("apps/portability/services.py", "apps.portability.html"): PORTABILITY,
    ("apps/portability/services.py", "apps.portability.images"): PORTABILITY,
    ("apps/portability/services.py", "apps.portability.importer"): PORTABILITY,
    ("apps/portability/services.py", "apps.portability.parsers"): PORTABILITY,
}


def _modules(node: ast.AST, package: str) -> list[str]:
    """The project modules an import statement names (relative imports resolved)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parent = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parent, *([base] if base else [])])
    if node.module is None:  # `from .. import x`: x is a module
        return [f"{base}.{alias.name}" if base else alias.name for alias in node.names]
    return [base]


def imports_of(path: Path, root: Path) -> list[tuple[str, bool]]:
    """(module, inside a function) of every import of project code in a file."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    found = []

    def walk(node: ast.AST, in_function: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.Import, ast.ImportFrom)):
                found.extend((name, in_function) for name in _modules(child, package)
                             if name.split(".")[0] in PROJECT)
            walk(child, in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    walk(ast.parse(path.read_text(), filename=str(path)), False)
    return found


def product_files(root: Path) -> list[Path]:
    files = []
    for top in BELOW:
        for path in sorted((root / top).rglob("*.py")):
            relative = path.relative_to(root).as_posix()
            if "tests" in path.relative_to(root).parts or relative.startswith(TEST_SUPPORT):
                continue
            files.append(path)
    return files


def upward(root: Path) -> list[str]:
    return [f"{path.relative_to(root).as_posix()} imports {name}" for path in product_files(root)
            for name, _ in imports_of(path, root) if name == TOP or name.startswith(TOP + ".")]


def local_imports(root: Path) -> set[tuple[str, str]]:
    return {(path.relative_to(root).as_posix(), name) for path in product_files(root)
            for name, in_function in imports_of(path, root) if in_function}


def test_apps_and_the_ground_floor_never_import_the_lifecycle():
    assert upward(ROOT) == []


def test_no_function_local_import_of_project_code_but_the_listed_ones():
    found = local_imports(ROOT)
    unexplained = sorted(found - set(ALLOWED))
    assert not unexplained, (f"imports inside a function: {unexplained}. Import at the top of the module; if a loop "
                             "stops you, move what both sides need to a module of its own (or publish an event)")
    stale = sorted(set(ALLOWED) - found)
    assert not stale, f"ALLOWED names imports that are gone: {stale} (remove them from the list)"


def test_the_lifecycle_is_installed_and_tenants_keeps_only_the_ground_floor():
    from django.apps import apps

    assert apps.get_app_config("lifecycle").path == str(ROOT / "lifecycle")
    ground = sorted(path.name for path in (ROOT / "tenants").glob("*.py"))
    assert ground == ["__init__.py", "addresses.py", "apps.py", "directory.py", "middleware.py", "models.py"]


def test_the_checks_see_what_they_look_for(tmp_path):
    """The walks themselves: an upward import (relative or inside a function) and a function-local
    import are found; a test module and the test support are left out."""
    (tmp_path / "apps" / "content" / "tests").mkdir(parents=True)
    (tmp_path / "tenants").mkdir()
    (tmp_path / "apps" / "content" / "services.py").write_text(
        "import json\nfrom apps.core import events\n\ndef f():\n    from lifecycle.services import client_get\n"
        "    from apps.media import storage\n    import os\n")
    (tmp_path / "apps" / "content" / "tests" / "test_x.py").write_text("def t():\n    from lifecycle import services\n")
    (tmp_path / "tenants" / "middleware.py").write_text("from .. import lifecycle\n")
    (tmp_path / "apps" / "core" / "testsuite").mkdir(parents=True)
    (tmp_path / "apps" / "core" / "testsuite" / "plugin.py").write_text("def f():\n    import lifecycle.provisioning\n")
    assert upward(tmp_path) == ["apps/content/services.py imports lifecycle.services",
                                "tenants/middleware.py imports lifecycle"]
    assert local_imports(tmp_path) == {("apps/content/services.py", "lifecycle.services"),
                                       ("apps/content/services.py", "apps.media")}


def test_the_lifecycle_tasks_keep_the_names_queued_work_was_stored_under():
    """Outbox rows and the beat schedule name tasks by string: the move kept every name."""
    from django.conf import settings

    from lifecycle import tasks

    names = {task.name for task in (tasks.delete_company, tasks.delete_unverified_companies,
                                    tasks.find_companies_email, tasks.refill_schema_pool)}
    assert names == {"tenants.delete_company", "tenants.delete_unverified_companies", "tenants.find_companies_email",
                     "tenants.refill_schema_pool"}
    scheduled = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert {"tenants.delete_unverified_companies", "tenants.refill_schema_pool"} <= scheduled
