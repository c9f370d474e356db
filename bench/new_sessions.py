"""New-session flood, run by hand: python bench/new_sessions.py [--seconds 10] [--threads 16]

Served as `make run` serves it (gunicorn.conf.py, 2 gevent workers, SQLite), with the
default limits. Three things, each printed as a line:

1. Another site's page with 120 `<img>` tags pointing at a first move, loaded from one
   address (Sec-Fetch-Site: cross-site, Sec-Fetch-Dest: image), then a real newcomer from
   the same address: the answers by status.
2. A flood of first moves (`GET /move?n=0&row=1&col=1`, no cookie) from 250 loopback
   addresses (127.1.0.1-250) for --seconds: the answers by status, and how many sessions
   the store holds afterwards (read from the database itself).
3. An IPv6 /64: no IPv6 on loopback here, so that part is in tests/test_hostile.py.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import http.client
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402

FIRST_MOVE = "/move?n=0&row=1&col=1"
IMAGE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}


def status(base: str, source: str, headers: dict | None = None) -> int:
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(source, 0))
    try:
        connection.request("GET", FIRST_MOVE, headers=headers or {})
        return connection.getresponse().status
    except OSError:
        return 0  # no answer within 10 s
    finally:
        connection.close()


def flood(base: str, seconds: float, threads: int) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    deadline = time.monotonic() + seconds

    def run(n: int) -> None:
        while time.monotonic() < deadline:
            counts[status(base, f"127.1.0.{n % 250 + 1}")] += 1
            n += threads

    workers = [threading.Thread(target=run, args=(n,)) for n in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return counts


def stored(database: Path) -> int:
    with contextlib.closing(sqlite3.connect(database)) as db:
        return db.execute("SELECT count(*) FROM sessions WHERE expires > ?", (time.time(),)).fetchone()[0]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--threads", type=int, default=16)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = servers.app_env(Path(tmp))
        with servers.gunicorn(env, workers=2) as base:
            images = collections.Counter(status(base, "127.0.9.1", IMAGE) for _ in range(120))
            newcomer = status(base, "127.0.9.1")
            print(f"120 cross-site images from one address: {dict(images)}; then a newcomer: {newcomer}")
            counts = flood(base, args.seconds, args.threads)
            database = Path(tmp) / "instance" / "ttt.sqlite3"
            answers = dict(sorted(counts.items()))
            print(f"flood, 250 addresses, {args.seconds:.0f} s: {answers}; sessions stored: {stored(database)}")


if __name__ == "__main__":
    main()
