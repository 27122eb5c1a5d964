"""What follows a write reaches the audit log and the webhooks through domain events
(apps/core/events.py, docs/events.md): the apps that write posts, terms, media and users never
import those two apps (their tests aside), so neither the code nor the import graph points upward."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
WRITERS = ("apps/content", "apps/media", "apps/accounts")
SUBSCRIBERS = ("apps.audit", "apps.webhooks")


def _imports(path: Path) -> list[str]:
    """Every module a file imports, at its top or inside a function (relative imports resolved)."""
    package = ".".join(path.relative_to(ROOT).with_suffix("").parts[:-1])
    found = []
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            found += [base, *(f"{base}.{alias.name}" for alias in node.names)]
    return found


def _upward(app: str) -> list[str]:
    found = []
    for path in sorted((ROOT / app).rglob("*.py")):
        if "tests" in path.relative_to(ROOT / app).parts:
            continue
        found += [f"{path.relative_to(ROOT)} imports {name}" for name in _imports(path)
                  if any(name == target or name.startswith(target + ".") for target in SUBSCRIBERS)]
    return found


def test_content_media_and_accounts_do_not_import_the_audit_log_or_webhooks():
    assert [line for app in WRITERS for line in _upward(app)] == []


def test_the_check_sees_an_import_inside_a_function(tmp_path, monkeypatch):
    """The walk itself: a function-local or relative import of a subscriber app is found."""
    app = tmp_path / "apps" / "content"
    app.mkdir(parents=True)
    (app / "services.py").write_text("def f():\n    from apps.webhooks.services import event_emit\n"
                                     "from ..audit import services\n")
    monkeypatch.setitem(globals(), "ROOT", tmp_path)
    assert sorted(_upward("apps/content")) == [f"apps/content/services.py imports {name}" for name in (
        "apps.audit", "apps.audit.services", "apps.webhooks.services", "apps.webhooks.services.event_emit")]
