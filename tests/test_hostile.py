"""Traffic meant to hurt other players: slow clients, unfinished bodies, racing requests on
one cookie, floods of sessions and rooms. (Idle keep-alives and floods against what `make
run` starts, with players beside them: test_attacks; a store that fails or a worker killed
mid-write: test_store_faults.) Real servers run under the project's gunicorn.conf.py, as
`make run` and docs/deploy.md's deployment do."""

import contextlib
import functools
import random
import socket
import sqlite3
import time
from types import SimpleNamespace

import pytest
import redis

from tests import servers
from tests.conftest import STORES, Player, records, server_like
from tests.page import Page
from tests.replay import illegal_games
from tests.timing import PATIENCE, play_timed, timed, unstalled, yardstick
from ttt_web.app import create_app
from ttt_web.core.room import Room
from ttt_web.core.room_record import seat_hash
from ttt_web.store.base import Table
from ttt_web.store.redis import RedisStore
from ttt_web.web.moves import NOT_FROM_HERE


def store_env(tmp_path, store, request):
    if store == "redis":
        return servers.app_env(tmp_path, REDIS_URL=request.getfixturevalue("redis_server").url)
    return servers.app_env(tmp_path)


@pytest.mark.parametrize("deployment", ["make run", "production"])
def test_256_slow_clients_do_not_stall_a_player(tmp_path, request, deployment, gunicorn, make_run):
    if deployment == "make run":  # `make run` itself: 2 workers, SQLite
        server = make_run(servers.app_env(tmp_path))
    else:  # docs/deploy.md's command on each host: 4 workers, Redis
        server = gunicorn(store_env(tmp_path, "redis", request), workers=4)
    with server as base:
        player = Player(servers.HttpClient(base, timeout=PATIENCE))
        quiet = yardstick(player)
        with servers.SlowClients(base, 256):
            time.sleep(2)  # every connection open and trickling
            for _ in range(5):
                took = play_timed(player)
                assert unstalled(took, quiet), (took, quiet)


def test_unfinished_bodies_hold_nobody_but_themselves(tmp_path, gunicorn):
    """256 POSTs with made-up cookies whose bodies never finish, and a spectator's resign of a
    room whose body never finishes either: the room's players and another player move
    no slower than a stall would make them (tests/timing.py). Nothing is locked while a client sends."""
    with gunicorn(servers.app_env(tmp_path), workers=2) as base:
        host, guest = (servers.HttpClient(base, timeout=PATIENCE) for _ in range(2))
        room = host.post("/room/new").headers["Location"]
        assert guest.post(f"{room}/join").status_code == 303
        other = Player(servers.HttpClient(base, timeout=PATIENCE))
        quiet = yardstick(other)
        with servers.UnfinishedBodies(base, 256, [f"{room}/resign", f"{room}/join"]):
            time.sleep(1)  # every body under way
            for n in range(6):
                seat = host if n % 2 == 0 else guest
                link = next(iter(Page(seat.get(room).text).links.values()))
                response, took = timed(seat.get, link)
                assert response.status_code == 303 and unstalled(took, quiet), (response.status_code, took, quiet)
                took = play_timed(other)
                assert unstalled(took, quiet), (took, quiet)


# Two requests at once on one cookie, as from two tabs: one of them starts a new game.

OPTIONS = {"side": "O", "difficulty": "easy", "mode": "ai"}


def score(page: Page) -> tuple[str, str, str]:
    element = page["score"]
    return element.attrs["data-wins"], element.attrs["data-losses"], element.attrs["data-draws"]


