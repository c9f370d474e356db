"""Attacks against players, run by hand: python bench/attacks.py [--seconds 6] [--stores sqlite redis]

Eight players play the AI as fast as they can, each from a loopback address of its own
(tests/attacks.py), on what `make run` starts (nginx in front of gunicorn with 2 gevent
workers; SQLite, or Redis with --stores redis). For each attack, their moves in `--seconds`
alone, then in `--seconds` under the attack, in the same run, and the ratio; and 10
newcomers (no cookie, each from a network of its own) one after another while the attack
goes on: how many loaded the board and played their first move within 5 s, and their
median time. The attacks (issues #31, #43):

- pictures: 2 clients (one address each) fetch review pictures of random games, nonstop;
- streams 7 x 400: 7 addresses x 400 event streams over 3 rooms, each refused one asked
  again after its Retry-After (10 s);
- streams 20 x 50, at once: 20 addresses x 50 streams, each refused one asked again after 1 s;
- keep-alives 12 x 400: 12 addresses x 400 keep-alive connections, each asking for
  /robots.txt every 4 s;
- sessions from 250 networks: first moves with no cookie from 250 addresses, each on a
  network of its own, 16 at a time, as fast as the server answers;
- chunked bodies: 20 addresses, each posting a 4 MB chunked body to /new every second.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis as servers_redis  # noqa: E402

from tests import attacks, servers  # noqa: E402

UNLIMITED_ROOMS = {"TTT_NEW_ROOM_LIMIT": "1000 per minute"}


def pictures(base: str):
    return attacks.PictureFlood(base, 2)


def streams(addresses: int, per_address: int, pause: float):
    def flood(base: str):
        host = servers.HttpClient(base, source="127.0.6.1")
        paths = [host.post("/room/new").headers["Location"] + "/events" for _ in range(3)]
        return attacks.StreamFlood(base, paths, addresses=addresses, per_address=per_address, pause=pause)

    return flood


ATTACKS = {
    "pictures": pictures,
    "streams 7 x 400 (retry after 10 s)": streams(7, 400, 10),
    "streams 20 x 50 (retry after 1 s)": streams(20, 50, 1),
    "keep-alives 12 x 400": lambda base: attacks.KeepAliveFlood(base, addresses=12, per_address=400),
    "sessions from 250 networks": lambda base: attacks.SessionFlood(base, addresses=250, count=16),
    "4 MB chunked bodies": lambda base: attacks.ChunkedBodies(base, 20, pause=1),
}


def run(env: dict, name: str, attack, seconds: float) -> str:
    with servers.make_run(env) as base, attacks.Players(base) as players:
        alone = players.count_for(seconds)
        with attack(base):
            time.sleep(1)
            newcomers: list = []
            arriving = threading.Thread(target=lambda: newcomers.extend(attacks.newcomers_playing(base, 10)))
            arriving.start()
            attacked = players.count_for(seconds)
            arriving.join()
    ratio = attacked / alone if alone else 0
    share = attacks.served_share(newcomers)
    return f"| {name} | {alone} | {attacked} | {ratio:.2f} | {share:.0%} | {attacks.median_ms(newcomers)} |"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=6)
    parser.add_argument("--stores", nargs="+", default=["sqlite"])
    parser.add_argument("--attacks", nargs="+", default=list(ATTACKS), choices=list(ATTACKS))
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="ttt-attacks-"))
    redis = servers.RedisServer(tmp / "redis").start() if "redis" in args.stores else None
    print(f"8 players' moves in {args.seconds:.0f} s alone, then under each attack (same run); `make run`")
    print("| store | attack | moves alone | under attack | ratio | newcomers served | newcomer's median |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    try:
        for store in args.stores:
            for n, name in enumerate(args.attacks):
                extra = dict(UNLIMITED_ROOMS)
                if store == "redis":
                    servers_redis.Redis.from_url(redis.url).flushdb()
                    extra["REDIS_URL"] = redis.url
                env = servers.app_env(tmp / f"{store}-{n}", **extra)
                print(f"| {store} " + run(env, name, ATTACKS[name], args.seconds), flush=True)
    finally:
        if redis is not None:
            redis.stop()


if __name__ == "__main__":
    main()
