"""Rooms: two people, two devices, one game through a link; on both stores, in one process
and across two gunicorn instances sharing Redis."""

import contextlib
import json
import sqlite3
import time
from urllib.parse import urlsplit

import pytest
import redis

from tests import servers
from tests.conftest import records
from tests.page import Page
from ttt_web.room import GUEST, HOST, Room, RoomError, new_key

WIN_FOR_X = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]  # X completes the top row


class Seat:
    """One person in a room, through their own client (their own cookie)."""

    def __init__(self, client, path: str = "") -> None:
        self.client = client
        self.path = path

    def invite(self, name: str = "") -> "Seat":
        response = self.client.post("/room/new", data={"name": name})
        assert response.status_code == 303, response.text
        self.path = urlsplit(response.headers["Location"]).path
        return self

    def page(self) -> Page:
        response = self.client.get(self.path)
        assert response.status_code == 200, response.text
        return Page(response.text)

    def join(self, name: str = "", status: int = 303):
        response = self.client.post(f"{self.path}/join", data={"name": name})
        assert response.status_code == status, response.text
        return response

    def move(self, row: int, col: int) -> Page:
        response = self.client.get(self.page().links[row, col])
        assert response.status_code == 303, response.text
        return self.page()

    def post(self, form: str, status: int = 303):
        page = self.page()
        response = self.client.post(page.action(form), data=page.form(form))
        assert response.status_code == status, response.text
        return response


def pair(app) -> tuple[Seat, Seat]:
    host = Seat(app.test_client()).invite("Ann")
    guest = Seat(app.test_client(), host.path)
    guest.join("Bob")
    return host, guest


def play_out(host: Seat, guest: Seat, cells=WIN_FOR_X) -> Page:
    """Play `cells` in turn, each by whoever's turn it is; X's moves first."""
    x, o = (host, guest) if host.page()["status"].attrs["data-you"] == "X" else (guest, host)
    for n, (row, col) in enumerate(cells):
        page = (x if n % 2 == 0 else o).move(row, col)
    return page


# The room itself.


def test_a_room_seats_the_host_then_one_guest():
    host_key, guest_key, other_key = new_key(), new_key(), new_key()
    room = Room.open(host_key, "Ann")
    assert room.player(host_key) == HOST and room.player(guest_key) is None and not room.full
    room = room.join(guest_key, "Bob")
    assert room.player(guest_key) == GUEST and room.full
    assert room.join(guest_key) == room  # joining again changes nothing
    with pytest.raises(RoomError, match="Both seats are taken"):
        room.join(other_key)


def test_sides_swap_each_round_and_the_score_follows_the_players():
    host_key, guest_key = new_key(), new_key()
    room = Room.open(host_key).join(guest_key)
    assert (room.mark(HOST), room.mark(GUEST), room.whose_turn()) == ("X", "O", HOST)
    for n, (row, col) in enumerate(WIN_FOR_X):
        room = room.play(HOST if n % 2 == 0 else GUEST, 3 * row + col, n, room.token)
    assert room.over and room.winner() == HOST and room.score == (1, 0, 0)
    room = room.rematch(GUEST, room.token)
    assert (room.mark(HOST), room.whose_turn(), room.round, room.moves) == ("O", GUEST, 2, ())
    room = room.resign(HOST, room.token)
    assert room.winner() == GUEST and room.score == (1, 1, 0)


@pytest.mark.parametrize(
    ("who", "cell", "number", "token", "reason"),
    [
        (None, 4, 0, "t", "no seat"),
        (GUEST, 4, 0, "t", "not your turn"),
        (HOST, 4, 1, "t", "out of date"),
        (HOST, 4, 0, "forged", "another round"),
    ],
)
def test_a_move_must_fit_the_seat_the_turn_the_number_and_the_round(who, cell, number, token, reason):
    room = Room.open(new_key()).join(new_key())
    token = room.token if token == "t" else token
    with pytest.raises(RoomError, match=reason):
        room.play(who, cell, number, token)


