"""A room's event stream, over HTTP against gunicorn (the production server model), on the
embedded store and on Redis: how fast a change arrives, what the stream never does (set a
cookie, write a session), and how it ends."""

import contextlib
import json
import time

import pytest

from tests import servers, test_rooms
from tests.conftest import STORES
from tests.page import Page
from tests.test_rooms import Seat

POLL = 0.1  # seconds between one process's checks for changed rooms (SQLite)
ENDS = 10  # seconds a test waits for a stream to end: the bound of the test, not its claim


def prompt(arrived_after: float, move_took: float) -> bool:
    """A change reaches the other stream at once: within a poll and a few times the move's own
    round trip (a yardstick from the same run), far from the heartbeat that would find it late."""
    return arrived_after <= POLL + 5 * move_took


@pytest.fixture(scope="module", params=STORES)
def base(request, tmp_path_factory, redis_server, gunicorn):
    tmp = tmp_path_factory.mktemp(request.param)
    extra = {"REDIS_URL": redis_server.url} if request.param == "redis" else {}
    env = servers.app_env(tmp, TTT_STREAM_SECONDS="4", TTT_HEARTBEAT_SECONDS="0.5", **extra)
    with gunicorn(env, workers=2) as url:
        yield url


def pair(base: str) -> tuple[Seat, Seat]:
    host = Seat(servers.HttpClient(base)).invite("Ann")
    guest = Seat(servers.HttpClient(base), host.path)
    guest.join("Bob")
    return host, guest


def events_path(page: Page) -> str:
    return page["room"].attrs["data-events"].replace("&amp;", "&")


def stream(base: str, seat: Seat, path: str | None = None, **headers: str) -> servers.EventStream:
    """The stream `seat`'s page follows, opened with `seat`'s cookies."""
    cookie = "; ".join(f"{name}={value}" for name, value in seat.client.cookies.items())
    headers = {"Cookie": cookie, **headers} if cookie else headers
    return servers.EventStream(base, path or events_path(seat.page()), headers)


def rooms_events(events: list[dict]) -> list[dict]:
    return [event for event in events if event.get("event") == "room"]