@pytest.mark.parametrize("store", STORES)
def test_racing_a_new_game_never_loses_the_score_or_the_options(store, live_server, live_servers_on_redis):
    """On a shared server of 2 workers (its games of its own): on SQLite, on Redis."""
    base = live_server if store == "sqlite" else live_servers_on_redis[0]
    client = servers.HttpClient(base)
    player = Player(client)
    player.new_game(**OPTIONS)
    player.finish(random.Random(7))
    player.new_game(**OPTIONS)
    player.finish(random.Random(8))
    baseline = score(player.page())
    assert sum(map(int, baseline)) == 2

    def post(form_id, at="/", **fields):
        page = player.page(at)
        return lambda: client.post(page.action(form_id), data={**page.form(form_id), **fields}).status_code

    def move():
        href = next(iter(player.page().links.values()), None)
        return lambda: client.get(href).status_code if href else 409

    pairs = {
        "new+new": lambda: (post("new-game", **OPTIONS), post("new-game", **OPTIONS)),
        "new+teach": lambda: (post("new-game", **OPTIONS), post("teach")),
        "new+reset": lambda: (post("new-game", **OPTIONS), post("reset-score-confirm", at="/score/reset")),
        "new+move": lambda: (post("new-game", **OPTIONS), move()),
    }
    for name, pair in pairs.items():
        for round_ in range(20):
            statuses = servers.together(*pair())
            assert set(statuses) <= {303, 403, 409}, (name, round_, statuses)
            page = player.page()
            expected = {"game": page.form("undo")["game"], **OPTIONS, "name_x": "", "name_o": ""}
            assert page.form("new-game") == expected, (name, round_)
            assert page.form("undo")["game"], (name, round_)  # a game, not a blank session
            if name == "new+reset" and score(page) != baseline:
                assert score(page) == ("0", "0", "0"), (name, round_)
                baseline = score(page)
            now, before = [int(n) for n in score(page)], [int(n) for n in baseline]
            one_more = sum(now) == sum(before) + 1 and all(n >= b for n, b in zip(now, before, strict=True))
            if name == "new+move" and one_more:
                baseline = score(page)  # the move ended the game, or the new game resigned a lost one
            assert score(page) == baseline, (name, round_, statuses)


# Floods of new sessions.


def flood_app(tmp_path, request, store, **config):
    config = {"SECRET_KEY": "s", "DATABASE": str(tmp_path / "db" / "ttt.sqlite3"), **config}
    if store == "redis":
        config["REDIS_URL"] = request.getfixturevalue("redis_server").url
        redis.Redis.from_url(config["REDIS_URL"]).flushdb()
    return server_like(create_app(config))


def stored_count(app) -> int:
    return len(records(app))


def test_a_flood_from_one_address_is_limited_and_a_player_plays_on(tmp_path, request):
    app = flood_app(tmp_path, request, "sqlite", NEW_SESSION_LIMIT="40 per minute", MAX_SESSIONS=500)
    player = Player(app.test_client())
    page = player.move(1, 1)
    statuses = []
    for n in range(600):  # well past the limit, and past MAX_SESSIONS were the limit not kept
        flooder = app.test_client()
        if n % 2:
            statuses.append(flooder.get(f"/move?n=0&row={n % 3}&col={n // 3 % 3}").status_code)
        else:
            statuses.append(flooder.post("/new", data={}).status_code)
    assert statuses.count(303) == 39 and statuses.count(429) == 561  # the player's own game was the 40th
    assert stored_count(app) == 40
    assert player.page().marks == page.marks
    player.follow(next(iter(page.links.values())))  # the player is never limited
    assert player.page().marks.count(".") == 5


def test_a_limited_client_gets_a_friendly_page_with_retry_after(tmp_path, request):
    app = flood_app(tmp_path, request, "files", NEW_SESSION_LIMIT="1 per minute")
    assert app.test_client().get("/move?n=0&row=1&col=1").status_code == 303
    response = app.test_client().get("/move?n=0&row=1&col=1")
    assert response.status_code == 429
    assert 0 < int(response.headers["Retry-After"]) <= 60
    assert "wait a minute" in response.text and "Traceback" not in response.text
    assert response.headers["Content-Security-Policy"]


def test_players_behind_one_address_are_never_limited_once_they_play(tmp_path, request):
    """A school behind one address: the limit counts new sessions, not moves or new games."""
    app = flood_app(tmp_path, request, "files", NEW_SESSION_LIMIT="5 per minute")
    players = [Player(app.test_client()) for _ in range(5)]
    rng = random.Random(3)
    for _ in range(3):
        for player in players:
            player.finish(rng)
            player.new_game()
    assert app.test_client().get("/move?n=0&row=1&col=1").status_code == 429  # a sixth newcomer waits


def test_behind_a_proxy_the_limit_counts_each_forwarded_address(tmp_path):
    app = flood_app(tmp_path, None, "files", NEW_SESSION_LIMIT="1 per minute", PROXY_HOPS=1)

    def newcomer(address):
        forwarded = {"X-Forwarded-For": address}
        return app.test_client().get("/move?n=0&row=1&col=1", headers=forwarded).status_code

    assert [newcomer("127.3.1.1"), newcomer("127.3.2.1"), newcomer("127.3.1.9")] == [303, 303, 429]


DAY = 86400
UNLIMITED = {"NEW_SESSION_LIMIT": "100000 per minute"}


def newcomer(app, n: int, **headers):
    """A first move from a client of its own, on a network of its own (by `n`)."""
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = f"127.{2 + n // 256}.{n % 256}.1"
    return client.get(f"/move?n=0&row={n % 3}&col={n // 3 % 3}", headers=headers)


@pytest.mark.parametrize("store", STORES)
def test_a_full_store_evicts_first_sessions_never_past_a_first_move_then_games_idle_a_day(tmp_path, request, store):
    """Newcomers flooding a full store push out each other (sessions written once, the oldest
    first), never a game played on: not even the one idle two days, while others can go.
    (A store full of games played on: test_store_faults.)"""
    app = flood_app(tmp_path, request, store, **UNLIMITED, MAX_SESSIONS=40)
    idle, recent, active = (Player(app.test_client()) for _ in range(3))
    idle.move(1, 1)
    idle_marks = idle.move(*next(iter(idle.page().links))).marks
    age_every_session(app, 2 * DAY)
    recent.move(1, 1)
    kept = recent.move(*next(iter(recent.page().links))).marks
    age_every_session(app, DAY - 3600)  # played 23 hours ago
    page = active.move(1, 1)
    responses = []
    for n in range(120):
        app.extensions["ttt.upkeep"].next_room = 0.0  # as if a second passed: a full store makes room once a second
        responses.append(newcomer(app, n))
        if n % 5 == 0:  # a player plays on all along
            active.follow(next(iter(page.links.values())))
            page = active.new_game() if active.page().state == "over" else active.page()
        assert stored_count(app) <= 40
    assert [r.status_code for r in responses] == [303] * 120  # none locked out
    assert recent.page().marks == kept and active.page().marks == page.marks and idle.page().marks == idle_marks
    assert not illegal_games(app)


def test_a_network_that_spends_its_new_sessions_leaves_other_networks_theirs(tmp_path, request):
    """The budget is per network (an IPv4 /24): 250 addresses of one /24 share one, and a
    newcomer from another network plays its first move."""
    app = flood_app(tmp_path, request, "sqlite", NEW_SESSION_LIMIT="5 per minute")
    player = Player(app.test_client())
    page = player.move(1, 1)

    def first_move(address: str):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        return client.get("/move?n=0&row=1&col=1")

    responses = [first_move(f"127.20.0.{n + 1}") for n in range(250)]
    assert [r.status_code for r in responses] == [303] * 5 + [429] * 245
    assert "from your network" in responses[-1].text and 0 < int(responses[-1].headers["Retry-After"]) <= 60
    assert [first_move(f"127.20.{n}.1").status_code for n in (1, 2, 3)] == [303] * 3
    assert stored_count(app) == 5 + 3 + 1
    player.follow(next(iter(page.links.values())))  # a player with a game is never limited
    assert player.page().marks.count(".") == 5


def test_an_ipv6_network_counts_as_one_address_for_every_per_address_limit(tmp_path, request):
    app = flood_app(tmp_path, request, "sqlite", NEW_SESSION_LIMIT="2 per minute", NEW_ROOM_LIMIT="2 per minute")

    def status(address, path="/move?n=0&row=1&col=1"):
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        return (client.get(path) if path.startswith("/move") else client.post(path)).status_code

    same_64 = ["2001:db8:1:2::1", "2001:db8:1:2:ffff::9", "2001:db8:1:2:abcd::3"]
    assert [status(address) for address in same_64] == [303, 303, 429]
    assert status("2001:db8:1:3::1") == 303  # the next /64: another subscriber
    assert [status(a) for a in ("127.6.0.1", "::ffff:127.6.0.2", "127.6.0.3")] == [303, 303, 429]  # one /24
    rooms = [status(f"2001:db8:5:5::{n}", "/room/new") for n in range(1, 4)]
    assert rooms == [303, 303, 429]


