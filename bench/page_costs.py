"""What the pure-Python pages cost, uncached, run by hand: python bench/page_costs.py

In one process through Flask's test client: 200 random games' review pages, pictures and
first retries, and 200 random positions' explorer and practice pages, none of them warm.
Prints the median, the 90th percentile and the worst, in ms: what a request holds a gevent
worker's event loop for."""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from ttt_web.app import create_app
from ttt_web.core import tictactoe as ttt

app = create_app({"SECRET_KEY": "x", "DATABASE": str(Path(__import__("tempfile").mkdtemp()) / "ttt.sqlite3")})
c = app.test_client()
rng = random.Random(1)


def random_game(full=True):
    board, cells = ttt.initial_state(), []
    while not ttt.terminal(board):
        a = rng.choice(sorted(ttt.actions(board)))
        cells.append(3 * a[0] + a[1])
        board = ttt.result(board, a)
        if not full and rng.random() < 0.2:
            break
    return cells, board


def timeit(paths):
    out = []
    for p in paths:
        t = time.perf_counter()
        r = c.get(p)
        out.append((time.perf_counter() - t) * 1000)
        assert r.status_code in (200, 303, 404), (p, r.status_code)
    out.sort()
    return (
        f"median {statistics.median(out):.1f} ms, p90 {out[int(len(out) * 0.9)]:.1f}, max {out[-1]:.1f} (n={len(out)})"
    )


games = [random_game() for _ in range(200)]
print("review page", timeit(["/review/" + "-".join(map(str, g)) for g, _ in games]))
print("review png ", timeit(["/review/" + "-".join(map(str, g)) + "/board.png" for g, _ in games]))
print("retry 1    ", timeit(["/review/" + "-".join(map(str, g)) + "/retry/1" for g, _ in games]))
pos = [random_game(False)[1] for _ in range(200)]
texts = ["".join(cell or "." for row in b for cell in row) for b in pos]
print("explore    ", timeit(["/explore/" + t for t in texts]))
print("practice   ", timeit(["/practice/?position=" + t for t in texts if not ttt.terminal(pos[texts.index(t)])]))
