"""The store when it cannot be written, its disk is full, someone else wrote first, or a
worker is killed mid-write: 503 or 409, nothing half-written, and play resumes once the store
is healthy again. Cookie-less traffic stores nothing at all."""

import contextlib
import http.client
import os
import random
import signal
import sqlite3
import subprocess
import threading
import time

import pytest
import redis

from tests import servers
from tests.conftest import Player, read_only, records, server_like
from tests.test_rooms import Seat
from ttt_web.app import create_app
from ttt_web.store.base import Table
from ttt_web.store.redis import RedisStore, connect
from ttt_web.store.sqlite import SQLiteStore
from ttt_web.web import stored_games


def make_app(directory, **config):
    return create_app({"SECRET_KEY": "s", "DATABASE": str(directory / "ttt.sqlite3"), **config})


@contextlib.contextmanager
def small_disk(directory):
    """A 1 MiB tmpfs mounted on `directory` (needs root, as CI and make test have)."""
    directory.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(directory)], check=True)
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=True)


def assert_unavailable(response):
    assert response.status_code == 503, response.status_code
    assert int(response.headers["Retry-After"]) == 5
    assert "Traceback" not in response.text and "try again" in response.text


def integrity(path) -> str:
    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute("PRAGMA integrity_check").fetchone()[0]


def test_an_unwritable_database_answers_503_and_play_resumes(tmp_path):
    directory = tmp_path / "db"
    player = Player(make_app(directory).test_client())
    page = player.move(1, 1)
    href = next(iter(page.links.values()))
    with read_only(directory):
        assert_unavailable(player.client.get(href))
        assert_unavailable(player.client.post("/new", data=page.form("new-game")))
    assert player.page().marks == page.marks
    player.follow(href)
    assert player.page().marks.count(".") == 5


def test_a_full_disk_answers_503_changes_nothing_and_play_resumes(tmp_path):
    directory = tmp_path / "db"
    with small_disk(directory):
        app = make_app(directory)
        players = [Player(app.test_client()) for _ in range(3)]
        pages = [player.move(1, 1) for player in players]
        filler = directory / "filler"
        with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as f:
            while True:
                f.write(b"\0" * 4096)
        refused = 0
        for player, page in zip(players, pages, strict=True):
            for _ in range(40):  # enough writes to need a new page of the log
                response = player.client.post("/teach", data=page.form("teach"))
                response = player.client.post("/new", data=player.page().form("new-game"))
                if response.status_code == 503:
                    assert_unavailable(response)
                    refused += 1
                    break
            assert player.page().marks in (page.marks, "." * 9)
        assert refused, "the full disk never refused a write"
        newcomer = Player(app.test_client())
        assert_unavailable(newcomer.client.get("/move?n=0&row=1&col=1"))
        filler.unlink()
        assert newcomer.move(1, 1).marks.count(".") == 7
        for player in players:
            assert player.new_game().marks == "." * 9
        assert integrity(directory / "ttt.sqlite3") == "ok"


def test_a_thousand_cookieless_page_views_store_nothing(app, stored):
    for _ in range(1_000):
        assert app.test_client().get("/").status_code == 200  # a new client: no cookie
    assert stored() == 0


def test_a_write_that_lost_the_race_changes_nothing_and_says_so(app, both_stores):
    """Someone else writes the session between this move's read and its write: the move is
    refused with 409, the other write stands, and the next move goes through."""
    store, table = app.extensions["ttt.store"], app.session_interface.table
    armed = []  # the session id to write from outside, once, during the next request

    @app.before_request
    def another_tab_writes_first():
        if armed:
            sid = armed.pop()
            record = store.get(table, sid)
            store.put(table, sid, record.data, record.version)

    player = Player(app.test_client())
    page = player.move(1, 1)
    armed.append(player.client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value)
    response = player.client.get(next(iter(page.links.values())))
    assert response.status_code == 409 and "at the same moment" in response.text
    assert "Location" not in response.headers and response.headers["Content-Security-Policy"]
    assert player.page().marks == page.marks
    player.follow(next(iter(page.links.values())))
    assert player.page().marks.count(".") == 5


