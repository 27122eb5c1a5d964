"""With DEBUG off nothing starts on a guessable signing key: not the web server, the worker,
beat, nor any management command. The deployment examples ship no usable key, and
`manage.py check --deploy` passes with production settings."""
from __future__ import annotations

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from config.signing_keys import DEVELOPMENT_SECRETS, PUBLISHED_SECRETS, secret_problem

ROOT = Path(__file__).resolve().parents[3]
HOW_TO = 'python -c "import secrets; print(secrets.token_urlsafe(48))"'

COMMANDS = {
    "management command": [sys.executable, "manage.py", "check"],
    "web server": [sys.executable, "-m", "config.serve"],
    "worker": [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool", "solo"],
    "beat": [sys.executable, "-m", "celery", "-A", "config", "beat", "--schedule", os.devnull],
}


def strong() -> str:
    return secrets.token_urlsafe(48)


def run(command: list[str], **overrides: str | None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)]),
           "DJANGO_SETTINGS_MODULE": "config.settings", "DEBUG": "0", "SECRET_KEY": strong(), "JWT_SECRET": strong(),
           "WEB_HOST": "127.0.0.1", "WEB_PORT": "9"}
    for name in ("JWT_PREVIOUS_SECRETS", "JWT_PREVIOUS_SECRETS_UNTIL", "PYTEST_XDIST_WORKER"):
        env.pop(name, None)
    for name, value in overrides.items():
        if value is None:
            env.pop(name, None)
        else:
            env[name] = value
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)


def assert_refused(result: subprocess.CompletedProcess, variable: str, reason: str) -> None:
    assert result.returncode == 2, (result.returncode, result.stdout[-500:], result.stderr[-2000:])
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, result.stderr  # one clear line, no traceback
    assert lines[0].startswith(f"Refusing to start: {variable} {reason}"), lines[0]
    assert HOW_TO in lines[0]


@pytest.mark.parametrize("process", sorted(COMMANDS))
def test_every_process_refuses_to_start_without_a_secret_key(process):
    assert_refused(run(COMMANDS[process], SECRET_KEY=None), "SECRET_KEY", "is not set")


@pytest.mark.parametrize("value", sorted(PUBLISHED_SECRETS))
def test_a_value_published_in_the_repository_is_refused(value):
    assert_refused(run(COMMANDS["management command"], SECRET_KEY=value), "SECRET_KEY", "is a value published")
    assert_refused(run(COMMANDS["management command"], JWT_SECRET=value), "JWT_SECRET", "is a value published")


def test_a_short_secret_is_refused_and_jwt_secret_no_longer_falls_back_to_secret_key():
    assert_refused(run(COMMANDS["worker"], JWT_SECRET="x" * 31), "JWT_SECRET", "is shorter than 32 bytes")
    assert_refused(run(COMMANDS["management command"], JWT_SECRET=None), "JWT_SECRET", "is not set")


def test_a_previous_key_needs_an_end_date():
    result = run(COMMANDS["management command"], JWT_PREVIOUS_SECRETS=strong())
    assert result.returncode == 2 and "JWT_PREVIOUS_SECRETS_UNTIL" in result.stderr


def test_strong_secrets_start_and_development_runs_without_any():
    assert run(COMMANDS["management command"]).returncode == 0
    development = run(COMMANDS["management command"], DEBUG="1", SECRET_KEY=None, JWT_SECRET=None)
    assert development.returncode == 0, development.stderr


def test_development_values_are_never_accepted_in_production():
    for name, value in DEVELOPMENT_SECRETS.items():
        assert secret_problem(name, value)


def _secret_values_in_deployment_files() -> dict[str, str]:
    values = {}
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    for name, value in compose["x-app"]["environment"].items():
        if name in DEVELOPMENT_SECRETS:
            # ${NAME:?message} makes compose stop when it is unset; ${NAME:-default} would ship a value.
            assert re.fullmatch(r"\$\{%s:\?[^}]+\}" % name, value), f"{name} must be required in compose: {value}"
            values[f"compose {name}"] = ""
    for line in (ROOT / ".env.example").read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep and name.strip() in DEVELOPMENT_SECRETS:
            values[f".env.example {name}"] = value.strip()
    for doc in yaml.safe_load_all((ROOT / "deploy/k8s/10-config.yaml").read_text()):
        if doc and doc["kind"] == "Secret":
            for name in DEVELOPMENT_SECRETS:
                values[f"k8s {name}"] = doc["stringData"][name]
    return values


def test_deployment_examples_ship_no_usable_key():
    values = _secret_values_in_deployment_files()
    assert {k.split()[0] for k in values} == {"compose", ".env.example", "k8s"}
    for where, value in values.items():
        assert secret_problem(where, value), f"{where} ships a usable key"


def test_check_deploy_passes_with_production_settings():
    result = run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
                 PUBLIC_SCHEME="https", PUBLIC_PORT="443", TRUST_X_FORWARDED_PROTO="1")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout
