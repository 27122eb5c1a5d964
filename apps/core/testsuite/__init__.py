"""What the backend test suite needs to keep its own speed (docs/testing.md): a private PostgreSQL
cluster for the run, catalog vacuums between tests, companies taken from spare schemas, and the
report of the slowest tests and the time per test through the run. Loaded by the top-level
conftest.py as the pytest plugin `apps.core.testsuite.plugin`."""
