"""#43 item 10: "Take the seat" racing a move in another tab of the same browser (one cookie),
many times, against gunicorn with 2 workers, on SQLite and on Redis. After every race the
store itself must agree with itself: a room seats the guest only if the guest's session
holds that seat's key, and every key the session holds opens a seat. A join that lost its
session's race (409) leaves no seat behind; one that won (303) left its key in the session."""

import contextlib
import hashlib
import json
import sqlite3
from pathlib import Path

import pytest
import redis

from tests import servers
from tests.conftest import Player
from tests.page import Page

pytestmark = pytest.mark.server

RACES = 40
UNLIMITED = {"TTT_NEW_ROOM_LIMIT": "100000 per minute", "TTT_NEW_SESSION_LIMIT": "100000 per minute"}


def seat_hash(key: str) -> str:
    """As the room keeps a seat's key (core/room_record.py), computed here on its own."""
    return hashlib.sha256(key.encode()).hexdigest()[:32]


class Stored:
    """The records as the store holds them, read past the app."""

    def __init__(self, instance: Path, url: str | None) -> None:
        self.instance, self.url = instance, url

    def record(self, table: str, key: str) -> dict | None:
        if self.url:
            text = redis.Redis.from_url(self.url).hget(f"ttt:{table}:{key}", "d")
            return json.loads(text) if text else None
        with contextlib.closing(sqlite3.connect(self.instance / "ttt.sqlite3")) as db:
            row = db.execute(f"SELECT data FROM {table} WHERE id = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None


@pytest.mark.parametrize("store", ["sqlite", "redis"])
@pytest.mark.long
def test_a_join_racing_a_move_on_one_cookie_never_leaves_a_seat_nobody_holds(tmp_path, store, gunicorn):
    redis_server = servers.RedisServer(tmp_path / "redis").start() if store == "redis" else None
    url = redis_server.url if redis_server else None
    env = servers.app_env(tmp_path, **UNLIMITED, **({"REDIS_URL": url} if url else {}))
    stored = Stored(tmp_path / "instance", url)
    answers = []
    try:
        with gunicorn(env, workers=2) as base:
            guest = Player(servers.HttpClient(base))
            guest.move(1, 1)
            for _ in range(RACES):
                host = servers.HttpClient(base)
                room_path = host.post("/room/new").headers["Location"]
                room_id = room_path.rsplit("/", 1)[-1]
                page = guest.page()
                if page.state == "over":
                    page = guest.new_game()
                move = next(iter(page.links.values()))
                joined, moved = servers.together(
                    lambda room_path=room_path: guest.client.post(f"{room_path}/join").status_code,
                    lambda move=move: guest.client.get(move).status_code,
                )
                answers.append((joined, moved))
                room = stored.record("rooms", room_id)
                session = stored.record("sessions", guest.client.cookies["ttt"])
                keys = {room: key for room, key in (session.get("seats") or {}).items()}
                guest_seat = room["seats"][1]
                if joined == 303:
                    assert keys.get(room_id) and guest_seat == seat_hash(keys[room_id]), (joined, moved, room, keys)
                else:  # the join lost: no seat, no key
                    assert joined == 409 and guest_seat == "" and room_id not in keys, (joined, moved, room, keys)
                waiting = Page(host.get(room_path).text)["status"].attrs["data-state"] == "waiting"
                assert waiting == (joined == 409)  # the host's page agrees
                for other, key in keys.items():  # every key the session holds opens a seat
                    held = stored.record("rooms", other)
                    assert held is None or seat_hash(key) in held["seats"], (other, held)
    finally:
        if redis_server:
            redis_server.stop()
    assert {joined for joined, _ in answers} <= {303, 409} and len(answers) == RACES
    print(f"{store}: {RACES} joins racing a move: {sum(j == 409 for j, _ in answers)} lost (409), 0 seats left behind")
