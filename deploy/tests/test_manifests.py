"""The deployment files are valid against their specifications, and every setting they pass
is one the application reads."""
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent


def settings_variables() -> set[str]:
    names = set()
    for path in [ROOT / "platform/config/settings.py", ROOT / "platform/config/signing_keys.py",
                 ROOT / "platform/config/environment.py"]:
        names |= set(re.findall(r'(?:env(?:_bool|_int|_list)?|require_secret|os\.environ\.get)\(\s*"([A-Z0-9_]+)"',
                                path.read_text()))
    return names


# Read by programs other than Django's settings.
EXTERNAL = {"PORT", "WEB_SERVER", "WEB_MAX_RSS_MB", "WEB_HOST", "WEB_PORT", "WEB_ACCESS_LOG", "WEB_LOG_LEVEL", "WEB_WORKERS", "WEB_THREADS", "WEB_TIMEOUT", "WEB_MAX_REQUESTS", "WORKER_CONCURRENCY",
            "FLOWER_BASIC_AUTH", "FLOWER_PORT", "SEED_DEMO", "POSTGRES_USER", "POSTGRES_PASSWORD", "POSTGRES_DB",
            "MINIO_ROOT_USER", "MINIO_ROOT_PASSWORD", "PYTHONPATH", "DJANGO_SETTINGS_MODULE",
            # PgBouncer's image
            "POOL_MODE", "AUTH_TYPE", "MAX_CLIENT_CONN", "DEFAULT_POOL_SIZE", "SERVER_RESET_QUERY"}


def test_compose_file_follows_the_compose_specification():
    result = subprocess.run([BIN / "check-jsonschema", "--builtin-schema", "vendor.compose-spec",
                             str(ROOT / "docker-compose.yml")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(
    shutil.which("docker") is None
    or subprocess.run(["docker", "compose", "version"], capture_output=True).returncode != 0,
    reason="the Docker client with its compose plugin is not installed",
)
def test_docker_compose_config():
    result = subprocess.run(["docker", "compose", "-f", str(ROOT / "docker-compose.yml"), "config", "--quiet"],
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stderr


def test_kubernetes_manifests_are_valid():
    files = sorted(str(p) for p in (ROOT / "deploy/k8s").glob("*.yaml"))
    assert len(files) >= 5
    result = subprocess.run([BIN / "kubernetes-validate", "--strict", "--quiet", *files], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_kubernetes_has_one_beat_a_migration_job_an_hpa_and_a_wildcard_ingress():
    docs = [d for p in sorted((ROOT / "deploy/k8s").glob("*.yaml")) for d in yaml.safe_load_all(p.read_text()) if d]
    by_kind = {}
    for doc in docs:
        by_kind.setdefault(doc["kind"], []).append(doc)
    beat = next(d for d in by_kind["Deployment"] if d["metadata"]["name"] == "cms-beat")
    assert beat["spec"]["replicas"] == 1 and beat["spec"]["strategy"]["type"] == "Recreate"
    assert by_kind["Job"][0]["spec"]["template"]["spec"]["containers"][0]["args"] == ["migrate"]
    assert by_kind["HorizontalPodAutoscaler"][0]["spec"]["scaleTargetRef"]["name"] == "cms-web"
    hosts = [rule["host"] for rule in by_kind["Ingress"][0]["spec"]["rules"]]
    assert any(host.startswith("*.") for host in hosts)


def test_every_variable_passed_to_the_app_is_read_by_the_app():
    known = settings_variables() | EXTERNAL
    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    passed = set()
    for service in compose["services"].values():
        passed |= set((service.get("environment") or {}).keys())
    for path in (ROOT / "deploy/k8s").glob("*.yaml"):
        for doc in yaml.safe_load_all(path.read_text()):
            if doc and doc["kind"] in {"ConfigMap", "Secret"}:
                passed |= set((doc.get("data") or doc.get("stringData") or {}).keys())
    unknown = sorted(passed - known)
    assert unknown == [], f"set but never read: {unknown}"
