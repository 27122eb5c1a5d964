"""Web servers for the load benchmarks (bench/public_api.py, bench/track.py): the image's own
(`python -m config.serve`: granian with the application preloaded), gunicorn sync workers, or
granian's command line for a bare app; each on a free loopback port in its own process group."""
from __future__ import annotations

import http.client
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
APP = "apps.public_api.wsgi:application"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(kind: str, env: dict, *, workers: int, app: str = APP) -> tuple[subprocess.Popen, int]:
    """`kind` granian (config.serve for the product's app) or gunicorn; returns once it listens."""
    port = free_port()
    env = {**env, "PYTHONPATH": os.pathsep.join([str(ROOT / "platform"), str(ROOT), str(ROOT / "bench")])}
    if kind == "gunicorn":
        command = [sys.executable, "-m", "gunicorn", app, "--workers", str(workers), "--worker-class", "sync",
                   "--bind", f"127.0.0.1:{port}", "--backlog", "2048", "--log-level", "warning", "--preload"]
    elif app == APP:  # as the image serves it (application preloaded)
        command = [sys.executable, "-m", "config.serve"]
        env.update({"WEB_HOST": "127.0.0.1", "WEB_PORT": str(port), "WEB_WORKERS": str(workers), "WEB_THREADS": "1",
                    "WEB_ACCESS_LOG": "0", "WEB_LOG_LEVEL": "warning"})
    else:
        command = [sys.executable, "-m", "granian", "--interface", "wsgi", "--workers", str(workers),
                   "--blocking-threads", "1", "--host", "127.0.0.1", "--port", str(port), "--no-ws",
                   "--log-level", "warning", app]
    process = subprocess.Popen(command, cwd=ROOT, env=env, start_new_session=True)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{kind} exited with status {process.returncode}")
        if answers(port):
            return process, port
        time.sleep(0.1)
    stop(process)
    raise RuntimeError(f"{kind} did not start")


def answers(port: int) -> bool:
    """The server answers HTTP (any status): its workers have loaded the application, which a
    listening socket alone does not say (granian listens before its workers are ready)."""
    try:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
        connection.request("GET", "/api/health")
        connection.getresponse().read()
        connection.close()
        return True
    except (OSError, http.client.HTTPException):
        return False


def stop(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGTERM)
    process.wait(20)


def worker_figures(process: subprocess.Popen) -> list[dict[str, float]]:
    """RSS, PSS (the worker's share of the pages it shares with others) and private memory of
    each worker of the server, in MB."""
    out = subprocess.run(["ps", "-o", "pid=", "-g", str(process.pid)], capture_output=True, text=True).stdout
    found = []
    for pid in (int(line) for line in out.split() if int(line) != process.pid):
        try:
            fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:])
        except OSError:
            continue
        kb = {name: int(value.split()[0]) for name, value in fields.items()}
        found.append({"rss": kb["Rss"] / 1024, "pss": kb["Pss"] / 1024,
                      "private": (kb["Private_Clean"] + kb["Private_Dirty"]) / 1024})
    return found


def memory_text(figures: list[dict[str, float]]) -> str:
    return "; ".join(f"{f['rss']:.0f} MB RSS / {f['pss']:.0f} MB PSS / {f['private']:.0f} MB private" for f in figures)


def worker_memory(process: subprocess.Popen) -> str:
    """RSS, PSS and private memory of each worker, in MB, as one line."""
    return memory_text(worker_figures(process))
