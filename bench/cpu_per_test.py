"""The CPU each test costs, its processes' included, run by hand. As a pytest plugin:

    TEST_CPU=/tmp/cpu.jsonl .venv/bin/python -m pytest -p bench.cpu_per_test tests/test_browser.py

writes a line for each test: the CPU-seconds, before and after it (setup and teardown in), of
the test process and of every process below it, by name (chromium, node: Playwright's driver,
gunicorn...), and the wall time and load average. A process that ended is counted in the parent
that waited for it. /usr/bin/time misses Chromium: the processes it leaves when Playwright's
driver stops are not the test process's waited-for children. Then

    .venv/bin/python bench/cpu_per_test.py /tmp/cpu.jsonl

sums them, in all and by file. The last test's line holds the teardown of what the session
kept (Chromium, the shared server): the sum leaves it out and says what Chromium had spent
by then."""

from __future__ import annotations

import collections
import json
import os
import sys
import time
from pathlib import Path

import pytest

TICKS = os.sysconf("SC_CLK_TCK")


def seconds_by_name() -> dict[str, float]:
    """CPU-seconds of this process ("pytest") and of each process below it, summed by name."""
    parents: dict[int, list[int]] = {}
    stats: dict[int, tuple[str, int]] = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        parents.setdefault(int(fields[1]), []).append(int(pid))
        stats[int(pid)] = (stat[stat.index("(") + 1 : stat.rindex(")")], sum(int(value) for value in fields[11:15]))
    spent: collections.Counter[str] = collections.Counter()
    below = [os.getpid()]
    while below:
        for child in parents.get(below.pop(), []):
            name, ticks = stats[child]
            spent[group(name)] += ticks / TICKS
            below.append(child)
    own = os.times()
    spent["pytest"] = own.user + own.system + own.children_user + own.children_system
    return dict(spent)


def group(name: str) -> str:
    """A process's name (its first 15 characters) as counted: Chromium's and gunicorn's processes together."""
    return next((whole for whole in ("chromium", "gunicorn", "node", "redis") if name.startswith(whole)), name)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None):
    before, started = seconds_by_name(), time.monotonic()
    try:
        return (yield)
    finally:
        after = seconds_by_name()
        names = set(before) | set(after)
        cpu = {name: round(after.get(name, 0) - before.get(name, 0), 3) for name in names}
        line = {"test": item.nodeid, "wall": round(time.monotonic() - started, 2), "load": os.getloadavg()[0]}
        with open(os.environ.get("TEST_CPU", "cpu_per_test.jsonl"), "a") as out:
            out.write(json.dumps({**line, "cpu": cpu}) + "\n")


def main(path: str) -> None:
    rows = [json.loads(line) for line in Path(path).read_text().splitlines()]
    kept, last = rows[:-1], rows[-1]
    by_name: collections.Counter[str] = collections.Counter()
    by_file: collections.Counter[str] = collections.Counter()
    for row in kept:
        by_name.update(row["cpu"])
        by_file[row["test"].split("::")[0]] += sum(row["cpu"].values())
    load = sum(row["load"] for row in rows) / len(rows)
    print(f"{len(kept)} tests (the last left out), mean load average {load:.1f}")
    print(f"CPU-seconds in all: {sum(by_name.values()):.1f}")
    for name, spent in by_name.most_common():
        print(f"  {name:20} {spent:7.1f}")
    print(f"Chromium's by the last test (its teardown): {-last['cpu'].get('chromium', 0):.1f}")
    for file, spent in by_file.most_common():
        print(f"  {file:45} {spent:7.1f}")


if __name__ == "__main__":
    main(sys.argv[1])
