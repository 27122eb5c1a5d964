"""The public reads of make bench-newsletter, in a process of their own (as a website's server is):
GETs of the posts list on one keep-alive connection, a cached page and a new query string (the list
from PostgreSQL) in turn. In the benchmark's own process they would wait for its other threads'
interpreter lock (its sampling of the worker, PostgreSQL and the SMTP server during the send), which
no website's request waits for.

BENCH_READS_KEY=KEY python bench/newsletter_reads.py PORT HOST TAG COUNT PAUSE: COUNT pairs (0: until a
line or the end of stdin), PAUSE seconds between pairs, with the content key KEY; each uncached query
string names TAG. Prints {"cached": [s, ...], "uncached": [...], "errors": n} as one JSON line at the
end.
"""
from __future__ import annotations

import http.client
import json
import os
import sys
import threading
import time
from urllib.parse import quote

LIST = "/api/v1/posts?page=1&limit=10"
WARM = 5  # the first pairs warm the connection: not counted


def read(port: int, host: str, key: str, tag: str, count: int, pause: float, done: threading.Event) -> dict:
    headers = {"Host": host, "x-api-key": key}
    timings: dict[str, list[float]] = {"cached": [], "uncached": []}
    errors = 0
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    n = 0
    while not done.is_set() and (not count or n < count + WARM):
        for kind, path in (("cached", LIST), ("uncached", f"{LIST}&v={quote(tag)}-{n}")):
            started = time.perf_counter()
            try:
                conn.request("GET", path, headers=headers)
                response = conn.getresponse()
                response.read()
                ok = response.status == 200
            except (OSError, http.client.HTTPException):
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
                ok = False
            if not ok:
                errors += 1
            elif n >= WARM:
                timings[kind].append(time.perf_counter() - started)
        n += 1
        if pause:
            done.wait(pause)
    conn.close()
    return {**timings, "errors": errors}


def main() -> None:
    port, host, tag, count, pause = sys.argv[1:6]
    done = threading.Event()
    if not int(count):
        threading.Thread(target=lambda: (sys.stdin.readline(), done.set()), daemon=True).start()
    found = read(int(port), host, os.environ["BENCH_READS_KEY"], tag, int(count), float(pause), done)
    print(json.dumps(found), flush=True)


if __name__ == "__main__":
    main()
