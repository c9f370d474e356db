"""What a process keeps in memory, run by hand: python bench/kept_memory.py [--positions N]

In one process through Flask's test client, as a crawler or a flood would ask:
- games: 5,000 players, each with a new game of one move, each shown its page, more than the
  games a process keeps decoded;
- the explorer: the page of every reachable position (or N of them, at random), with and
  without the way back to a game, and each with a student's answer marked; the students'
  traces of the same positions (plain and alpha-beta), and the depth-limited page for each (depth, evaluation).
Prints how much the process's resident memory grew after each, what each kept table holds,
and whether the total stays within BOUND_MB, the bound per worker that docs/performance.md
states (exit status 1 if not)."""

from __future__ import annotations

import argparse
import gc
import random
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttt_web.app import create_app
from ttt_web.core import limited
from ttt_web.core.costs import reachable
from ttt_web.core.position import over
from ttt_web.explore import model, pages
from ttt_web.web import board_view, stored_games

PLAYERS = 5000
BOUND_MB = 160  # what a worker may grow by, with every kept table full (docs/performance.md)
MANY = "1000000 per minute"


def resident_mb() -> float:
    gc.collect()
    return int(Path("/proc/self/status").read_text().split("VmRSS:")[1].split()[0]) / 1024


def games(app) -> None:
    for number in range(PLAYERS):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"10.{number // 250}.{number % 250}.1"
        assert client.get(f"/move?row={number % 3}&col={number // 3 % 3}&n=0").status_code == 303
        assert client.get("/").status_code == 200


def explorer(app, positions: list[str]) -> None:
    client = app.test_client()
    for position in positions:
        empty = next((n for n, mark in enumerate(position) if mark == "."), None)
        answer = [f"?student={empty // 3},{empty % 3}"] if empty is not None and not over(position) else []
        for query in ("", "?back=game", *answer):
            assert client.get(f"/explore/{position}{query}").status_code == 200


def students(app, positions: list[str]) -> None:
    client = app.test_client()
    for position in positions:
        for trace in ("trace", "alphabeta"):
            assert client.get(f"/learn/{trace}/{position}").status_code == 200
    for depth in limited.DEPTHS:
        for evaluation in limited.EVALUATIONS:
            assert client.get(f"/learn/limited/X...O....?depth={depth}&evaluation={evaluation}").status_code == 200


def tables() -> None:
    decoded = stored_games.decoded.cache_info().currsize
    print(f"games kept decoded: {decoded}; boards drawn kept: {len(board_view._DRAWN)}")
    print(f"explorer pages kept: {len(pages.KEPT)}, {pages.KEPT.currsize / 2**20:.1f} MB compressed")
    print(f"positions explained kept: {model.explained.cache_info().currsize}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--positions", type=int, default=0, help="this many positions at random (0: every one)")
    args = parser.parse_args()
    every = sorted(reachable("." * 9))
    positions = random.Random(1).sample(every, args.positions) if args.positions else every
    with tempfile.TemporaryDirectory() as tmp:
        unbounded = {"CPU_BUDGET_PER_NETWORK": MANY, "CPU_BUDGET": MANY}
        config = {"SECRET_KEY": "m", "DATABASE": tmp + "/db", "NEW_SESSION_LIMIT": MANY}
        app = create_app(config | unbounded)
        app.test_client().get("/")
        start = before = resident_mb()
        print(f"after start: {start:.0f} MB resident")
        for name, step in (("games", games), ("explorer", explorer), ("traces, depth-limited", students)):
            step(app, positions) if step is not games else step(app)
            now = resident_mb()
            print(f"{name}: +{now - before:.0f} MB")
            before = now
        tables()
        grown = before - start
        print(f"in all: +{grown:.0f} MB, the bound {BOUND_MB} MB: {'held' if grown <= BOUND_MB else 'NOT held'}")
        sys.exit(0 if grown <= BOUND_MB else 1)


if __name__ == "__main__":
    main()
