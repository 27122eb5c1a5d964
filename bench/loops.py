"""make bench-loops: the periodic work that visits companies, at 10,000 companies (BENCH_COMPANIES;
BENCH_SMOKE=1: 50) on one PostgreSQL, each pass timed against its period.

Companies are made cheaply: the template's schema cloned (the product's own clone,
lifecycle.provisioning) with the company and domain rows, in BENCH_PROCESSES processes, one
transaction each; no admin user (no password hashing). 1 % of them have a scheduled post due now and
10 % one due in a day, both in the index of scheduled publishing, as the services put them.

It prints, for each loop: its period (settings), how many chunks of COMPANIES_CHUNK_SIZE companies a
pass is cut into (apps.core.tenancy.fan_out), the time of the whole pass run chunk after chunk in
this one process (the time on one worker; W workers take about 1/W of it), the longest chunk, and
whether one worker finishes within the period. Scheduled publishing's beat task reads the index
(median of BENCH_RUNS runs), beside the loop it replaced (every schema entered, once). Runs on its
own database (cms_bench_loops), dropped at the end; BENCH_MEASURE_ONLY=1 times the loops on the
companies that database holds now and keeps it.
"""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
from bench import common  # noqa: E402
from bench.common import announce, knob  # noqa: E402

COMPANIES = knob("BENCH_COMPANIES", 10_000, 50)
PROCESSES = knob("BENCH_PROCESSES", 2)
RUNS = knob("BENCH_RUNS", 5, 3)
DATABASE = "cms_bench_loops"
PER_TRANSACTION = 1  # a schema is ~157 relations locked until commit: more runs out of lock slots
FRESH_CONNECTION_EVERY = 200  # companies made on one database session before a new one
ENV = {
    **os.environ,
    "DATABASE_URL": f"{common.server_url()}/{DATABASE}",
    "DJANGO_SETTINGS_MODULE": "config.settings",
    "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
    "ROOT_DOMAIN": "localhost",
    "DEBUG": "0",
    "LOG_LEVEL": "WARNING",
    "SCHEMA_POOL_SIZE": "0",
}
os.environ.update({k: v for k, v in ENV.items() if k != "PYTHONPATH"})
common.use_own_redis("loops")


def generate(first: int, last: int) -> None:
    """Companies loop-<first> .. loop-<last - 1> (a child process)."""
    import django

    django.setup()
    from datetime import timedelta

    from django.db import transaction
    from django.utils import timezone
    from django_tenants.utils import schema_context

    from apps.content import scheduling
    from apps.content.models import Post
    from lifecycle.provisioning import schema_create_from_template, template_current
    from tenants.models import Client, Domain

    from django.db import connection

    template = template_current()
    now = timezone.now()
    for start in range(first, last, PER_TRANSACTION):
        if start > first and start % FRESH_CONNECTION_EVERY == 0:
            # A session that made a schema keeps its ~157 relations in its caches: after thousands, each
            # new one costs several times the first (848 MB per server process at 3,800 companies)
            connection.close()
        with transaction.atomic():
            for n in range(start, min(start + PER_TRANSACTION, last)):
                schema = f"t_loop_{n}"
                schema_create_from_template(schema, template)
                client = Client(schema_name=schema, subdomain=f"loop-{n}", name=f"Company {n}", contact_name="Bench",
                                contact_email=f"c{n}@example.com", status=Client.Status.ACTIVE,
                                subscription_plan="business", migrations_digest=template.migrations_digest,
                                email_verified_at=now)
                client.save()
                Domain(domain=f"loop-{n}.localhost", tenant=client, is_primary=True).save()
                due = now - timedelta(minutes=1) if n % 100 == 0 else now + timedelta(days=1) if n % 10 == 1 else None
                if due is not None:
                    with schema_context(schema):
                        Post.objects.create(title=f"Post {n}", slug=f"post-{n}", content="<p>x</p>", excerpt="x",
                                            status=Post.Status.DRAFT, publish_scheduled=True,
                                            scheduled_publish_date=due)
                        scheduling.schedule_note(due)


if len(sys.argv) == 4 and sys.argv[1] == "generate":
    generate(int(sys.argv[2]), int(sys.argv[3]))
    sys.exit(0)


def manage(*args: str) -> None:
    subprocess.run([sys.executable, "manage.py", *args], cwd=ROOT, env=ENV, check=True, stdout=subprocess.DEVNULL)


