"""What watching costs a page: the CPU time of the game's page (one move played, its session
stored) through the test client, with the observe middleware (request id, counts, streams
gauge) and without it, in turns, in one run. The store's calls are timed in both.

    .venv/bin/python bench/observe.py                 # the process's own metrics
    .venv/bin/python bench/observe.py --multiprocess  # as under gunicorn: files in a folder
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

CALLS = 500
ROUNDS = 9


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--multiprocess", action="store_true", help="prometheus-client's multiprocess mode")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.multiprocess:
            os.environ["PROMETHEUS_MULTIPROC_DIR"] = tmp  # before prometheus_client is imported
        sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
        from ttt_web.app import create_app

        app = create_app({"SECRET_KEY": "bench", "DATABASE": f"{tmp}/ttt.sqlite3"})
        client = app.test_client()
        client.get("/move?n=0&row=1&col=1")
        observed = app.wsgi_app
        cpu: dict[str, list[float]] = {"without": [], "with": []}
        for _ in range(ROUNDS):
            for name, wsgi in (("without", observed.app), ("with", observed)):
                app.wsgi_app = wsgi
                start = time.process_time()
                for _ in range(CALLS):
                    client.get("/")
                cpu[name].append((time.process_time() - start) / CALLS * 1e6)
    bare, watched = (statistics.median(cpu[name]) for name in ("without", "with"))
    mode = "multiprocess" if args.multiprocess else "one process"
    print(f"the page's CPU ({mode}): {bare:.0f} µs without the observe middleware, {watched:.0f} µs with it")
    print(f"ratio with/without: {watched / bare:.3f}")


if __name__ == "__main__":
    main()
