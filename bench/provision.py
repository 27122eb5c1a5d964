"""Median sign-up time (company + schema + domain + admin, as POST register-client does)
with 1, 100 and 500 companies already present. Runs on its own database (cms_bench)."""
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]
base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cms").rsplit("/", 1)[0]
os.environ["DATABASE_URL"] = f"{base}/cms_bench"
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
SAMPLES = int(os.environ.get("BENCH_SAMPLES", "15"))
LEVELS = [int(n) for n in os.environ.get("BENCH_LEVELS", "1,100,500").split(",")]

subprocess.run(["psql", f"{base}/postgres", "-qc", "DROP DATABASE IF EXISTS cms_bench"], check=True)
subprocess.run(["psql", f"{base}/postgres", "-qc", "CREATE DATABASE cms_bench"], check=True)

import django  # noqa: E402

django.setup()
from django.core.management import call_command  # noqa: E402

from tenants.models import Client  # noqa: E402
from tenants.services import client_register  # noqa: E402

call_command("migrate_schemas", interactive=False, verbosity=0)
counter = iter(range(10**6))


def sign_up() -> float:
    n = next(counter)
    started = time.perf_counter()
    client_register(company_name=f"Company {n}", contact_name="Bench", contact_email=f"c{n}@example.com",
                    subdomain=f"bench-{n}", admin_username=f"admin{n}", admin_email=f"a{n}@example.com",
                    admin_password="password123")
    return time.perf_counter() - started


sign_up()  # warm-up (loads the migration graph once per process)
print(f"{'existing tenants':>17} | {'median sign-up':>14} | {'p90':>8} | samples")
for level in LEVELS:
    while Client.objects.count() < level:
        sign_up()
    timings = sorted(sign_up() for _ in range(SAMPLES))
    p90 = timings[int(len(timings) * 0.9) - 1]
    print(f"{level:>17} | {statistics.median(timings) * 1000:>11.1f} ms | {p90 * 1000:>5.1f} ms | {SAMPLES}")
    # Remove the sampled companies so the next level starts from its own count.
    for client in Client.objects.order_by("-created_at")[:SAMPLES]:
        client.delete(force_drop=True)
