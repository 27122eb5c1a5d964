"""make bench-migrate: time `migrate_schemas` with N companies (N = 100, 1000 by default):
a no-op run, and a run that applies one new migration (a nullable AddField) everywhere.
Runs on its own database (cms_bench_migrate)."""
import importlib
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LEVELS = [int(n) for n in os.environ.get("BENCH_LEVELS", "100,1000").split(",")]
base = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/cms").rsplit("/", 1)[0]
migrations_dir = Path(tempfile.mkdtemp(prefix="bench-migrations-"))
package = migrations_dir / "benchmig_migrations"
package.mkdir()
(package / "__init__.py").write_text("")
env = {
    **os.environ,
    "DATABASE_URL": f"{base}/cms_bench_migrate",
    "DJANGO_SETTINGS_MODULE": "bench.settings_migrate",
    "BENCH_MIGRATIONS_DIR": str(migrations_dir),
    "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
}
os.environ.update(env)
sys.path[:0] = [str(ROOT / "platform"), str(ROOT)]

INITIAL = """from django.db import migrations, models

class Migration(migrations.Migration):
    initial = True
    dependencies = []
    operations = [migrations.CreateModel(name="Probe", fields=[
        ("id", models.BigAutoField(primary_key=True, serialize=False)),
        ("name", models.CharField(max_length=50))])]
"""
ADD_FIELD = """from django.db import migrations, models

class Migration(migrations.Migration):
    dependencies = [("benchmig", "{previous}")]
    operations = [migrations.AddField(model_name="probe", name="extra_{n}", field=models.TextField(null=True))]
"""
migration_names = ["0001_initial"]
(package / "0001_initial.py").write_text(INITIAL)


def add_migration() -> None:
    n = len(migration_names) + 1
    name = f"{n:04d}_extra_{n}"
    (package / f"{name}.py").write_text(ADD_FIELD.format(previous=migration_names[-1], n=n))
    migration_names.append(name)


def migrate(*extra: str) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "manage.py", "migrate_schemas", "--noinput", "-v", "0", *extra],
                   cwd=ROOT, env=env, check=True)
    return time.perf_counter() - started


subprocess.run(["psql", f"{base}/postgres", "-qc", "DROP DATABASE IF EXISTS cms_bench_migrate WITH (FORCE)"], check=True)
subprocess.run(["psql", f"{base}/postgres", "-qc", "CREATE DATABASE cms_bench_migrate"], check=True)
migrate()

import django  # noqa: E402

django.setup()
from tenants.models import Client  # noqa: E402
from tenants.provisioning import expected_migrations_digest  # noqa: E402
from tenants.services import client_register  # noqa: E402

counter = iter(range(10**7))
print(f"{'companies':>9} | {'no-op run':>10} | {'one new migration':>17} | {'no-op, every schema visited':>27}")
for level in LEVELS:
    while Client.objects.count() < level:
        n = next(counter)
        client_register(company_name=f"Company {n}", contact_name="Bench", contact_email=f"c{n}@example.com",
                        subdomain=f"mig-{n}", admin_username=f"admin{n}", admin_email=f"a{n}@example.com",
                        admin_password="password123")
    noop = migrate()
    add_migration()
    one = migrate()
    # This process signs up the next level's companies: let it see the new migration, as a
    # restarted server would (the code's migration digest is computed once per process).
    importlib.invalidate_caches()
    expected_migrations_digest.cache_clear()
    visit_all = f"{migrate('--all-schemas', '--executor', 'standard'):>26.1f}s" if level <= 100 else f"{'(skipped)':>27}"
    print(f"{level:>9} | {noop:>9.1f}s | {one:>16.1f}s | {visit_all}", flush=True)
subprocess.run(["psql", f"{base}/postgres", "-qc", "DROP DATABASE IF EXISTS cms_bench_migrate WITH (FORCE)"], check=True)
