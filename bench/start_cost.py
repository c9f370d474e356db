"""What a process spends at start on what it works out before the first visitor, run by hand:
python bench/start_cost.py

Each in a fresh process (so that nothing is kept from a run before): the CPU time, and
apart the memory (tracemalloc's), of the depth-limited search's tables and of every (depth, evaluation)'s
mistakes (core/limited.py), after the engine and the positions they read; then create_app's
whole CPU time and the process's resident memory after it. Medians of 3 processes."""

from __future__ import annotations

import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEASURE = """
import sys, tempfile, time, tracemalloc
sys.path.insert(0, ".")
from ttt_web.core import limited, tictactoe
from ttt_web.core.costs import reachable
tictactoe.minimax(tictactoe.initial_state())
reachable("." * 9)
def work(trace):
    if trace:
        tracemalloc.start()
    start = time.process_time()
    limited.tables()
    tables = time.process_time() - start, tracemalloc.get_traced_memory()[0]
    limited.every_mistake()
    mistakes = time.process_time() - start - tables[0], tracemalloc.get_traced_memory()[0] - tables[1]
    tracemalloc.stop()
    limited.tables.cache_clear()
    limited.every_mistake.cache_clear()
    return tables, mistakes
(tables_s, _), (mistakes_s, _) = work(False)  # the time, untraced
(_, tables_b), (_, mistakes_b) = work(True)  # the memory, traced
from ttt_web.app import create_app
start = time.process_time()
create_app({"SECRET_KEY": "s", "DATABASE": tempfile.mkdtemp() + "/db"})
app = time.process_time() - start
rss = int(open("/proc/self/status").read().split("VmRSS:")[1].split()[0]) / 1024
print(tables_s, tables_b / 2**20, mistakes_s, mistakes_b / 2**20, app, rss)
"""


def main() -> None:
    runs = []
    for _ in range(3):
        out = subprocess.run([sys.executable, "-c", MEASURE], cwd=ROOT, capture_output=True, text=True, check=True)
        runs.append([float(x) for x in out.stdout.split()])
    tables_s, tables_mb, mistakes_s, mistakes_mb, app_s, rss = (statistics.median(c) for c in zip(*runs, strict=True))
    print(f"depth-limited tables: {tables_s * 1000:.0f} ms of CPU, {tables_mb:.1f} MB")
    print(f"every (depth, evaluation)'s mistakes: {mistakes_s * 1000:.0f} ms of CPU, {mistakes_mb:.1f} MB")
    print(f"create_app in all: {app_s * 1000:.0f} ms of CPU; the process then {rss:.0f} MB resident")


if __name__ == "__main__":
    main()
