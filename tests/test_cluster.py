"""The app on a Redis Cluster of 3 masters and 3 replicas (tests/servers.py), through two
gunicorn instances each given a different node in REDIS_URL, as two hosts would be: games,
rooms and their streams, limits and caps, and a master killed mid-game."""

import contextlib
import random
import threading
import time

import pytest
import redis

from tests import servers
from tests.conftest import Player
from tests.page import Page
from tests.test_live import arrival, stream
from tests.test_rooms import Seat
from ttt_web.store import redis as redis_store
from ttt_web.store.base import Record, Table, Write, WriteConflict
from ttt_web.store.redis import RedisStore, connect

pytestmark = pytest.mark.server

UNLIMITED = {
    "TTT_NEW_SESSION_LIMIT": "100000 per minute",
    "TTT_NEW_ROOM_LIMIT": "100000 per minute",
}
SESSIONS = Table("sessions", 0)  # only its name matters to find a record's key


@contextlib.contextmanager
def two_instances(tmp_path, cluster, **extra: str):
    """Two gunicorns of one worker each, the first given node 0, the second node 1."""
    first, second = (
        servers.app_env(tmp_path / f"app{n}", REDIS_URL=url, **extra) for n, url in enumerate(cluster.urls()[:2])
    )
    with servers.gunicorn(first, workers=1) as a, servers.gunicorn(second, workers=1) as b:
        for base in (a, b):  # the worker has loaded the app (slow on a busy machine)
            assert servers.HttpClient(base, timeout=120).get("/robots.txt").status_code == 200
        yield a, b


class Alternating:
    """A client whose requests go to each instance in turn, with one cookie jar."""

    def __init__(self, bases: tuple[str, str], source: str | None = None, timeout: float = 10) -> None:
        self.clients = [servers.HttpClient(base, timeout=timeout, source=source) for base in bases]
        self.cookies: dict[str, str] = {}
        self.turn = 0

    def request(self, method: str, *args, **kwargs):
        client = self.clients[self.turn % 2]
        self.turn += 1
        client.cookies = self.cookies
        return getattr(client, method)(*args, **kwargs)

    def get(self, *args, **kwargs):
        return self.request("get", *args, **kwargs)

    def post(self, *args, **kwargs):
        return self.request("post", *args, **kwargs)


def whole_game(player: Player, rng: random.Random) -> Page:
    page = player.new_game(mode="friend")
    while page.state == "playing":
        player.follow(rng.choice(sorted(page.links.values())))
        page = player.page()
    return page


def test_games_and_rooms_play_through_two_instances_on_different_nodes(tmp_path, redis_cluster):
    with two_instances(tmp_path, redis_cluster, **UNLIMITED) as bases:
        rng = random.Random(1)
        players = [Player(Alternating(bases)) for _ in range(6)]
        for player in players:
            assert whole_game(player, rng).state == "over"
        store = RedisStore(connect(redis_cluster.url, 2, 2))
        sids = [player.client.cookies["ttt"] for player in players]
        assert len({redis_cluster.master_of(store.key(SESSIONS, sid)) for sid in sids}) > 1  # spread over masters
        host = Seat(servers.HttpClient(bases[0])).invite("Ann")
        guest = Seat(servers.HttpClient(bases[1]), host.path)
        guest.join("Bob")
        with stream(bases[1], guest) as guests:  # heartbeats every 15 s: only pub/sub brings it in time
            guests.wait_for(1)
            host.move(1, 1)
            arrival(guests, "Ann played b2. Your turn: place O.", seconds=3)
        for seat, (row, col) in zip([guest, host, guest, host], [(0, 0), (0, 1), (0, 2), (2, 1)], strict=True):
            page = seat.move(row, col)  # X completes the middle column
        assert page.state == "over" and Seat(servers.HttpClient(bases[1]), host.path).page().state == "over"