def test_redis_that_may_evict_is_named_at_start_and_its_evictions_leave_the_count_right(tmp_path, redis_server, caplog):
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    table = Table("sessions", 3600)
    store = RedisStore(client)
    used = client.info("memory")["used_memory"]
    try:
        client.config_set("maxmemory-policy", "volatile-lru")
        client.config_set("maxmemory", used + 2_000_000)
        create_app({"SECRET_KEY": "s", "REDIS_URL": redis_server.url})
        assert "Set maxmemory-policy noeviction" in caplog.text
        for n in range(4000):
            store.put(table, f"player-{n}", {"game": "x" * 1000}, 0)
        assert client.info("stats")["evicted_keys"] > 0
    finally:
        client.config_set("maxmemory", 0)
        client.config_set("maxmemory-policy", "noeviction")
    real = sum(1 for _ in client.scan_iter("ttt:sessions:*"))
    assert store.count(table) > real  # the index still names what Redis evicted
    store.tidy([table])
    assert store.count(table) == real
    caplog.clear()
    create_app({"SECRET_KEY": "s", "REDIS_URL": redis_server.url})
    assert "noeviction" not in caplog.text


def age_every_session(app, seconds: int) -> None:
    """Make every stored session look `seconds` older (as if written that long ago)."""
    if app.config.get("REDIS_URL"):
        client = redis.Redis.from_url(app.config["REDIS_URL"])
        for key, score in client.zrange("ttt:index:sessions", 0, -1, withscores=True):
            client.zadd("ttt:index:sessions", {key: score - seconds})
        return
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as db:
        db.execute("UPDATE sessions SET expires = expires - ?", (seconds,))
        db.commit()


def test_a_room_flood_never_evicts_a_players_game(tmp_path, request):
    """Rooms have a cap of their own; new rooms from one address are limited, and a session
    keeps three at most (a room it leaves is deleted)."""
    app = flood_app(tmp_path, request, "sqlite", MAX_ROOMS=50, NEW_ROOM_LIMIT="1000 per minute")
    player = Player(app.test_client())
    page = player.move(1, 1)
    flooder = app.test_client()
    for n in range(300):
        client = flooder if n % 2 else app.test_client()
        client.environ_base["REMOTE_ADDR"] = f"127.4.{n % 256}.1"
        app.extensions["ttt.upkeep"].next_room = 0.0  # as if a second passed: a full store makes room once a second
        assert client.post("/room/new").status_code == 303
        assert len(records(app, "rooms")) <= 50
    assert player.page().marks == page.marks
    limited = flood_app(tmp_path / "limited", request, "sqlite", NEW_ROOM_LIMIT="5 per minute")
    one_address = limited.test_client()
    statuses = [one_address.post("/room/new").status_code for _ in range(8)]
    assert statuses == [303] * 5 + [429] * 3
    assert len(records(limited, "rooms")) == 3  # three seats per session: older rooms are left


@pytest.mark.parametrize("path", ["/teach", "/score/reset", "/undo"])
def test_cookieless_requests_that_change_nothing_store_nothing(client, stored, path):
    response = client.post(path, data={})
    assert response.status_code in (303, 409)
    assert "ttt=" not in response.headers.get("Set-Cookie", "")
    assert stored() == 0


def test_teach_mode_needs_no_session(client, stored):
    client.post("/teach", data={})
    assert Page(client.get("/").text)["board"].attrs["class"].split().count("teaching") == 1
    assert stored() == 0


def test_head_on_a_move_link_plays_nothing(play, stored):
    href = play.page().links[1, 1]
    response = play.client.head(href)
    assert response.status_code == 405 and response.headers["Allow"] == "GET"
    assert stored() == 0
    page = play.move(0, 0)
    response = play.client.head(next(iter(page.links.values())))
    assert response.status_code == 405
    assert play.page().marks == page.marks