def test_a_taken_cell_a_finished_game_and_a_closed_room_refuse_moves():
    room = Room.open(new_key()).join(new_key())
    room = room.play(HOST, 4, 0, room.token)
    with pytest.raises(RoomError, match="taken"):
        room.play(GUEST, 4, 1, room.token)
    with pytest.raises(RoomError, match="closed"):
        room.leave(GUEST).play(GUEST, 0, 1, room.token)
    with pytest.raises(RoomError, match="Finish or resign"):
        room.rematch(HOST, room.token)


def test_a_room_round_trips_through_json_and_refuses_damaged_data():
    room = Room.open(new_key(), "Ann").join(new_key(), "Bob")
    room = room.play(HOST, 4, 0, room.token)
    assert Room.from_data(json.loads(json.dumps(room.to_data()))) == room
    for damage in [{"moves": [4, 4]}, {"id": "short"}, {"seats": ["a"]}, {"score": "x"}, {"names": [1, 2]}]:
        assert Room.from_data({**room.to_data(), **damage}) is None
    assert Room.from_data(None) is None


# Over HTTP, on both stores.


def test_two_clients_play_a_whole_game_and_a_rematch(app):
    host, guest = pair(app)
    page = play_out(host, guest)
    assert page["status"].text == "You won!" or page["status"].text == "Ann won."
    assert host.page()["status"].text == "You won!" and guest.page()["status"].text == "Ann won."
    assert host.page()["room-score"].attrs["data-host"] == "1"
    guest.post("rematch")
    assert guest.page()["status"].attrs["data-you"] == "X" and guest.page()["status"].text == "Your turn: place X."
    page = play_out(host, guest, [(1, 1), (0, 0), (0, 1), (2, 1), (0, 2), (2, 0), (1, 0), (1, 2), (2, 2)])
    assert page["status"].attrs["data-result"] == "draw"
    assert host.page()["room-score"].attrs == {**host.page()["room-score"].attrs, "data-draws": "1"}


def test_the_player_who_waits_gets_a_page_that_refreshes_itself(app):
    host = Seat(app.test_client()).invite()
    assert 'http-equiv="refresh"' in host.page().html  # waiting for the guest
    assert host.page()["share"] and host.page()["room-link"].attrs["value"].endswith(host.path)
    assert next(host.page()["share"].iter("svg")).attrs["role"] == "img"
    guest = Seat(app.test_client(), host.path)
    guest.join()
    assert 'http-equiv="refresh"' not in host.page().html  # the host's turn
    assert 'http-equiv="refresh"' in guest.page().html and guest.page()["refresh"]
    host.move(1, 1)
    assert 'http-equiv="refresh"' in host.page().html and 'http-equiv="refresh"' not in guest.page().html


def test_waiting_costs_no_write(app):
    host, _guest = pair(app)
    host.move(1, 1)
    before = stored_state(app)
    for _ in range(20):
        response = host.client.get(host.path)
        assert response.status_code == 200 and "Set-Cookie" not in response.headers
    assert stored_state(app) == before


def stored_state(app):
    """Every stored record (sessions and rooms) with its version and expiry, to see that
    nothing changed."""
    if app.config.get("REDIS_URL"):
        client = redis.Redis.from_url(app.config["REDIS_URL"])
        return {key: (client.dump(key), client.ttl(key)) for key in client.scan_iter("ttt:*") if b"limit" not in key}
    with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as db:
        return {table: db.execute(f"SELECT * FROM {table} ORDER BY id").fetchall() for table in ("sessions", "rooms")}


def test_a_third_client_watches_and_cannot_move_or_take_a_seat(app):
    host, guest = pair(app)
    host.move(1, 1)
    watcher = Seat(app.test_client(), host.path)
    page = watcher.page()
    assert page.root.by_id("join") is None and page.links == {} and page.root.by_id("resign") is None
    assert "refresh" in page.html  # a game under way: the watcher's page follows it
    watcher.join(status=409)
    link = guest.page().links[0, 0]
    assert watcher.client.get(link).status_code == 403
    assert host.client.get(link).status_code == 409  # the host's own cookie: not the host's turn
    assert guest.page().marks == "....X...."