def test_limits_and_caps_hold_across_the_cluster(tmp_path, redis_cluster):
    """Through both instances: the limit on new sessions per address, the cap on rooms (full of
    rooms played in today: a new one is refused) and the cap on sessions (full of games played
    today: a newcomer is refused, on either instance)."""
    limits = {"TTT_NEW_SESSION_LIMIT": "3 per minute"}
    caps = {"TTT_NEW_ROOM_LIMIT": "100000 per minute", "TTT_MAX_SESSIONS": "8", "TTT_MAX_ROOMS": "2"}
    store = RedisStore(connect(redis_cluster.url, 2, 2))
    for table in ("sessions", "rooms"):  # this test's caps count every record of the cluster
        for key in store.client.scan_iter(f"ttt:*{table}*", target_nodes=store.client.PRIMARIES):
            store.client.delete(key)
    with two_instances(tmp_path, redis_cluster, **limits, **caps) as bases:
        one_address = [servers.HttpClient(bases[n % 2], source="127.0.5.1") for n in range(4)]  # newcomers
        statuses = [client.get("/move?n=0&row=1&col=1").status_code for client in one_address]
        assert statuses == [303, 303, 303, 429]
        for n in range(2):  # each player on a network of its own: the limit counts new sessions per /24
            host = Seat(servers.HttpClient(bases[0], source=f"127.0.{60 + 2 * n}.1")).invite("Ann")
            Seat(servers.HttpClient(bases[1], source=f"127.0.{61 + 2 * n}.1"), host.path).join("Bob")
            host.move(1, 1)
        refused = servers.HttpClient(bases[1], source="127.0.69.1").post("/room/new", data={"name": "Cy"})
        assert refused.status_code == 503 and int(refused.headers["Retry-After"]) > 0
        assert store.count(Table("rooms", 0)) == 2
        for n in range(8):  # games played on push out the sessions written once
            time.sleep(1.1)  # a full store is tidied once a second at most
            player = Player(Alternating(bases, source=f"127.0.{70 + n}.1"))
            player.move(1, 1)
            player.move(*next(iter(player.page().links)))
        time.sleep(1.1)
        for n, base in enumerate(bases):
            newcomer = servers.HttpClient(base, source=f"127.0.8.{n + 1}").get("/move?n=0&row=1&col=1")
            assert newcomer.status_code == 503 and "no room for a new one" in newcomer.text
        assert store.count(SESSIONS) == 8


class Moves:
    """A player who moves as fast as they can in a thread of their own, through both instances,
    noting each answer: (when, status or the error's name, Retry-After)."""

    def __init__(self, bases: tuple[str, str], seed: int) -> None:
        self.player = Player(Alternating(bases, timeout=15))
        self.rng = random.Random(seed)
        self.answers: list[tuple[float, int | str, str | None]] = []
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def start_game(self) -> str:
        self.player.new_game(mode="friend")
        self.player.follow(self.rng.choice(sorted(self.player.page().links.values())))
        return self.player.client.cookies["ttt"]

    def _loop(self) -> None:
        client, page = self.player.client, None
        while not self.stop.is_set():
            try:
                response = client.get("/")
                if response.status_code == 200:
                    page = Page(response.text)
                    if page.state == "over":
                        response = client.post("/new", data={**page.form("new-game"), "mode": "friend"})
                    else:
                        response = client.get(self.rng.choice(sorted(page.links.values())))
                self.answers.append((time.monotonic(), response.status_code, response.headers.get("Retry-After")))
            except OSError as exc:
                self.answers.append((time.monotonic(), type(exc).__name__, None))
            time.sleep(0.05)


def test_a_master_killed_mid_game_fails_over_and_play_goes_on(tmp_path):
    """SIGKILL a master while players play: players on the other masters never notice; those
    on its slots get 503 with Retry-After (never a 500) until its replica takes over, and play
    on within 10 s of that; event streams reconnect; whole games play through both instances
    again within 30 s of the kill."""
    cluster = servers.RedisCluster(tmp_path / "cluster").start()
    try:
        with two_instances(tmp_path, cluster, **UNLIMITED) as bases:
            store = RedisStore(connect(cluster.url, 2, 2))
            players = [Moves(bases, seed) for seed in range(9)]
            keys = {player: store.key(SESSIONS, player.start_game()) for player in players}
            homes = {player: cluster.master_of(key) for player, key in keys.items()}
            victim = max(set(homes.values()), key=list(homes.values()).count)
            assert len(set(homes.values())) > 1, homes
            host = Seat(servers.HttpClient(bases[0])).invite("Ann")
            guest = Seat(servers.HttpClient(bases[1]), host.path)
            guest.join("Bob")
            guests = stream(bases[1], guest)
            guests.wait_for(1)
            for player in players:
                player.thread.start()
            time.sleep(1)
            killed = time.monotonic()
            cluster.kill(victim)
            on_victim = next(key for player, key in keys.items() if homes[player] == victim)
            promoted = wait_for_promotion(cluster, victim, on_victim)
            time.sleep(10)
            for player in players:
                player.stop.set()
                player.thread.join()
            for player, home in homes.items():
                after = [answer for answer in player.answers if answer[0] > killed]
                assert all(status in (200, 303) or (status == 503 and retry) for _, status, retry in after), after
                if home != victim:
                    assert {status for _, status, _ in after} <= {200, 303}, after  # never noticed
                else:
                    assert any(status in (200, 303) for at, status, _ in after if promoted < at <= promoted + 10), after
                    assert all(status in (200, 303) for at, status, _ in after if at > promoted + 10), after
            if guests.ended.is_set():  # the browser reconnects a stream that ended
                guests.close()
                guests = stream(bases[1], guest)
            with guests:
                guests.wait_for(1)
                host.move(1, 1)
                arrival(guests, "Ann played b2. Your turn: place O.", seconds=5)
            rng = random.Random(7)
            for _ in range(2):
                assert whole_game(Player(Alternating(bases)), rng).state == "over"
            assert time.monotonic() - killed <= 30
            back = played_on([player for player in players if homes[player] == victim], promoted)
            print(f"promoted {promoted - killed:.1f} s after the kill, played on {back - promoted:.1f} s after it,")
            print(f"whole games played again by {time.monotonic() - killed:.1f} s after the kill")  # pytest -s shows it
    finally:
        cluster.stop()


