"""README.md is the front door and points only at what exists: its links and anchors resolve, it
says what `make dev` prints, it stays short, and the docs pages it maps are on the site's nav.
Pointers to the docs from code comments name pages that exist (23 of them once named an API.md
that was not in the repository). The site itself is built with --strict by `make docs`, which
checks the links between its pages."""
from __future__ import annotations

import os
import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")
SKIPPED_DIRS = {".git", ".venv", "node_modules", "site", "dist", ".data", "__pycache__", "screenshots"}
TEXT_SUFFIXES = {".py", ".ts", ".tsx", ".js", ".mjs", ".md", ".yml", ".yaml", ".sh", ".vcl", ".json", ".toml",
                 ".conf", ".html", ".css", ".txt", ".example"}


def slug(heading: str) -> str:
    """The anchor of a heading, as mkdocs' table of contents (and, for plain headings, GitHub) makes it."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link's text only
    text = re.sub(r"[`*]", "", text)
    text = re.sub(r"[^\w\s-]", "", text).strip().lower()
    return re.sub(r"[-\s]+", "-", text)


def anchors(path: Path) -> set[str]:
    found, fence = set(), False
    for line in path.read_text().splitlines():
        if line.startswith("```"):
            fence = not fence
        elif not fence and (match := re.match(r"#{1,6} (.+)", line)):
            found.add(slug(match.group(1)))
    return found


def nav_files(entries) -> set[str]:
    files = set()
    for entry in entries:
        values = entry.values() if isinstance(entry, dict) else [entry]
        for value in values:
            files |= nav_files(value) if isinstance(value, list) else {value}
    return files


def test_the_readme_is_a_short_front_door_with_the_two_commands():
    text = README.read_text()
    lines = len(text.splitlines())
    assert lines <= 200, f"README.md has {lines} lines: it is the front door, the rest belongs in docs/"
    assert "make dev" in text and "make test" in text
    # What `make dev` prints (the Makefile's run target) is what README tells a newcomer to open.
    makefile = (ROOT / "Makefile").read_text()
    printed = re.search(r'@echo "  Dashboard: http://demo\.localhost:\$\(PORT\)\s+login: (\S+) / (\S+)"', makefile)
    assert printed, "the run target no longer prints the dashboard address and the demo login"
    email, password = printed.groups()
    assert "http://demo.localhost:8000" in text and f"{email} / {password}" in text
    assert "http://localhost:8000/register" in text


def test_every_link_and_anchor_of_the_readme_resolves():
    targets = [link for link in LINK.findall(README.read_text()) if not re.match(r"[a-z]+:", link)]
    assert len(targets) >= 20  # the map of the docs
    for link in targets:
        path, _, anchor = link.partition("#")
        target = (ROOT / path) if path else README
        assert target.exists(), f"README links to {link}, which does not exist"
        if anchor:
            assert anchor in anchors(target), f"README links to {link}: {target.name} has no heading #{anchor}"


def test_the_readme_points_at_the_api_reference_of_every_openapi_document():
    text = README.read_text()
    for document in sorted((ROOT / "openapi").glob("*.json")):
        pages = [page for page in (DOCS / "api").glob("reference-*.md")
                 if f"[OAD(../../openapi/{document.name})]" in page.read_text()]
        assert len(pages) == 1, f"openapi/{document.name} has no reference page rendering it"
        assert f"(docs/api/{pages[0].name})" in text, f"README does not link to {pages[0].name}"


def test_every_docs_page_is_on_the_nav_and_every_nav_entry_exists():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text())
    listed = nav_files(config["nav"])
    pages = {str(path.relative_to(DOCS)) for path in DOCS.rglob("*.md")}
    assert not pages - listed, f"pages missing from nav in mkdocs.yml (add their line): {sorted(pages - listed)}"
    assert not listed - pages, f"nav entries without a page: {sorted(listed - pages)}"


def text_files():
    for directory, subdirectories, files in os.walk(ROOT):
        subdirectories[:] = [name for name in subdirectories if name not in SKIPPED_DIRS]
        for name in files:
            path = Path(directory) / name
            if (path.suffix in TEXT_SUFFIXES or name == "Makefile") and path != Path(__file__).resolve():
                yield path


def test_pointers_to_the_docs_name_pages_that_exist():
    missing = []
    for path in text_files():
        text = path.read_text(errors="replace")
        for name in re.findall(r"(?<![\w./-])(docs/[\w./-]+\.md)", text):
            if not (ROOT / name).exists():
                missing.append(f"{path.relative_to(ROOT)}: {name}")
        if re.search(r"(?<![\w/])API\.md", text):
            missing.append(f"{path.relative_to(ROOT)}: API.md (the contract is docs/api/index.md)")
    assert not missing, missing
