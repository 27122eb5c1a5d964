"""platform/ holds the project's configuration, yet `import platform` is Python's module."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def test_platform_is_the_standard_library_module_in_tests():
    import platform

    assert callable(platform.system)
    assert platform.system() in {"Linux", "Darwin", "Windows"}


def test_platform_is_the_standard_library_module_in_the_server_process():
    code = (
        "import django, os; os.environ.setdefault('DJANGO_SETTINGS_MODULE','config.settings'); "
        "import config.wsgi, platform; print(platform.system(), platform.__file__)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", "import sys; sys.path.insert(0, 'platform'); " + code],
                         cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    system, path = out.stdout.split()
    assert system == "Linux"
    assert "platform/config" not in path


def test_platform_is_the_standard_library_module_in_the_worker():
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT)])}
    code = "from config.celery import app; import platform; print(platform.system())"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "Linux"
