"""wrk runs and their table rows, for the HTTP benchmarks that share them (public_api, edge, replica)."""
from __future__ import annotations

import http.client
import re
import subprocess
import sys

from bench.common import SMOKE

WIDTH = 62  # of the scenario column


def wrk(port: int, path: str, headers: dict[str, str], seconds: int, connections: int,
        script: str | None = None) -> dict:
    """One wrk run (`script`: a Lua script for wrk, e.g. to vary the query). A reply may take up to
    30 s (wrk's own limit, 2 s, would leave the slowest replies of a busy machine out of p99)."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--timeout", "30s", "--latency",
               *(["-s", script] if script else [])]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True).stdout

    def latency(label: str) -> float:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    if "Requests/sec:" not in out or "Latency Distribution" not in out:
        sys.exit(f"wrk gave no figures for {path} on port {port}:\n{out}")
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    socket = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50": latency("50"),
            "p99": latency("99"), "errors": int(non_2xx.group(1)) if non_2xx else 0,
            "socket_errors": sum(int(n) for n in socket.groups()) if socket else 0,
            "requests": int(re.search(r"(\d+) requests in", out).group(1))}


def measure(name: str, port: int, path: str, headers: dict[str, str], *, seconds: int, warmup: int,
            connections: int, script: str | None = None) -> dict:
    """A warm-up run (none when `warmup` is 0), then the measured one, printed as a table row. In
    smoke mode (bench.common) an answer other than 2xx/3xx, to a first request sent alone or to
    wrk, stops the benchmark: it proves that each scenario is answered, not how fast."""
    if SMOKE:
        status = probe(port, path, headers)
        if not 200 <= status < 400:
            sys.exit(f"smoke run failed: {name}: GET {path} answered {status}")
    if warmup > 0:
        wrk(port, path, headers, warmup, connections, script)
    result = wrk(port, path, headers, seconds, connections, script)
    note = f"  ({result['errors']} non-2xx/3xx)" if result["errors"] else ""
    note += f"  ({result['socket_errors']} socket errors)" if result["socket_errors"] else ""
    print(f"{name:<{WIDTH}} | {result['rps']:>9,.0f} | {result['p50']:>8.2f} ms | {result['p99']:>8.2f} ms{note}",
          flush=True)
    if SMOKE and result["errors"]:
        sys.exit(f"smoke run failed: {name}: {result['errors']} of {result['requests']} answers not 2xx/3xx")
    return result


def probe(port: int, path: str, headers: dict[str, str]) -> int:
    """The status of one GET (a wrk script's path is not sent: `path` is)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    try:
        connection.request("GET", path, headers=headers)
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def header() -> None:
    print(f"{'scenario':<{WIDTH}} | {'req/s':>9} | {'p50':>11} | {'p99':>11}", flush=True)
    print("-" * (WIDTH + 42), flush=True)
