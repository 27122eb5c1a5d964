"""Wagtail's API serving the same list and searches, measured the way bench/public_api.py measures
the product: the anchor of its "uncached list vs Wagtail's" and "search vs Wagtail's" ratios.

Wagtail runs from a virtualenv of its own (make wagtail-venv: .data/venv-wagtail; the product's
.venv never holds it) as the blog of Wagtail's tutorial (bench/wagtail_site: BlogIndexPage,
BlogPage with date, intro, a rich-text body, tags and categories; wagtail.api.v2's `pages`
endpoint; the database search backend, PostgreSQL's full-text search), on PostgreSQL, seeded with
the product benchmark's posts (bench/wagtail_site/blog/management/commands/seed_blog.py: the same
titles, bodies, categories and tags, and the same 15 posts mentioning "zephyr"). Its database
(BENCH_WAGTAIL_DATABASE: cms_bench_wagtail; cms_bench_wagtail_smoke in smoke mode, so that a smoke
run does not replace the full run's pages) is kept between runs and reused while it holds the same
pages seeded by the same site code and packages (a fingerprint kept as the database's comment);
otherwise it is dropped, migrated and seeded again.

Served as the product is: granian, the same number of workers, WSGI, one blocking thread each (the
command line of bench/servers.py's bare app: the application loaded by each worker, where the
product's server preloads it), measured with bench.public_api_measure (wrk -t1, the same
connections, seconds and warm-up). Wagtail's API has no reply cache: it compares with the product's
rows with the cache off.

Standalone (the product's .venv, after make wagtail-venv): .venv/bin/python bench/wagtail_anchor.py,
with bench/public_api.py's knobs BENCH_POSTS (10000), BENCH_SECONDS (15), BENCH_WARMUP (5),
BENCH_CONNECTIONS (32), BENCH_WORKERS (2), and BENCH_SMOKE=1 (300 pages, 1 s runs, 8 connections).
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if __name__ == "__main__":
    sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench import servers  # noqa: E402
from bench.common import SMOKE, fresh_database, knob, server_url  # noqa: E402
from bench.public_api_measure import header, measure  # noqa: E402

SITE = ROOT / "bench" / "wagtail_site"
TEXT = ROOT / "bench" / "post_text.py"  # the posts' text, shared with the product's seeding (seed_blog imports it)
VENV = ROOT / ".data" / "venv-wagtail"  # make wagtail-venv
PYTHON = VENV / "bin" / "python"
STAMP = VENV / ".installed"  # the packages installed (the Makefile's pins)
DATABASE = os.environ.get("BENCH_WAGTAIL_DATABASE") or ("cms_bench_wagtail_smoke" if SMOKE else "cms_bench_wagtail")

# The page of 10 newest posts, as /api/v1/posts?page=1&limit=10: their intro (the product's excerpt),
# date, tags and categories (name and slug, as the product's list names them). Not their `body`:
# /api/v1's list carries its posts' summaries, not their HTML, and a Wagtail site listing its posts
# asks for the fields the list shows. Wagtail's API answers 10.7 KB for it, the product's list about 11.7 KB.
LIST = "/api/v2/pages/?type=blog.BlogPage&fields=intro,date,tags,categories&order=-date&limit=10"
# Searches as the API's documentation shows them, ranked by relevance, with the API's default fields
# (each page's title and meta: less than /api/v1's search sends, its list's summaries, which favours
# Wagtail). Wagtail matches whole words: "topic42" finds the posts with topic42 itself (1 in 500),
# where the product's search matches it as a prefix (topic42, topic420-topic429: 11 in 500).
SEARCH_RARE = "/api/v2/pages/?type=blog.BlogPage&search=zephyr&limit=10"
SEARCH_COMMON = "/api/v2/pages/?type=blog.BlogPage&search=topic42&limit=10"


def missing() -> str | None:
    """Why the anchor cannot run here (its virtualenv is not installed), or None."""
    if not STAMP.exists():
        return f"Wagtail's virtualenv is not installed ({VENV.relative_to(ROOT)}: make wagtail-venv)"
    return None


def _env(database_url: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "VIRTUAL_ENV")}
    return {**env, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "benchsite.settings",
            "PYTHONPATH": os.pathsep.join([str(SITE), str(TEXT.parent)]), "DEBUG": "0"}


def _manage(database_url: str, *args: str) -> None:
    subprocess.run([str(PYTHON), "manage.py", *args], cwd=SITE, env=_env(database_url), check=True)


def _fingerprint(pages: int) -> str:
    """The seeded database's: the pages asked for, the site's code (models, migrations, seeder) and the
    packages installed."""
    digest = hashlib.sha256(f"{pages}\n{STAMP.read_text()}".encode())
    for path in [*sorted(SITE.rglob("*.py")), TEXT]:
        digest.update(f"{path.relative_to(ROOT)}\n".encode() + path.read_bytes())
    return f"bench-wagtail {digest.hexdigest()}"


def _psql(sql: str) -> str:
    return subprocess.run(["psql", f"{server_url()}/postgres", "-Atqc", sql], check=True, capture_output=True,
                          text=True).stdout.strip()


_prepared: dict[int, str] = {}


def prepare(pages: int) -> str:
    """Wagtail's database with `pages` blog pages: reused when its fingerprint matches, else dropped,
    migrated and seeded (once a process). Its URL."""
    if pages in _prepared:
        return _prepared[pages]
    url = f"{server_url()}/{DATABASE}"
    fingerprint = _fingerprint(pages)
    found = _psql(f"SELECT shobj_description(oid, 'pg_database') FROM pg_database WHERE datname = '{DATABASE}'")
    if found == fingerprint:
        print(f"Wagtail: reused {DATABASE} ({pages:,} blog pages)", flush=True)
        _prepared[pages] = url
        return url
    started = time.perf_counter()
    fresh_database(DATABASE, migrated=False)  # Wagtail's own, not the product's tables
    _manage(url, "migrate", "--noinput", "--verbosity", "0")
    migrated = time.perf_counter()
    _manage(url, "seed_blog", "--pages", str(pages))
    _psql(f"COMMENT ON DATABASE \"{DATABASE}\" IS '{fingerprint}'")
    print(f"Wagtail: {DATABASE} migrated in {migrated - started:.0f} s, seeded in "
          f"{time.perf_counter() - migrated:.0f} s", flush=True)
    _prepared[pages] = url
    return url


def start_server(database_url: str, workers: int) -> tuple[subprocess.Popen, int]:
    """Wagtail under granian with the command line of bench/servers.py's bare app (WSGI, `workers`
    workers of one blocking thread); returns once its workers answer."""
    port = servers.free_port()
    command = [str(PYTHON), "-m", "granian", "--interface", "wsgi", "--workers", str(workers),
               "--blocking-threads", "1", "--host", "127.0.0.1", "--port", str(port), "--no-ws",
               "--log-level", "warning", "benchsite.wsgi:application"]
    process = subprocess.Popen(command, cwd=SITE, env=_env(database_url), start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"Wagtail's granian exited with status {process.returncode}")
        if servers.answers(port):
            return process, port
        time.sleep(0.1)
    servers.stop(process)
    raise RuntimeError("Wagtail's granian did not start")


def _total(port: int, path: str) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as response:
        return json.load(response)["meta"]["total_count"]


def _matches(count: int) -> str:
    return f"{count} match" + ("" if count == 1 else "es")


def run(*, pages: int, seconds: int, warmup: int, connections: int, workers: int) -> dict[str, dict]:
    """Wagtail's rows, printed as table rows (a header of their own): its API list and both searches.
    Returns their results by label: wagtail-list, wagtail-rare, wagtail-common."""
    url = prepare(pages)
    process, port = start_server(url, workers)
    try:
        version = next(pin.split("==")[1] for pin in STAMP.read_text().split() if pin.startswith("wagtail=="))
        rare, common = _total(port, SEARCH_RARE), _total(port, SEARCH_COMMON)
        print(f"\nWagtail {version} (bench/wagtail_site), granian {workers} workers (WSGI, 1 blocking thread each, "
              f"not preloaded), no cache; {pages:,} pages; load average before: {os.getloadavg()[0]:.1f}\n",
              flush=True)
        header()
        timing = {"seconds": seconds, "warmup": warmup, "connections": connections}
        results = {
            "wagtail-list": measure("Wagtail API list, page of 10 (intro, date, tags, categories)", port, LIST,
                                    {}, **timing),
            "wagtail-rare": measure(f"Wagtail API search 'zephyr' ({_matches(rare)})", port, SEARCH_RARE, {}, **timing),
            "wagtail-common": measure(f"Wagtail API search 'topic42' (whole word, {_matches(common)})", port,
                                      SEARCH_COMMON, {}, **timing),
        }
        print(f"worker memory, Wagtail: {servers.memory_text(servers.worker_figures(process))}", flush=True)
    finally:
        servers.stop(process)
    return results


if __name__ == "__main__":
    import shutil

    if reason := missing():
        sys.exit(reason)
    if not shutil.which("wrk"):
        sys.exit("wrk is not installed (make wrk)")
    run(pages=knob("BENCH_POSTS", 10000, 300), seconds=knob("BENCH_SECONDS", 15, 1), warmup=knob("BENCH_WARMUP", 5, 0),
        connections=knob("BENCH_CONNECTIONS", 32, 8), workers=knob("BENCH_WORKERS", 2))
