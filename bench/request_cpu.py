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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def measure(redis_url: str) -> str:
    """Run in the checkout under test (the current directory): one line of figures."""
    sys.path.insert(0, ".")
    from ttt_web.app import create_app

    figures = []
    for store in ("SQLite", "Redis"):
        config = {"SECRET_KEY": "x", "DATABASE": tempfile.mkdtemp() + "/ttt.sqlite3"}
        client = create_app(config | ({"REDIS_URL": redis_url} if store == "Redis" else {})).test_client()
        link = client.get("/").text.split('href="/move?')[1].split('"')[0].replace("&amp;", "&")
        client.get("/move?" + link)
        client.post("/new", data={"game": token(client)})
        game = token(client)

        versions = itertools.count()  # the new game's: one more per move or undo

        def move(game=game, client=client, versions=versions):
            assert client.get(f"/move?game={game}&v={next(versions)}&n=0&row=1&col=1").status_code == 303
            assert client.post("/undo", data={"game": game, "v": next(versions), "n": "2"}).status_code == 303

        for name, request, n in (("page", lambda client=client: client.get("/"), 400), ("move and undo", move, 200)):
            figures.append(f"{store} {name} {statistics.median(cpu(request, n) for _ in range(5)):.0f} µs")
    return ", ".join(figures)


def token(client) -> str:
    return client.get("/").text.split('name="game" value="')[1].split('"')[0]


def cpu(request, n: int) -> float:
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