def test_stale_forged_and_replayed_links_change_nothing(app):
    host, guest = pair(app)
    link = host.page().links[1, 1]
    host.move(1, 1)
    assert host.client.get(link).status_code == 409  # stale: the board has moved on
    guest_link = guest.page().links[0, 0]
    assert guest.client.get(guest_link.replace("game=", "game=forged")).status_code == 403
    for row, col, seat in [(1, 0, guest), (0, 0, host), (2, 2, guest), (0, 2, host), (0, 1, guest), (2, 0, host)]:
        seat.move(row, col)
    assert host.page()["status"].text == "You won!"
    guest.post("rematch")
    assert guest.client.get(guest_link).status_code == 403  # a link of round 1, replayed in round 2
    assert host.page().marks == "." * 9
    assert host.client.get("/room/AAAAAAAAAAAAAAAAAAAAAA").status_code == 404
    assert host.client.get("/room/not-a-room").status_code == 404
    assert host.client.get("/room/AAAAAAAAAAAAAAAAAAAAAA/move?n=0&row=0&col=0&game=x").status_code == 404


def test_resign_and_leave(app):
    host, guest = pair(app)
    host.move(1, 1)
    guest.post("resign")
    assert guest.page()["status"].text == "You resigned. Ann won."
    assert host.page()["room-score"].attrs["data-host"] == "1"
    host.post("leave")
    response = guest.client.get(guest.path)
    assert response.status_code == 404 and "This room has closed" in response.text
    response = guest.client.get(f"{guest.path}/move?n=x")  # refused before the room is read
    assert response.status_code == 404 and "This room has closed" in response.text
    assert list(records(app, "rooms")) == []  # a closed room is deleted, not kept


def test_a_session_sits_in_three_rooms_at_most(app):
    client = app.test_client()
    first = Seat(client).invite()
    for _ in range(3):
        Seat(client).invite()
    assert client.get(first.path).status_code == 404
    assert len(records(app, "rooms")) == 3


def test_leaving_without_a_seat_stores_nothing(app):
    host = Seat(app.test_client()).invite()
    passer_by = app.test_client()
    assert passer_by.post(f"{host.path}/leave").status_code == 303
    assert passer_by.get_cookie(app.config["SESSION_COOKIE_NAME"]) is None
    assert len(records(app)) == 1 and host.page()["status"].attrs["data-state"] == "waiting"


def test_a_room_nobody_changes_expires(app_factory):
    app = app_factory(ROOM_IDLE_HOURS=1 / 3600)  # a second
    host, guest = pair(app)
    time.sleep(1.2)
    assert host.client.get(host.path).status_code == 404
    assert guest.client.get(f"{host.path}/move?n=0&row=0&col=0&game=x").status_code == 404


def test_a_bad_name_on_an_invitation_is_refused(client):
    response = client.post("/room/new", data={"name": "<script>"})
    assert response.status_code == 400 and "12 letters" in response.text


def test_expired_rooms_are_removed_from_the_store(app_factory):
    app = app_factory(ROOM_IDLE_HOURS=1 / 3600, TIDY_SECONDS=0)
    pair(app)
    time.sleep(2.1)
    assert records(app, "rooms") == {}
    app.test_client().get("/")  # a response: the upkeep runs after it
    store = app.extensions["ttt.store"]
    assert store.count(app.extensions["ttt.rooms"].table) == 0


def test_the_invitation_form_is_on_the_game_page(play):
    page = play.page()
    assert page.action("invite") == "/room/new"
    response = play.client.post("/room/new", data=page.form("invite"))
    assert response.status_code == 303 and response.headers["Location"].startswith("/room/")


# Across two gunicorn instances that share Redis.


def test_two_players_on_two_gunicorn_instances_sharing_redis(tmp_path, redis_server):
    env = servers.app_env(tmp_path, REDIS_URL=redis_server.url)
    with servers.gunicorn(env, workers=2) as first, servers.gunicorn(env, workers=2) as second:
        host = Seat(servers.HttpClient(first)).invite("Ann")
        guest = Seat(servers.HttpClient(second), host.path)
        guest.join("Bob")
        page = play_out(host, guest)
        assert page["status"].attrs["data-state"] == "over"
        assert host.page()["status"].text == "You won!" and guest.page()["status"].text == "Ann won."
