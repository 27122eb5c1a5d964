"""Write the three OpenAPI documents to openapi/ (sorted keys, indented JSON), or with --check
fail when a committed document differs from what the code produces.

The dashboard's TypeScript types (dashboard/src/lib/api/schema.d.ts) and the content SDK's
(sdk/src/schema.d.ts) are generated from these files, so a change of the API shows up in review
as a change of these documents, and CI fails when someone forgets to export them."""
from __future__ import annotations

import difflib
import json
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

# file name -> (api object in config.api, the path it is served under)
DOCUMENTS = {
    "dashboard.json": ("dashboard_api", "/api/"),
    "public.json": ("public_api", "/api/v1/"),
    "root.json": ("root_api", "/api/"),
}


def default_directory() -> Path:
    return Path(settings.BASE_DIR) / "openapi"


def render(name: str) -> str:
    """The document `name` (a key of DOCUMENTS) as the exported text."""
    from config import api

    api_name, prefix = DOCUMENTS[name]
    document = getattr(api, api_name).get_openapi_schema(path_prefix=prefix)
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def stale(directory: Path) -> dict[str, str]:
    """File name -> unified diff (committed -> produced) of every document that is out of date."""
    found = {}
    for name in DOCUMENTS:
        path = directory / name
        produced = render(name)
        committed = path.read_text(encoding="utf-8") if path.exists() else ""
        if committed != produced:
            diff = difflib.unified_diff(committed.splitlines(keepends=True), produced.splitlines(keepends=True),
                                        fromfile=f"{name} (committed)", tofile=f"{name} (from the code)", n=2)
            found[name] = "".join(diff) if committed else "(missing)\n"
    return found


class Command(BaseCommand):
    help = "Write openapi/dashboard.json, public.json and root.json; --check fails when one is out of date."

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true",
                            help="write nothing; exit non-zero when a committed document differs from the code")
        parser.add_argument("--dir", default=None, help="directory of the documents (default: openapi/ of the repo)")

    def handle(self, *args, check: bool = False, dir: str | None = None, **options):
        directory = Path(dir) if dir else default_directory()
        if check:
            found = stale(directory)
            if found:
                details = "\n".join(diff[:4000] for diff in found.values())
                raise CommandError(
                    f"OpenAPI documents out of date: {', '.join(sorted(found))} in {directory}.\n{details}\n"
                    "Run `python manage.py openapi_export` and commit the result "
                    "(then `npm run gen:api` in dashboard/ and sdk/).")
            self.stdout.write(f"OpenAPI documents up to date ({', '.join(DOCUMENTS)}).")
            return
        directory.mkdir(parents=True, exist_ok=True)
        for name in DOCUMENTS:
            (directory / name).write_text(render(name), encoding="utf-8")
        self.stdout.write(f"wrote {', '.join(str(directory / name) for name in DOCUMENTS)}")