def test_a_redis_that_is_down_answers_503_and_play_resumes(tmp_path, redis_servers):
    server = redis_servers(tmp_path / "redis").start()
    try:
        app = create_app({"SECRET_KEY": "s", "REDIS_URL": server.url})
        player = Player(app.test_client())
        page = player.move(1, 1)
        server.stop()
        assert_unavailable(player.client.get("/"))
        assert_unavailable(player.client.get(next(iter(page.links.values()))))
        server.start()
        assert player.page().marks == page.marks
        player.follow(next(iter(page.links.values())))
        assert player.page().marks.count(".") == 5
    finally:
        server.stop()


@pytest.mark.parametrize("victim", ["worker", "server"])
def test_kill_9_mid_writes_loses_at_most_the_requests_in_flight(tmp_path, victim, gunicorn):
    """Players move as fast as they can while a worker (or the whole server) is killed with
    SIGKILL: the database passes its integrity check, and every player's game is there and
    legal."""
    env = servers.app_env(tmp_path, TTT_NEW_SESSION_LIMIT="1000 per minute")
    database = tmp_path / "instance" / "ttt.sqlite3"
    with gunicorn(env, workers=2) as base:
        players = [Player(servers.HttpClient(base, timeout=5)) for _ in range(8)]
        stop, moved = threading.Event(), [threading.Event() for _ in players]

        def keep_playing(n: int, player: Player) -> None:
            rng = random.Random(n)
            while not stop.is_set():
                with contextlib.suppress(OSError, http.client.HTTPException, AssertionError):
                    page = player.page()
                    if page.state == "over":
                        player.new_game(mode="friend")
                    else:
                        player.follow(rng.choice(sorted(page.links.values())))
                    moved[n].set()

        threads = [threading.Thread(target=keep_playing, args=item) for item in enumerate(players)]
        for thread in threads:
            thread.start()
        assert all(event.wait(30) for event in moved)  # every player has a stored game, on a slow machine too
        time.sleep(1)
        for pid in servers.worker_pids(base) if victim == "worker" else servers.all_pids(base):
            os.kill(pid, signal.SIGKILL)
        stop.set()
        for thread in threads:
            thread.join()
    assert integrity(database) == "ok"
    app = make_app(database.parent)
    games = records(app)
    assert len(games) == len(players)
    assert all(stored_games.decode(data.get("game")) is not None for data in games.values())


DAY = 86400


@pytest.fixture(params=["sqlite", "redis", pytest.param("cluster", marks=pytest.mark.redis)])
def make_store(request, tmp_path):
    """Makes a store holding the given tables: SQLite, one Redis, a Redis Cluster."""

    def make(tables):
        if request.param == "sqlite":
            return SQLiteStore(tmp_path / "store.sqlite3", tables)
        server = request.getfixturevalue("redis_server" if request.param == "redis" else "redis_cluster")
        return RedisStore(connect(server.url, 10, 2))

    return make


