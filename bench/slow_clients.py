"""Slow-client benchmark, run by hand: python bench/slow_clients.py [--samples 40] [--slow 0 256 1024]

A real player loads the board and plays a move, over and over, while N slow connections
are open against the same server (half trickle their headers a byte a second, half never
finish a POST body). Served as `make run` serves (gunicorn.conf.py: gevent workers, 2 of
them, SQLite) and as docs/deploy.md's production command (4 workers, Redis), and, to show
what the gevent workers fix, `make run` with gunicorn's sync workers. Prints the median and
the worst of the player's page loads and moves (a request that takes over 5 s counts as
stalled), and how many slow connections the server dropped meanwhile (each is opened
again at once).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402
from tests.conftest import Player  # noqa: E402

TIMEOUT = 5.0
PAUSE = 0.25  # between a player's samples, so that a row spans longer than the header deadline


def samples(base: str, count: int) -> tuple[list[float], list[float]] | None:
    """Seconds per page load and per move; None if the player stalled."""
    player = Player(servers.HttpClient(base, timeout=TIMEOUT))
    loads, moves = [], []
    try:
        for _ in range(count):
            start = time.perf_counter()
            page = player.page()
            loads.append(time.perf_counter() - start)
            start = time.perf_counter()
            if page.state == "over":
                player.submit("new-game")
            else:
                player.follow(random.choice(list(page.links.values())))
            moves.append(time.perf_counter() - start)
            time.sleep(PAUSE)
    except TimeoutError:
        return None
    return loads, moves


def row(name: str, slow: int, result, dropped: int) -> str:
    if result is None:
        return f"| {name} | {slow} | stalled (> {TIMEOUT:.0f} s) | | | | {dropped} |"
    loads, moves = (sorted(ms * 1000 for ms in figures) for figures in result)
    return (
        f"| {name} | {slow} | {statistics.median(loads):.1f} | {loads[-1]:.1f} "
        f"| {statistics.median(moves):.1f} | {moves[-1]:.1f} | {dropped} |"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--samples", type=int, default=40)
    parser.add_argument("--slow", type=int, nargs="+", default=[0, 256, 1024])
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ttt-slow-"))
    redis = servers.RedisServer(tmp / "redis").start()
    deployments = {
        "make run (gevent, 2 workers, SQLite)": (servers.app_env(tmp / "a"), 2),
        "production (gevent, 4 workers, Redis)": (servers.app_env(tmp / "b", REDIS_URL=redis.url), 4),
        "make run with sync workers (before)": (servers.app_env(tmp / "c", GUNICORN_CMD_ARGS="-k sync"), 2),
    }
    print(f"{args.samples} page loads and moves per row; a byte a second from each slow connection; ms")
    print("| server | slow connections | page p50 | page max | move p50 | move max | slow ones dropped |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    try:
        for name, (env, workers) in deployments.items():
            with servers.gunicorn(env, workers=workers) as base:
                samples(base, 2)  # warm up
                for slow in args.slow:
                    with servers.SlowClients(base, slow) as clients:
                        time.sleep(2 if slow else 0)
                        result = samples(base, args.samples)
                        print(row(name, slow, result, clients.reopened), flush=True)
    finally:
        redis.stop()


if __name__ == "__main__":
    main()
