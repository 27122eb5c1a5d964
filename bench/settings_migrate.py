"""Settings of the migration benchmark: the product plus one tenant app whose migrations the
benchmark writes into a temporary folder (BENCH_MIGRATIONS_DIR)."""
import os
import sys

from config.settings import *  # noqa: F403
from config.settings import INSTALLED_APPS, TENANT_APPS

sys.path.insert(0, os.environ["BENCH_MIGRATIONS_DIR"])
INSTALLED_APPS = [*INSTALLED_APPS, "bench.migrate_app"]
TENANT_APPS = [*TENANT_APPS, "bench.migrate_app"]
MIGRATION_MODULES = {"benchmig": "benchmig_migrations"}