def test_a_full_table_evicts_records_written_once_first_then_the_oldest_never_a_recent_one(make_store):
    """Written twice two days ago (old), twice today (recent), once: a full table evicts those
    written once (the oldest first, as far as one store's order goes), then the old, never the
    recent; when only recent records are left, it evicts none."""
    table = Table(f"t{random.randrange(10**9)}", lifetime=10 * DAY, cap=10, keep=DAY)
    two_days_ago = Table(table.name, lifetime=8 * DAY)  # its writes expire as if made two days ago
    store = make_store([table])
    for name in ("old0", "old1"):
        store.put(two_days_ago, name, {"n": 2}, store.put(two_days_ago, name, {"n": 1}, 0))
    for name in ("recent0", "recent1", "recent2"):
        store.put(table, name, {"n": 2}, store.put(table, name, {"n": 1}, 0))
    for n in range(9):
        store.put(table, f"once{n}", {"n": 1}, 0)
    assert store.count(table) == 14
    assert store.tidy([table]) == 5  # down to 9
    left = {name for name in ALL_NAMES if store.get(table, name)}
    assert {"old0", "old1", "recent0", "recent1", "recent2"} <= left and len(left) == 9
    if not isinstance(store, RedisStore) or not store.cluster:  # one order: the oldest went
        assert left >= {f"once{n}" for n in range(5, 9)}
    for name in left - {"old0", "old1", "recent0", "recent1", "recent2"}:  # played on now
        store.put(table, name, {"n": 2}, store.get(table, name).version)
    for n in range(3):
        store.put(table, f"new{n}", {"n": 1}, 0)
    assert store.count(table) == 12 and store.tidy([table]) == 3
    assert not any(store.get(table, f"new{n}") for n in range(3))  # written once: they go first
    store.put(table, "new0", {"n": 1}, 0)
    store.put(table, "new0", {"n": 2}, 1)
    assert store.tidy([table]) == 1 and store.get(table, "new0")  # then the oldest: old0 or old1
    assert sum(bool(store.get(table, name)) for name in ("old0", "old1")) == 1
    store.put(table, "new1", {"n": 2}, store.put(table, "new1", {"n": 1}, 0))
    assert store.count(table) == 10 and store.tidy([table]) == 1  # the other old one
    store.put(table, "new2", {"n": 2}, store.put(table, "new2", {"n": 1}, 0))
    assert store.count(table) == 10 and store.tidy([table]) == 0  # all recent: none may go
    assert all(store.get(table, name) for name in ("recent0", "recent1", "recent2"))


ALL_NAMES = ["old0", "old1", "recent0", "recent1", "recent2", *(f"once{n}" for n in range(9))]


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_a_store_full_of_games_played_today_refuses_a_newcomer_and_evicts_a_game_idle_two_days(
    tmp_path, request, store
):
    config = {"MAX_SESSIONS": 6, "NEW_SESSION_LIMIT": "1000 per minute"}
    if store == "redis":
        server = request.getfixturevalue("redis_server")
        redis.Redis.from_url(server.url).flushdb()
        config["REDIS_URL"] = server.url
    app = server_like(make_app(tmp_path / "db", **config))
    players = [Player(app.test_client()) for _ in range(7)]
    for player in players[:6]:
        player.move(1, 1)
        player.move(*next(iter(player.page().links)))
    assert players[6].client.get("/move?n=0&row=1&col=1").status_code == 503  # six games played today
    table = app.session_interface.table
    store_ = app.extensions["ttt.store"]
    sid = players[0].client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    record = store_.get(table, sid)  # rewritten as if two days ago
    store_.put(Table(table.name, table.lifetime - 2 * DAY), sid, record.data, record.version)
    time.sleep(1.1)  # a full store is tidied once a second at most
    players[6].move(1, 1)
    assert players[0].page().marks == "." * 9 and players[1].page().marks.count(".") == 5


@pytest.mark.parametrize("store", ["sqlite", "redis"])
def test_a_room_flood_evicts_rooms_nobody_joined_never_one_played_in_today(tmp_path, request, store):
    config = {"MAX_ROOMS": 10, "NEW_ROOM_LIMIT": "100000 per minute", "NEW_SESSION_LIMIT": "100000 per minute"}
    if store == "redis":
        server = request.getfixturevalue("redis_server")
        redis.Redis.from_url(server.url).flushdb()
        config["REDIS_URL"] = server.url
    app = server_like(make_app(tmp_path / "db", **config))
    host = Seat(app.test_client()).invite("Ann")
    guest = Seat(app.test_client(), host.path)
    guest.join("Bob")
    board = host.move(1, 1).marks
    for n in range(100):
        app.extensions["ttt.upkeep"].next_room = 0.0  # as if a second passed: a full store makes room once a second
        flooder = app.test_client()
        flooder.environ_base["REMOTE_ADDR"] = f"127.4.{n // 256}.{n % 256}"
        assert flooder.post("/room/new").status_code == 303
        assert len(records(app, "rooms")) <= 10
    assert guest.page().marks == board
