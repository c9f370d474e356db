"""The CPU one request costs, run by hand: python bench/request_cpu.py [--rounds 3] [--root DIR]

The page (`GET /` with a game in the session) and a move with the undo that takes it back,
through the test client, on SQLite and on a Redis server of its own; the process's own CPU
(time.process_time) per request, the median of 5 runs. With --root, another checkout (say,
an older commit exported with git archive) is measured too, taking turns with this one,
round after round, so that a busy spell hits both. Redis's own CPU is not in it.
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CALLS = {"page": 400, "move and undo": 200}  # per run


def measure(redis_url: str) -> str:
    """Run in the checkout under test (the current directory): one line of figures."""
    sys.path.insert(0, ".")
    from ttt_web.app import create_app

    figures = []
    for store in ("SQLite", "Redis"):
        config = {"SECRET_KEY": "x", "DATABASE": tempfile.mkdtemp() + "/ttt.sqlite3"}
        asked = requests(create_app(config | ({"REDIS_URL": redis_url} if store == "Redis" else {})).test_client())
        for name, request in asked.items():
            figures.append(f"{store} {name} {statistics.median(cpu(request, CALLS[name]) for _ in range(5)):.0f} µs")
    return ", ".join(figures)


def requests(client) -> dict[str, Callable[[], object]]:
    """The page, and a move with its undo, for a client with a game in its session (the
    game's second: the first move of the first is played, then a new game with one move)."""
    first = client.get("/").text.split('href="/move?')[1].split('"')[0].replace("&amp;", "&")
    assert client.get("/move?" + first).status_code == 303
    assert client.post("/new", data={"game": token(client)}).status_code == 303
    game, versions = token(client), itertools.count()  # the new game's: one more per move or undo
    assert client.get(f"/move?game={game}&v={next(versions)}&n=0&row=0&col=0").status_code == 303
    cell = client.get("/").text.split("&amp;n=2&amp;")[1].split('"')[0].replace("&amp;", "&")  # a free cell

    def move() -> None:
        assert client.get(f"/move?game={game}&v={next(versions)}&n=2&{cell}").status_code == 303
        assert client.post("/undo", data={"game": game, "v": next(versions), "n": "4"}).status_code == 303

    return {"page": lambda: client.get("/"), "move and undo": move}


def token(client) -> str:
    return client.get("/").text.split('name="game" value="')[1].split('"')[0]


def cpu(request: Callable[[], object], n: int) -> float:
    """The process's CPU per call of `request`, µs, over n calls."""
    start = time.process_time()
    for _ in range(n):
        request()
    return (time.process_time() - start) / n * 1e6


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--root", type=Path, action="append", default=[])
    parser.add_argument("--measure", help=argparse.SUPPRESS)  # the Redis URL, in the child
    args = parser.parse_args()
    if args.measure:
        print(measure(args.measure))
        return
    sys.path.insert(0, str(ROOT))
    from tests import servers

    with tempfile.TemporaryDirectory() as tmp:
        redis = servers.RedisServer(Path(tmp) / "redis", fsync="everysec").start()
        try:
            for _ in range(args.rounds):
                for root in [ROOT, *args.root]:
                    command = [sys.executable, str(Path(__file__).resolve()), "--measure", redis.url]
                    line = subprocess.run(command, cwd=root, capture_output=True, text=True, check=True).stdout
                    print(f"{root}: {line.strip()}", flush=True)
        finally:
            redis.stop()


if __name__ == "__main__":
    main()
