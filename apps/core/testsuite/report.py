"""The run's own figures: the slowest tests, the time per test through the run (by tenths, in the
order tests finished, so a run that slows down as it goes shows it), and the suite's wall time.
Printed at the end of every run; written as JSON with --suite-report (make bench-tests)."""
from __future__ import annotations

import json
import os
import statistics
import time
from dataclasses import asdict, dataclass, field


@dataclass
class TestTime:
    nodeid: str
    setup: float = 0.0
    call: float = 0.0
    teardown: float = 0.0
    finished: float = 0.0  # seconds since the run started
    load: float = 0.0  # the machine's 1-minute load average when it finished
    outcome: str = "passed"
    companies: list[float] = field(default_factory=list)  # seconds of each company the test made
    pg_class_dead: int | None = None  # dead rows in pg_class after the test, when sampled

    @property
    def total(self) -> float:
        return self.setup + self.call + self.teardown


class SuiteClock:
    def __init__(self):
        self.started = time.monotonic()
        self.open: dict[str, TestTime] = {}
        self.done: list[TestTime] = []
        self.notes: list[str] = []
        self.extra: dict = {}

    def add(self, report) -> None:
        entry = self.open.setdefault(report.nodeid, TestTime(report.nodeid))
        setattr(entry, report.when, getattr(entry, report.when) + report.duration)
        if report.failed or (report.skipped and entry.outcome == "passed"):
            entry.outcome = "failed" if report.failed else "skipped"
        for name, value in getattr(report, "user_properties", ()):
            if name == "company_seconds":
                entry.companies.extend(value)
            elif name == "pg_class_dead":
                entry.pg_class_dead = value
        if report.when == "teardown":
            entry.finished = time.monotonic() - self.started
            entry.load = os.getloadavg()[0]
            self.done.append(self.open.pop(report.nodeid))

    @property
    def wall(self) -> float:
        return time.monotonic() - self.started

    def tenths(self) -> list[dict]:
        rows, count, previous_end = [], len(self.done), 0.0
        if count == 0:
            return rows
        for index in range(10):
            part = self.done[index * count // 10:(index + 1) * count // 10]
            if not part:
                continue
            companies = [seconds for test in part for seconds in test.companies]
            dead = [test.pg_class_dead for test in part if test.pg_class_dead is not None]
            end = part[-1].finished
            rows.append({
                "tenth": index + 1,
                "tests": len(part),
                "wall_seconds": round(end - previous_end, 1),
                "mean_seconds_per_test": round(statistics.fmean(test.total for test in part), 3),
                # the typical test: a tenth holding a few server tests moves the mean, not this
                "median_seconds_per_test": round(statistics.median(test.total for test in part), 3),
                "median_company_ms": round(statistics.median(companies) * 1000) if companies else None,
                "pg_class_dead_rows_max": max(dead) if dead else None,
                "load_average": round(statistics.fmean(test.load for test in part), 1),
            })
            previous_end = end
        return rows

    def as_dict(self, slowest: int) -> dict:
        tests = len(self.done)
        wall = self.wall
        return {
            "tests": tests,
            "outcomes": {outcome: sum(test.outcome == outcome for test in self.done)
                         for outcome in ("passed", "failed", "skipped")},
            "wall_seconds": round(wall, 1),
            "wall_seconds_per_test": round(wall / tests, 3) if tests else None,
            "test_seconds_total": round(sum(test.total for test in self.done), 1),
            "load_average": round(statistics.fmean(test.load for test in self.done), 1) if tests else None,
            "cpus": os.cpu_count(),
            "tenths": self.tenths(),
            "slowest": [{**asdict(test), "total": round(test.total, 2)}
                        for test in sorted(self.done, key=lambda t: t.total, reverse=True)[:slowest]],
            **self.extra,
        }

    def lines(self, slowest: int) -> list[str]:
        figures = self.as_dict(slowest)
        out = [f"{'total':>8} {'setup':>7} {'call':>7} {'teardown':>8}  test"]
        for test in figures["slowest"]:
            out.append(f"{test['total']:8.2f} {test['setup']:7.2f} {test['call']:7.2f} {test['teardown']:8.2f}  "
                       f"{test['nodeid']}")
        out.append("")
        out.append("time per test through the run (tenths, in the order tests finished):")
        out.append(f"{'tenth':>5} {'tests':>6} {'wall s':>8} {'s/test':>7} {'median':>7} {'company ms':>11} "
                   f"{'pg_class dead':>14} {'load':>5}")
        for row in figures["tenths"]:
            company = "-" if row["median_company_ms"] is None else str(row["median_company_ms"])
            dead = "-" if row["pg_class_dead_rows_max"] is None else f"{row['pg_class_dead_rows_max']:,}"
            out.append(f"{row['tenth']:>5} {row['tests']:>6} {row['wall_seconds']:>8.1f} "
                       f"{row['mean_seconds_per_test']:>7.3f} {row['median_seconds_per_test']:>7.3f} {company:>11} "
                       f"{dead:>14} {row['load_average']:>5.1f}")
        out.append("")
        out.extend(self.notes)
        per_test = figures["wall_seconds_per_test"]
        out.append(f"suite time: {figures['tests']} tests in {figures['wall_seconds']:.0f} s wall"
                   + (f" ({per_test:.3f} s per test)" if per_test else "")
                   + f", load average {figures['load_average']} on {figures['cpus']} cores")
        return out

    def write(self, path: str, slowest: int) -> None:
        with open(path, "w") as handle:
            json.dump(self.as_dict(slowest), handle, indent=1)
            handle.write("\n")