def test_a_body_shorter_than_its_content_length_changes_nothing(logged_server):
    """A POST that announces 1,000 bytes and hangs up after 14 has not said what it meant:
    no new game, no new session (the shared server's sessions, read from its database, are
    the same after as before)."""
    base = logged_server.base
    stored = functools.partial(records, SimpleNamespace(config={"DATABASE": str(logged_server.database)}))
    player = Player(servers.HttpClient(base))
    page = player.move(1, 1)
    before = stored()
    assert player.client.cookies["ttt"] and before
    cookie = f"ttt={player.client.cookies['ttt']}"
    for headers in ("", f"Cookie: {cookie}\r\n"):
        sock = servers.connect_from(("127.0.0.1", int(base.rsplit(":", 1)[1])), 0)
        head = f"POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\n{headers}Content-Length: 1000\r\n"
        sock.sendall(f"{head}Content-Type: application/x-www-form-urlencoded\r\n\r\nmode=friend&x=".encode())
        sock.shutdown(socket.SHUT_WR)
        answer = sock.recv(65536).decode(errors="replace")
        sock.close()
        assert not answer.startswith("HTTP/1.1 303"), answer[:200]
    assert player.page().marks == page.marks
    assert stored() == before


def test_retry_after_is_sent_with_429_and_503_only(tmp_path, request):
    app = flood_app(tmp_path, request, "sqlite", NEW_SESSION_LIMIT="2 per minute")
    client = app.test_client()
    responses = [client.get("/"), client.get("/move?n=0&row=1&col=1"), client.get("/")]
    assert [r.status_code for r in responses] == [200, 303, 200]
    assert all("Retry-After" not in r.headers and "X-RateLimit-Limit" not in r.headers for r in responses)
    app.test_client().get("/move?n=0&row=1&col=1")
    limited = app.test_client().get("/move?n=0&row=1&col=1")
    assert limited.status_code == 429 and 0 < int(limited.headers["Retry-After"]) <= 60


# Moves that another site's page makes a browser send.