def arrival(opened: servers.EventStream, title: str, seconds: float = 5) -> float:
    """When the `room` event titled `title` came on stream `opened` (waiting for it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for event in rooms_events(opened.events):
            if json.loads(event["data"])["title"] == title:
                return event["at"]
        time.sleep(0.005)
    raise AssertionError(f"no event titled {title!r} in {seconds} s: {opened.events}")


def test_each_move_reaches_the_other_players_stream_at_once(base):
    host, guest = pair(base)
    delays = []
    with stream(base, guest) as guests, stream(base, host) as hosts:
        assert guests.status == 200 and guests.headers["Content-Type"].startswith("text/event-stream")
        assert guests.wait_for(1)[0] == {"retry": "2000", "at": guests.events[0]["at"]}
        moves = [
            (host, guests, 1, 1, "Ann played b2. Your turn: place O."),
            (guest, hosts, 0, 0, "Bob played a1. Your turn: place X."),
            (host, guests, 2, 2, "Ann played c3. Your turn: place O."),
        ]
        for seat, watcher, row, col, title in moves:
            sent = time.monotonic()
            seat.move(row, col)
            answered = time.monotonic()
            delays.append((arrival(watcher, title) - answered, answered - sent))
        update = json.loads(rooms_events(guests.events)[-1]["data"])
        assert update["title"] == "Ann played c3. Your turn: place O."
        assert {"live-status", "live-board"} <= set(update["parts"]) and "live-join" not in update["parts"]
        assert 'id="status"' in update["parts"]["live-status"] and "move?game=" in update["parts"]["live-board"]
    assert all(prompt(*delay) for delay in delays), delays


def test_a_stream_sets_no_cookie_and_writes_no_session(base):
    host, _guest = pair(base)
    stranger = Seat(servers.HttpClient(base), host.path)
    for seat in (host, stranger):
        with stream(base, seat, path=f"{host.path}/events?v=0") as opened:
            assert opened.status == 200 and "Set-Cookie" not in opened.headers
            assert rooms_events(opened.wait_for(2))  # v=0: the page is behind, the parts come at once
        assert stranger.client.cookies == {}


def test_reading_a_stream_leaves_the_store_as_it_was(app, both_stores):
    """In one process, through the test client: the store before and after a stream."""
    host, guest = test_rooms.pair(app)
    before = test_rooms.stored_state(app)
    for client in (guest.client, app.test_client()):
        response = client.get(f"{host.path}/events?v=0", buffered=False)
        chunks = iter(response.response)
        assert next(chunks).startswith(b"retry:") and b"event: room" in next(chunks)
        response.close()
        assert "Set-Cookie" not in response.headers
    assert test_rooms.stored_state(app) == before


def test_a_stream_ends_when_the_room_closes_and_is_refused_for_an_unknown_room(base):
    host, guest = pair(base)
    with stream(base, guest) as guests:
        guests.wait_for(1)
        for seat in (host, guest):
            seat.post("leave-confirm", at=f"{host.path}/leave")
        assert guests.ended.wait(ENDS)
        assert guests.events[-1]["event"] == "gone"  # after a "room" event, if it saw the host leave first
    with servers.EventStream(base, f"{host.path}/events") as gone:
        assert gone.status == 204  # EventSource stops for good
    with servers.EventStream(base, "/room/AAAAAAAAAAAAAAAAAAAAAA/events") as unknown:
        assert unknown.status == 204


def test_a_stream_keeps_alive_ends_in_time_and_resumes_where_it_was(base):
    host, guest = pair(base)
    with stream(base, guest) as guests:
        host.move(1, 1)
        last = guests.wait_for(2)[-1]
        assert guests.ended.wait(6)  # TTT_STREAM_SECONDS=4
        assert guests.comments >= 4  # a heartbeat every 0.5 s while nothing happened
    with stream(base, guest, **{"Last-Event-ID": last["id"]}) as resumed:
        time.sleep(0.3)
        assert rooms_events(resumed.events) == []  # nothing new since the last event it saw
        guest.move(0, 0)
        assert (
            json.loads(rooms_events(resumed.wait_for(2))[0]["data"])["title"]
            == "You played a1. Waiting for Ann to move."
        )
    with stream(base, guest, **{"Last-Event-ID": last["id"]}) as behind:
        update = json.loads(rooms_events(behind.wait_for(2))[0]["data"])
        assert update["title"] == "You played a1. Waiting for Ann to move."


def test_a_spectators_stream_names_the_players(base):
    host, _guest = pair(base)
    watcher = Seat(servers.HttpClient(base), host.path)
    with stream(base, watcher) as watching:
        host.move(1, 1)
        update = json.loads(rooms_events(watching.wait_for(2))[0]["data"])
    assert update["title"] == "Ann (X) played b2. Bob (O) to move."
    assert "move?" not in update["parts"]["live-board"]


@pytest.mark.parametrize("store", STORES)
@pytest.mark.long
def test_a_move_in_one_process_reaches_a_stream_in_another(tmp_path, store, gunicorn, live_servers_on_redis):
    """Two instances: on SQLite two of one worker each sharing the database file (the change
    is found by the other process's check), on Redis the two that share the Redis server
    (pub/sub: live_servers_on_redis). Heartbeats every 15 s: they find nothing in time."""
    with contextlib.ExitStack() as running:
        if store == "redis":
            first, second = live_servers_on_redis
        else:
            env = servers.app_env(tmp_path, TTT_DATABASE=str(tmp_path / "shared.sqlite3"))
            first, second = (running.enter_context(gunicorn(env, workers=1)) for _ in range(2))
        host = Seat(servers.HttpClient(first)).invite("Ann")
        guest = Seat(servers.HttpClient(second), host.path)
        guest.join("Bob")
        with stream(second, guest) as guests:
            guests.wait_for(1)
            sent = time.monotonic()
            host.move(1, 1)
            answered = time.monotonic()
            arrived = guests.wait_for(2)[-1]
        assert arrived["event"] == "room" and prompt(arrived["at"] - answered, answered - sent)


def test_head_on_a_stream_answers_its_headers_and_takes_no_place(app):
    host, _ = test_rooms.pair(app)
    response = app.test_client().head(f"{host.path}/events")
    assert response.status_code == 200 and response.mimetype == "text/event-stream" and not response.data
    assert response.headers["X-Accel-Buffering"] == "no"
    assert not app.extensions["ttt.streams"].slots
    assert app.test_client().head("/room/AAAAAAAAAAAAAAAAAAAAAA/events").status_code == 204


def test_a_seated_players_stream_finds_a_place_that_onlookers_held(app_factory):
    """Two places, both held by onlookers: a third onlooker is refused, a seated player's
    stream takes the place of one of them, whose stream ends; closed, every place is free."""
    app = app_factory(STREAMS=2)
    host, guest = test_rooms.pair(app)
    path = f"{host.path}/events?v=0"
    onlookers = [app.test_client().get(path, buffered=False) for _ in range(2)]
    refused = app.test_client().get(path)
    assert refused.status_code == 503 and refused.headers["Retry-After"]
    seated = guest.client.get(path, buffered=False)
    assert [r.status_code for r in [*onlookers, seated]] == [200] * 3
    budget = app.extensions["ttt.streams"]
    assert len(budget.slots) == 2 and sum(slot.seated for slot in budget.slots) == 1
    for response in [seated, *onlookers[::-1]]:  # the last opened first: each holds its request's context
        response.close()
    assert not budget.slots
