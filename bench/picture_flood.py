"""Players' moves under a flood of review pictures, run by hand:
python bench/picture_flood.py [--window 4] [--rounds 5] [--redis] [--apart]

bench/attacks.py's picture attack (2 clients fetching pictures of random games nonstop,
tests/attacks.py) against its 8 players, on gunicorn with 2 gevent workers, measured in
windows that take turns: alone, flooded, alone, ... alone. On a machine whose load changes
by the second, a flooded window is compared with the windows alone on either side of it,
and the ratio is the flooded windows' moves to as many windows alone. The flood's clients are
threads of this process, as in bench/attacks.py, so they take turns with the players' threads
for its GIL, and a flood answered faster slows the players here too; `--apart` runs them in
a process of their own, so that only the server is measured."""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import attacks, servers  # noqa: E402


def flood_apart(base: str, running, stop, served) -> None:
    with attacks.PictureFlood(base, 2) as flood:
        running.set()
        stop.wait()
    served.put(sum(flood.statuses.values()))


@contextlib.contextmanager
def flood(base: str, apart: bool):
    """The picture flood while inside; then how many pictures it was served, in a list."""
    served: list[int] = []
    if not apart:
        with attacks.PictureFlood(base, 2) as threads:
            yield served
        served.append(sum(threads.statuses.values()))
        return
    context = multiprocessing.get_context("spawn")
    running, stop, answer = context.Event(), context.Event(), context.Queue()
    process = context.Process(target=flood_apart, args=(base, running, stop, answer))
    process.start()
    running.wait(60)
    try:
        yield served
    finally:
        stop.set()
        served.append(answer.get(timeout=30))
        process.join()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--window", type=float, default=4)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--redis", action="store_true")
    parser.add_argument("--apart", action="store_true", help="the flood's clients in a process of their own")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ttt-picture-flood-"))
    redis = servers.RedisServer(tmp / "redis").start() if args.redis else None
    extra = {"REDIS_URL": redis.url} if redis else {}
    alone, flooded, pictures = [], [], 0
    try:
        with (
            servers.gunicorn(servers.app_env(tmp / "app", **extra), workers=2) as base,
            attacks.Players(base) as players,
        ):
            players.count_for(2)  # warm: the workers' first games
            for _ in range(args.rounds):
                alone.append(players.count_for(args.window))
                with flood(base, args.apart) as served:
                    time.sleep(0.5)
                    flooded.append(players.count_for(args.window))
                pictures += served[0]
            alone.append(players.count_for(args.window))
    finally:
        if redis is not None:
            redis.stop()
    beside = [(alone[n] + alone[n + 1]) / 2 for n in range(args.rounds)]
    print(f"moves alone, by window: {alone}")
    print(f"moves flooded, by window: {flooded} ({pictures} pictures served)")
    each = ", ".join(f"{f / b:.2f}" for f, b in zip(flooded, beside, strict=True))
    print(f"each flooded window / the windows alone beside it: {each}")
    print(f"ratio: {sum(flooded) / sum(beside):.2f}")


if __name__ == "__main__":
    main()