# BENCH_MEASURE_ONLY=1: time the loops on the companies the database holds now (another run may
# still be making them), keeping the database.
MEASURE_ONLY = os.environ.get("BENCH_MEASURE_ONLY", "") not in ("", "0")
announce()
if not MEASURE_ONLY:
    common.fresh_database(DATABASE)
    manage("migrate_schemas", "--noinput", "-v", "0")
    started = time.perf_counter()
    step = -(-COMPANIES // PROCESSES)
    children = [subprocess.Popen([sys.executable, __file__, "generate", str(first),
                                  str(min(first + step, COMPANIES))], cwd=ROOT, env=ENV)
                for first in range(0, COMPANIES, step)]
    if any(child.wait() for child in children):
        sys.exit("making companies failed")
    print(f"{COMPANIES:,} companies made in {time.perf_counter() - started:.0f} s", flush=True)

import django  # noqa: E402

django.setup()
import statistics  # noqa: E402

from django.conf import settings  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from apps.analytics import tasks as analytics_tasks  # noqa: E402
from apps.content import tasks as content_tasks  # noqa: E402
from apps.content.models import Post  # noqa: E402
from apps.core import tenancy  # noqa: E402
from apps.core.task_queue import celery_app  # noqa: E402
from apps.plans import trial  # noqa: E402

celery_app().loader.import_default_modules()  # every app's tasks module: every per-company loop registered
schedule = settings.CELERY_BEAT_SCHEDULE
PERIODS = {entry["task"]: float(entry["schedule"]) for entry in schedule.values()}
# The per-company work each beat task fans out (apps.core.tenancy.per_company), by beat task.
FANNED = {"content.publish_sweep": "content.publish_sweep", "content.prune_revisions": "content.prune_revisions",
          "plans.recount": "plans.recount", "ai.fail_stale_jobs": "ai.fail_stale_jobs", "audit.prune": "audit.prune",
          "webhooks.prune_deliveries": "webhooks.prune_deliveries", "analytics.dispatch_rollup": "analytics.rollup",
          "analytics.dispatch_purge": "analytics.purge", "members.prune_used_links": "members.prune_used_links"}


def timed(call) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def old_publish_pass() -> int:
    """The beat task before the index: every serving company's schema entered, one query each."""
    now = timezone.now()
    found = tenancy.for_each_active_tenant(
        lambda tenant: Post.objects.filter(publish_scheduled=True, status=Post.Status.DRAFT,
                                           scheduled_publish_date__lte=now).exists())
    return sum(found.values())


rows = []
beat = [timed(content_tasks.publish_scheduled_posts) for _ in range(RUNS)]
due_now = content_tasks.publish_scheduled_posts()
rows.append(("content.publish_scheduled_posts (index)", PERIODS["content.publish_scheduled_posts"], 1,
             statistics.median(beat), max(beat)))
connection.close()
old = timed(old_publish_pass)
connection.close()
rows.append(("  the loop it replaced (every schema)", PERIODS["content.publish_scheduled_posts"], 1, old, old))
rows.append(("analytics.dispatch_flush", PERIODS["analytics.dispatch_flush"], 1,
             timed(analytics_tasks.dispatch_flush), 0.0))
rows.append(("plans.trial_reminders", PERIODS["plans.trial_reminders"], 1, timed(trial.trial_reminders), 0.0))

for task, name in FANNED.items():
    if name not in tenancy._registered or task not in PERIODS:
        print(f"({task}: not a per-company loop of this code; left out)")
        continue
    entry = tenancy._registered[name]
    schemas = list(tenancy.active_tenants(include_suspended=entry.include_suspended)
                   .values_list("schema_name", flat=True))
    chunks = tenancy.chunks_of(schemas)
    times = [timed(lambda chunk=chunk: tenancy.chunk_run(name, chunk)) for chunk in chunks]
    rows.append((task, PERIODS[task], len(chunks), sum(times), max(times, default=0.0)))
    print(f"  {task}: {sum(times):.1f} s", flush=True)

companies = tenancy.active_tenants().count()
if companies < COMPANIES:
    # The beat reads only public tables (the index and the companies) and never enters a schema: it is
    # also timed with both filled to COMPANIES rows (companies without a schema, 1 % due, removed after).
    from apps.core.models import CompanyDue  # noqa: E402
    from tenants.models import Client  # noqa: E402

    now = timezone.now()
    extra = Client.objects.bulk_create([
        Client(schema_name=f"t_index_only_{n}", subdomain=f"index-only-{n}", name=f"Index only {n}",
               contact_name="Bench", contact_email=f"i{n}@example.com", status=Client.Status.ACTIVE)
        for n in range(COMPANIES - companies)], batch_size=1000)
    CompanyDue.objects.bulk_create([CompanyDue(client=client, kind="content.publish", due_at=now, version=1)
                                    for client in extra[::100]], batch_size=1000)
    filled = [timed(content_tasks.publish_scheduled_posts) for _ in range(RUNS)]
    filled_due = content_tasks.publish_scheduled_posts()
    rows.insert(1, (f"  the same, index and companies at {COMPANIES:,} rows", PERIODS["content.publish_scheduled_posts"],
                    1, statistics.median(filled), max(filled)))
    Client.objects.filter(pk__in=[client.pk for client in extra]).delete()
    print(f"(the beat with {COMPANIES:,} companies in the index: {filled_due} due)", flush=True)
print(f"\n{companies:,} companies, chunks of {settings.COMPANIES_CHUNK_SIZE}; {due_now} with a post due")
print(f"{'loop (beat task)':<42} {'period':>8} {'chunks':>6} {'pass, 1 worker':>15} {'longest chunk':>14}  within period")
for task, period, chunks, total, longest in rows:
    print(f"{task:<42} {period:>7.0f}s {chunks:>6} {total:>14.2f}s {longest:>13.2f}s  "
          f"{'yes' if total <= period else 'NO'}")
connection.close()
if not MEASURE_ONLY:
    common.drop_database(DATABASE)
