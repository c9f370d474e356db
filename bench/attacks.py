"""Attacks against players, run by hand: python bench/attacks.py [--seconds 8] [--stores sqlite redis]

Eight players play the AI as fast as they can, each from a loopback address of its own
(tests/attacks.py), on gunicorn with 2 gevent workers as `make run` serves (SQLite) and on
Redis. For each attack, their moves in `--seconds` alone, then in `--seconds` under the
attack, in the same run, and the ratio; and whether a newcomer (no cookie, an address of its
own) got the board in 5 s while the attack went on. The attacks (issue #31):

- pictures: 2 clients (one address each) fetch review pictures of random games, nonstop;
- streams: 7 addresses x 400 event streams over 3 rooms, each refused one asked again after
  its Retry-After (10 s);
- streams, at once: the same, each refused one asked again after 1 s.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis as servers_redis  # noqa: E402

from tests import attacks, servers  # noqa: E402

UNLIMITED_ROOMS = {"TTT_NEW_ROOM_LIMIT": "1000 per minute"}


def pictures(base: str):
    return attacks.PictureFlood(base, 2)


def streams(pause: float):
    def flood(base: str):
        host = servers.HttpClient(base, source="127.0.6.1")
        paths = [host.post("/room/new").headers["Location"] + "/events" for _ in range(3)]
        return attacks.StreamFlood(base, paths, addresses=7, per_address=400, pause=pause)

    return flood


ATTACKS = {"pictures": pictures, "streams (retry after 10 s)": streams(10), "streams (retry after 1 s)": streams(1)}


def run(env: dict, name: str, attack, seconds: float) -> str:
    with servers.gunicorn(env, workers=2) as base, attacks.Players(base) as players:
        alone = players.count_for(seconds)
        with attack(base):
            time.sleep(1)
            start = time.monotonic()
            served = attacks.newcomer_served(base, "127.0.5.1")
            attacked = players.count_for(max(0.0, seconds - (time.monotonic() - start)))
    ratio = attacked / alone if alone else 0
    return f"| {name} | {alone} | {attacked} | {ratio:.2f} | {'yes' if served else 'no'} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--stores", nargs="+", default=["sqlite", "redis"])
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ttt-attacks-"))
    redis = servers.RedisServer(tmp / "redis").start() if "redis" in args.stores else None
    print(f"8 players' moves in {args.seconds:.0f} s alone, then under each attack (same run); 2 gevent workers")
    print("| store | attack | moves alone | under attack | ratio | newcomer served |")
    print("| --- | --- | --- | --- | --- | --- |")
    try:
        for store in args.stores:
            for n, (name, attack) in enumerate(ATTACKS.items()):
                extra = dict(UNLIMITED_ROOMS)
                if store == "redis":
                    servers_redis.Redis.from_url(redis.url).flushdb()
                    extra["REDIS_URL"] = redis.url
                env = servers.app_env(tmp / f"{store}-{n}", **extra)
                print(f"| {store} " + run(env, name, attack, args.seconds), flush=True)
    finally:
        if redis is not None:
            redis.stop()


if __name__ == "__main__":
    main()
