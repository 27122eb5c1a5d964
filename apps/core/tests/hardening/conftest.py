"""Hooks of the hardening suites."""
import pytest


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    setattr(item, f"report_{report.when}", report)  # fixtures read it at teardown
    return report