IMAGE = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "no-cors", "Sec-Fetch-Dest": "image"}
NAVIGATE = {"Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "document"}
OUR_SCRIPT = {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "same-origin", "Sec-Fetch-Dest": "empty"}
OUR_SCRIPT |= {"X-Move": "followed"}  # static/play.js
NOT_OURS = {
    "another site's image": IMAGE,
    "another site's link": {"Sec-Fetch-Site": "cross-site", **NAVIGATE},
    "a sibling subdomain's link": {"Sec-Fetch-Site": "same-site", **NAVIGATE},
    "another site's frame": {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate", "Sec-Fetch-Dest": "iframe"},
    "an image on our own origin": {**IMAGE, "Sec-Fetch-Site": "same-origin"},
    "a script's fetch": {"Sec-Fetch-Site": "same-origin", "Sec-Fetch-Mode": "cors", "Sec-Fetch-Dest": "empty"},
    "a same-origin fetch without play.js's header": {**OUR_SCRIPT, "X-Move": ""},
    "play.js's header in a cors fetch": {**OUR_SCRIPT, "Sec-Fetch-Mode": "cors"},
    "play.js's header from another site": {**OUR_SCRIPT, "Sec-Fetch-Site": "cross-site"},
}
OURS = {
    "an older browser (no Sec-Fetch-*)": {},
    "a typed or bookmarked address": {"Sec-Fetch-Site": "none", **NAVIGATE, "Sec-Fetch-User": "?1"},
    "a link on our page": {"Sec-Fetch-Site": "same-origin", **NAVIGATE, "Sec-Fetch-User": "?1"},
    "a browser that sends only Sec-Fetch-Site": {"Sec-Fetch-Site": "same-origin"},
    "the game page's script (play.js)": OUR_SCRIPT,
}


@pytest.mark.parametrize("headers", NOT_OURS.values(), ids=NOT_OURS.keys())
def test_a_first_move_that_another_page_sends_is_refused_and_stores_nothing(client, stored, headers):
    response = client.get("/move?n=0&row=1&col=1", headers=headers)
    assert response.status_code == 403
    assert Page(response.text)["message"].text == NOT_FROM_HERE
    assert "Set-Cookie" not in response.headers and stored() == 0


@pytest.mark.parametrize("headers", OURS.values(), ids=OURS.keys())
def test_a_player_who_follows_their_own_link_plays(client, stored, headers):
    assert client.get("/move?n=0&row=1&col=1", headers=headers).status_code == 303
    assert stored() == 1
    assert Page(client.get("/").text).marks.count(".") in (7, 8)


def test_another_sites_images_cannot_spend_an_addresss_new_session_budget(tmp_path, request):
    app = flood_app(tmp_path, request, "sqlite", NEW_SESSION_LIMIT="60 per minute")
    statuses = {app.test_client().get(f"/move?n=0&row={n % 3}&col=1", headers=IMAGE).status_code for n in range(120)}
    assert statuses == {403} and stored_count(app) == 0
    assert app.test_client().get("/move?n=0&row=1&col=1", headers=OURS["a link on our page"]).status_code == 303


# A request that loses its session's race leaves no seat and no room behind.


def seats_disagree(app) -> set[tuple[str, str]]:
    """Seats a room keeps that no session holds the key to, and keys a session holds to no
    seat: (room, seat hash). Empty when rooms and sessions agree."""
    held = {(room, seat_hash(key)) for data in records(app).values() for room, key in (data.get("seats") or {}).items()}
    taken = {(room, seat) for room, data in records(app, "rooms").items() for seat in data["seats"] if seat}
    return held ^ taken


def another_tab(app, client, request_it):
    """A second client with `client`'s cookie (another tab of the same browser); `request_it(tab)`
    is sent from it."""
    name = app.config["SESSION_COOKIE_NAME"]
    tab = app.test_client()
    tab.set_cookie(name, client.get_cookie(name).value)
    return request_it(tab)


def test_taking_a_seat_that_loses_the_race_with_a_move_in_another_tab_leaves_no_seat(app, monkeypatch, both_stores):
    """The other tab's move is written between the join's read of the session and its write."""
    room = app.test_client().post("/room/new").headers["Location"]
    guest = Player(app.test_client())
    guest.move(1, 1)
    link = next(iter(guest.page().links.values()))
    join = Room.join

    def join_while_the_other_tab_moves(self, key, name=""):
        assert another_tab(app, guest.client, lambda tab: tab.get(link)).status_code == 303
        return join(self, key, name)

    monkeypatch.setattr(Room, "join", join_while_the_other_tab_moves)
    assert guest.client.post(f"{room}/join").status_code == 409
    monkeypatch.setattr(Room, "join", join)
    assert not seats_disagree(app)
    assert Page(guest.client.get(room).text)["status"].attrs["data-state"] == "waiting"
    assert guest.page().marks.count(".") == 5  # the other tab's move, and the AI's answer
    assert guest.client.post(f"{room}/join").status_code == 303  # tried again, it sits
    assert not seats_disagree(app) and len(records(app, "rooms")) == 1
    assert not illegal_games(app)


def test_invitations_that_lose_the_race_on_one_cookie_leave_no_room(app, monkeypatch, both_stores):
    """Five "Invite a friend" on one cookie, each sent while the one before it is under way:
    the last one is written first, and the four it overtook change nothing."""
    host = Player(app.test_client())
    form = host.move(1, 1).form("invite")
    depth, statuses = [], []
    open_room = Room.open.__func__

    def open_while_another_tab_invites(cls, *args, **kwargs):
        if len(depth) < 4:
            depth.append(None)
            statuses.append(another_tab(app, host.client, lambda tab: tab.post("/room/new", data=form)).status_code)
        return open_room(cls, *args, **kwargs)

    monkeypatch.setattr(Room, "open", classmethod(open_while_another_tab_invites))
    statuses.append(host.client.post("/room/new", data=form).status_code)
    assert statuses == [303, 409, 409, 409, 409]
    assert len(records(app, "rooms")) == 1 and not seats_disagree(app)
    assert not illegal_games(app)
