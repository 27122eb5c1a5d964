"""wrk runs and their table rows, for the HTTP benchmarks that share them (public_api, edge, replica)."""
from __future__ import annotations

import re
import subprocess


def wrk(port: int, path: str, headers: dict[str, str], seconds: int, connections: int,
        script: str | None = None) -> dict:
    """One wrk run (`script`: a Lua script for wrk, e.g. to vary the query)."""
    command = ["wrk", "-t1", f"-c{connections}", f"-d{seconds}s", "--latency", *(["-s", script] if script else [])]
    for name, value in headers.items():
        command += ["-H", f"{name}: {value}"]
    out = subprocess.run([*command, f"http://127.0.0.1:{port}{path}"], capture_output=True, text=True).stdout

    def latency(label: str) -> float:
        match = re.search(rf"^\s+{label}%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)
        value, unit = float(match.group(1)), match.group(2)
        return value / 1000 if unit == "us" else value * 1000 if unit == "s" else value

    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1)), "p50": latency("50"),
            "p99": latency("99"), "errors": int(non_2xx.group(1)) if non_2xx else 0}


def measure(name: str, port: int, path: str, headers: dict[str, str], *, seconds: int, warmup: int,
            connections: int, script: str | None = None) -> dict:
    """A warm-up run, then the measured one, printed as a table row."""
    wrk(port, path, headers, warmup, connections, script)
    result = wrk(port, path, headers, seconds, connections, script)
    note = f"  ({result['errors']} non-2xx/3xx)" if result["errors"] else ""
    print(f"{name:<52} | {result['rps']:>9,.0f} | {result['p50']:>8.2f} ms | {result['p99']:>8.2f} ms{note}",
          flush=True)
    return result


def header() -> None:
    print(f"{'scenario':<52} | {'req/s':>9} | {'p50':>11} | {'p99':>11}", flush=True)
    print("-" * 94, flush=True)