def played_on(players: list[Moves], after: float) -> float:
    """When the first of `players` had a request answered 200 or 303 after `after`."""
    return min(at for player in players for at, status, _ in player.answers if at > after and status in (200, 303))


def wait_for_promotion(cluster: servers.RedisCluster, victim: int, key: str, seconds: float = 30) -> float:
    """Until a live node serves `victim`'s slots (its replica was promoted); when that was."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        with contextlib.suppress(RuntimeError, IndexError, ValueError):
            if cluster.master_of(key) != victim:
                return time.monotonic()
        time.sleep(0.05)
    raise AssertionError(f"no replica took over from {victim} in {seconds} s")


# A write of several records in different slots: all or none, whoever dies when.


@pytest.fixture
def store(redis_cluster):
    return RedisStore(connect(redis_cluster.url, 10, 2))


def across(store: RedisStore, n: int) -> tuple[Table, Table, str, str]:
    """Two tables and a key in each whose records fall in different slots."""
    rooms, sessions = Table("rooms", 3600), Table("sessions", 3600)
    room, sid = f"room-{n}-{random.randrange(10**9)}", f"sid-{n}-{random.randrange(10**9)}"
    while store.tag(room) == store.tag(sid):
        sid += "x"
    return rooms, sessions, room, sid


def test_a_write_across_slots_is_all_or_nothing(store):
    rooms, sessions, room, sid = across(store, 0)
    assert store.write_all([Write(rooms, room, {"r": 1}, 0), Write(sessions, sid, {"s": 1}, 0)]) == [1, 1]
    with pytest.raises(WriteConflict) as conflict:  # the session moved on: nothing is written
        store.write_all([Write(rooms, room, {"r": 2}, 1), Write(sessions, sid, {"s": 2}, 0)])
    assert conflict.value.write.key == sid
    assert (store.get(rooms, room).data, store.get(sessions, sid).data) == ({"r": 1}, {"s": 1})
    assert store.write_all([Write(rooms, room, None, 1), Write(sessions, sid, {"s": 2}, 1)]) == [0, 2]
    assert store.get(rooms, room) is None and store.get(sessions, sid) == Record({"s": 2}, 2)
    assert store.put(sessions, sid, {"s": 3}, 2) == 3  # no lock left behind


def test_a_writer_lost_after_its_decision_is_finished_by_the_next_reader(store, monkeypatch):
    rooms, sessions, room, sid = across(store, 1)

    def connection_lost(*args, **kwargs):
        raise redis.ConnectionError("lost")

    monkeypatch.setattr(store, "_finish", connection_lost)
    with pytest.raises(redis.ConnectionError):
        store.write_all([Write(rooms, room, {"r": 1}, 0), Write(sessions, sid, {"s": 1}, 0)])
    monkeypatch.undo()
    assert store.get(rooms, room) == Record({"r": 1}, 1) and store.get(sessions, sid) == Record({"s": 1}, 1)


def test_a_writer_that_died_while_locking_is_undone_after_its_deadline(store, monkeypatch):
    """It locked one record, then died (nothing undone): the records read as they were, a write
    to the locked one is refused until LOCK_SECONDS pass, then a reader undoes the lock."""
    rooms, sessions, room, sid = across(store, 2)
    store.write_all([Write(rooms, room, {"r": 1}, 0), Write(sessions, sid, {"s": 1}, 0)])
    monkeypatch.setattr(redis_store, "LOCK_SECONDS", 1)
    prepare, calls = store._prepare, []

    def dies_at_the_second(*args, **kwargs):
        calls.append(1)
        if len(calls) == 2:
            raise SystemExit("the process died")
        return prepare(*args, **kwargs)

    monkeypatch.setattr(store, "_prepare", dies_at_the_second)
    with pytest.raises(SystemExit):
        store.write_all([Write(rooms, room, {"r": 2}, 1), Write(sessions, sid, {"s": 2}, 1)])
    monkeypatch.undo()
    first = min((rooms, room), (sessions, sid), key=lambda pair: store.key(*pair))
    assert store.get(*first).version == 1 and store.put(*first, {"other": 1}, 1) is None  # locked
    time.sleep(1.1)
    assert store.get(rooms, room) == Record({"r": 1}, 1) and store.get(sessions, sid) == Record({"s": 1}, 1)
    assert store.put(*first, {"other": 1}, 1) == 2
