"""Seat races on one cookie, run by hand: python bench/seat_race.py [--rounds 20] [--root DIR]

Against gunicorn (gunicorn.conf.py, 2 workers), on SQLite and on Redis:

1. "Take the seat" racing a move in another tab of the same browser, `--rounds` times (a new
   room each round): how many joins lost their session's race (409), and how many rooms
   kept the guest's seat all the same (a seat left behind: the host's page no longer waits).
2. `--rounds` "Invite a friend" at once on one cookie: how many answered 303 and 409, and how
   many rooms the store holds after (read from the store itself); a session sits in three.

--root serves another checkout (say, an older commit exported with git archive) with this
checkout's helpers, to measure before and after with the same client.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import sqlite3
import sys
import tempfile
from pathlib import Path

import redis

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402
from tests.conftest import Player  # noqa: E402
from tests.page import Page  # noqa: E402

UNLIMITED = {"TTT_NEW_ROOM_LIMIT": "100000 per minute", "TTT_NEW_SESSION_LIMIT": "100000 per minute"}


def rooms_stored(tmp: Path, url: str | None) -> int:
    if url:
        return sum(1 for _ in redis.Redis.from_url(url).scan_iter("ttt:rooms:*"))
    with contextlib.closing(sqlite3.connect(tmp / "instance" / "ttt.sqlite3")) as db:
        return db.execute("SELECT count(*) FROM rooms").fetchone()[0]


def join_races(base: str, rounds: int) -> tuple[int, int]:
    guest = Player(servers.HttpClient(base))
    guest.move(1, 1)
    lost = left_behind = 0
    for _ in range(rounds):
        host = servers.HttpClient(base)
        room = host.post("/room/new").headers["Location"]
        page = guest.page()
        if page.state == "over":
            page = guest.new_game()
        link = next(iter(page.links.values()))
        joined, _ = servers.together(
            lambda room=room: guest.client.post(f"{room}/join").status_code,
            lambda link=link: guest.client.get(link).status_code,
        )
        waiting = Page(host.get(room).text)["status"].attrs.get("data-state") == "waiting"
        lost += joined == 409
        left_behind += joined == 409 and not waiting
    return lost, left_behind


def invitations(base: str, rounds: int, tmp: Path, url: str | None) -> tuple[dict, int]:
    host = Player(servers.HttpClient(base))
    form = host.move(1, 1).form("invite")
    before = rooms_stored(tmp, url)
    statuses = servers.together(*[lambda: host.client.post("/room/new", data=form).status_code] * rounds)
    return dict(collections.Counter(statuses)), rooms_stored(tmp, url) - before


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--root", type=Path, default=ROOT)
    args = parser.parse_args()
    servers.ROOT = args.root.resolve()
    for store in ("sqlite", "redis"):
        with tempfile.TemporaryDirectory() as tmp_name:
            tmp = Path(tmp_name)
            redis_server = servers.RedisServer(tmp / "redis").start() if store == "redis" else None
            url = redis_server.url if redis_server else None
            env = servers.app_env(tmp, **UNLIMITED, **({"REDIS_URL": url} if url else {}))
            try:
                with servers.gunicorn(env, workers=2) as base:
                    lost, left = join_races(base, args.rounds)
                    print(f"{store}: {args.rounds} joins racing a move: {lost} lost (409), {left} seats left behind")
                    statuses, added = invitations(base, args.rounds, tmp, url)
                    print(f"{store}: {args.rounds} invitations at once on one cookie: {statuses}, {added} rooms stored")
            finally:
                if redis_server:
                    redis_server.stop()


if __name__ == "__main__":
    main()
