"""Rooms: two people, two devices, one game through a link; on both stores, in one process
and across two gunicorn instances sharing Redis."""

import contextlib
import json
import sqlite3
import time
from urllib.parse import parse_qs, urlsplit

import pytest
import redis

from tests import servers
from tests.conftest import records
from tests.page import Page
from ttt_web.core.room import Room, RoomError
from ttt_web.core.room_record import GUEST, HOST, issue_id, issued, new_key, valid_id
from ttt_web.rooms import page as roompage
from ttt_web.web.moves import NOT_FROM_HERE

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

    def post(self, form: str, status: int | None = 303, at: str = ""):
        """Send form `form` of the room's page (or of the page at `at`)."""
        page = Page(self.client.get(at).text) if at else self.page()
        response = self.client.post(page.action(form), data=page.form(form))
        assert status is None or response.status_code == status, response.text
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

LINK = "https://ttt.example/room/{}".format


def opened(name: str = "", key: str | None = None) -> Room:
    return Room.open(key or new_key(), LINK, name, secret=b"test")


def played(room: Room, cells) -> Room:
    """`cells` (0-8) played in turn by whoever's turn it is, with their own tokens."""
    for cell in cells:
        who = room.whose_turn()
        room = room.play(who, cell, room.game.number, room.seat_token(who))
    return room


def test_a_room_seats_the_host_then_one_guest():
    host_key, guest_key, other_key = new_key(), new_key(), new_key()
    room = opened("Ann", host_key)
    assert room.seat_of(host_key) == HOST and room.seat_of(guest_key) is None and not room.full
    assert room.link == LINK(room.id)
    room = room.join(guest_key, "Bob")
    assert room.seat_of(guest_key) == GUEST and room.full
    assert room.join(guest_key) == room  # joining again changes nothing
    with pytest.raises(RoomError, match="Both seats are taken"):
        room.join(other_key)
    with pytest.raises(RoomError, match="not your friend's"):
        opened("Ann").join(new_key(), "ann")


def test_sides_swap_each_round_and_the_score_follows_the_players():
    room = opened().join(new_key())
    assert (room.mark(HOST), room.mark(GUEST), room.whose_turn()) == ("X", "O", HOST)
    room = played(room, [0, 3, 1, 4, 2])
    assert room.over and room.winner() == HOST and room.score == (1, 0, 0)
    room = room.rematch(GUEST, room.seat_token(GUEST)).rematch(HOST, room.seat_token(HOST))
    assert (room.mark(HOST), room.whose_turn(), room.round, room.moves) == ("O", GUEST, 2, ())
    room = room.resign(HOST, room.seat_token(HOST))
    assert room.winner() == GUEST and room.score == (1, 1, 0)


def test_each_seat_has_its_own_token_and_each_round_new_ones():
    room = opened().join(new_key())
    host, guest = room.seat_token(HOST), room.seat_token(GUEST)
    assert host != guest and room.token not in (host, guest) and len(host) == 22
    with pytest.raises(RoomError, match="another round, room or seat"):
        room.play(HOST, 4, 0, guest)  # the guest's own token cannot move for the host
    room = room.resign(GUEST, guest)
    room = room.rematch(HOST, host).rematch(GUEST, guest)
    assert room.seat_token(HOST) not in (host, guest) and room.seat_token(GUEST) not in (host, guest)


@pytest.mark.parametrize(
    ("who", "cell", "number", "token", "reason"),
    [
        (None, 4, 0, "host", "no seat"),
        (GUEST, 4, 0, "guest", "not your turn"),
        (HOST, 4, 1, "host", "out of date"),
        (HOST, 4, 0, "forged", "another round"),
        (HOST, 4, 0, "guest", "another round, room or seat"),
        (HOST, 4, 0, "round", "another round, room or seat"),
    ],
)
def test_a_move_must_fit_the_seat_the_turn_the_number_and_the_token(who, cell, number, token, reason):
    room = opened().join(new_key())
    token = {"host": room.seat_token(HOST), "guest": room.seat_token(GUEST), "round": room.token}.get(token, token)
    with pytest.raises(RoomError, match=reason):
        room.play(who, cell, number, token)


def test_a_taken_cell_and_a_finished_game_refuse_moves():
    room = played(opened().join(new_key()), [4])
    with pytest.raises(RoomError, match="taken"):
        room.play(GUEST, 4, 1, room.seat_token(GUEST))
    with pytest.raises(RoomError, match="Finish or resign"):
        room.rematch(HOST, room.seat_token(HOST))
    room = played(room, [0, 1, 2, 7])
    with pytest.raises(RoomError, match="over"):
        room.play(GUEST, 8, 5, room.seat_token(GUEST))


def test_a_rematch_is_an_offer_the_other_accepts_or_declines():
    room = played(opened().join(new_key()), [0, 3, 1, 4, 2])
    offered = room.rematch(HOST, room.seat_token(HOST))
    assert (offered.offer, offered.round, offered.moves) == (HOST, 1, room.moves)  # the board stays
    assert offered.rematch(HOST, room.seat_token(HOST)) == offered  # asking twice is asking once
    declined = offered.decline(GUEST, room.seat_token(GUEST))
    assert declined.declined and declined.moves == room.moves
    with pytest.raises(RoomError, match="no offer"):
        declined.decline(HOST, room.seat_token(HOST))  # one cannot decline one's own offer
    assert declined.rematch(GUEST, room.seat_token(GUEST)).round == 1  # a declined offer is gone: a new one waits
    assert declined.rematch(GUEST, room.seat_token(GUEST)).offer == GUEST
    again = declined.rematch(HOST, room.seat_token(HOST))
    assert (again.offer, again.declined) == (HOST, False)
    accepted = again.rematch(GUEST, room.seat_token(GUEST))
    assert (accepted.round, accepted.moves, accepted.offer, accepted.score) == (2, (), None, (1, 0, 0))


def test_leaving_gives_up_the_seat_not_the_room():
    host_key, guest_key, newcomer = new_key(), new_key(), new_key()
    room = played(opened("Ann", host_key).join(guest_key, "Bob"), [0, 4, 8])
    left = room.leave(GUEST)  # mid-game: counted as resigned
    assert (left.seats[GUEST], left.names, left.moves, left.score) == ("", ("Ann", ""), room.moves, (1, 0, 0))
    assert left.leaver == "Bob" and left.name(GUEST) == "Bob"
    assert left.over and left.winner() == HOST and not left.empty and left.seat_of(host_key) == HOST
    assert left.seat_of(guest_key) is None
    with pytest.raises(RoomError, match="Your friend has left"):
        left.rematch(HOST, left.seat_token(HOST))
    joined = left.join(newcomer, "Cy")  # someone new: Ann keeps her win, Cy starts at none, and a new round
    assert (joined.names, joined.score, joined.moves, joined.round) == (("Ann", "Cy"), (1, 0, 0), (), 2)
    assert joined.leaver == ""
    assert joined.seat_of(newcomer) == GUEST
    assert joined.leave(HOST).leave(GUEST).empty


def test_leaving_before_a_move_or_after_the_end_changes_no_score():
    room = opened().join(new_key())
    assert room.leave(HOST).score == (0, 0, 0) and room.leave(HOST).moves == ()
    room = played(room, [0, 3, 1, 4, 2])
    assert room.leave(GUEST).score == room.score == (1, 0, 0)
    with pytest.raises(RoomError, match="no seat"):
        room.leave(None)


def test_a_room_id_is_signed_so_that_one_never_issued_is_told_from_a_closed_one():
    ids = {issue_id(b"site") for _ in range(200)}
    assert len(ids) == 200 and all(valid_id(room_id) and issued(room_id, b"site") for room_id in ids)
    room_id = ids.pop()
    assert not issued(room_id, b"another site")
    changed = [room_id[:i] + c + room_id[i + 1 :] for i in range(21) for c in "Ab" if c != room_id[i]]
    assert not any(issued(other, b"site") for other in changed)
    assert not issued("A" * 22, b"site") and not issued("short", b"site") and not issued("=" * 22, b"site")
    assert issued(opened().id, b"test")


def test_a_room_round_trips_through_json_and_refuses_damaged_data():
    room = played(opened("Ann").join(new_key(), "Bob"), [4])
    assert Room.from_data(json.loads(json.dumps(room.to_data()))) == room
    damages = [{"moves": [4, 4]}, {"id": "short"}, {"seats": ["a"]}, {"score": "x"}, {"names": [1, 2]}]
    damages += [{"offer": 2}, {"declined": "no"}, {"link": None}, {"leaver": "<b>"}, {"leaver": 3}]
    for damage in damages:
        assert Room.from_data({**room.to_data(), **damage}) is None
    assert Room.from_data(None) is None
    assert Room.from_data({k: v for k, v in room.to_data().items() if k != "offer"}) is None
    assert Room.from_data({k: v for k, v in room.to_data().items() if k != "leaver"}) == room  # stored before it


# Over HTTP, on both stores.


def test_two_clients_play_a_whole_game_and_a_rematch(app):
    host, guest = pair(app)
    page = play_out(host, guest)
    assert page["status"].text == "You won!" or page["status"].text == "Ann won."
    assert host.page()["status"].text == "You won!" and guest.page()["status"].text == "Ann won."
    assert host.page()["room-score"].attrs["data-host"] == "1"
    assert guest.page()["rematch"].text.strip() == "Offer Ann a rematch (sides swap)"  # an offer, not a new game yet
    guest.post("rematch")
    assert guest.page()["offer"].text == "You offered a rematch. Waiting for Ann to answer."
    assert host.page()["offer"].text == "Bob offers a rematch, sides swapped."
    assert host.page().marks == guest.page().marks == "XXXOO...."  # both still see the last board
    host.post("rematch")  # accepts
    assert guest.page()["status"].attrs["data-you"] == "X" and guest.page()["status"].text == "Your turn: place X."
    page = play_out(host, guest, [(1, 1), (0, 0), (0, 1), (2, 1), (0, 2), (2, 0), (1, 0), (1, 2), (2, 2)])
    assert page["status"].attrs["data-result"] == "draw"
    assert host.page()["room-score"].attrs == {**host.page()["room-score"].attrs, "data-draws": "1"}


def test_a_declined_rematch_keeps_the_finished_board(app):
    host, guest = pair(app)
    play_out(host, guest)
    host.post("rematch")
    guest.post("decline")
    assert host.page()["offer"].text == "Bob declined the rematch."
    assert host.page().marks == "XXXOO...." and host.page()["status"].text == "You won!"
    assert guest.page().root.by_id("decline") is None  # nothing left to answer
    before = stored_state(app)
    assert guest.client.post(f"{guest.path}/decline", data=guest.page().form("rematch")).status_code == 303
    assert stored_state(app) == before  # a second "no" (a double click) is the same "no"


def test_an_offer_made_after_a_decline_waits_for_the_others_yes(app):
    """Ann offers, Bob declines, then Bob offers: no new round until Ann accepts (#44)."""
    host, guest = pair(app)
    play_out(host, guest)
    host.post("rematch")
    guest.post("decline")
    assert guest.page()["offer"].text == "You declined Ann's rematch."
    assert guest.page()["rematch"].text.strip() == "Offer Ann a rematch (sides swap)"
    assert host.page()["rematch"].text.strip() == "Offer Bob a rematch (sides swap)"
    guest.post("rematch")
    for seat in (host, guest):
        assert seat.page()["status"].attrs["data-round"] == "1" and seat.page().marks == "XXXOO...."
    assert guest.page()["offer"].text == "You offered a rematch. Waiting for Ann to answer."
    assert host.page()["offer"].text == "Bob offers a rematch, sides swapped."
    host.post("rematch")  # Ann's yes
    assert host.page()["status"].attrs["data-round"] == "2" and guest.page().marks == "........."


def test_a_declined_offer_renewed_by_its_maker_waits_too(app):
    host, guest = pair(app)
    play_out(host, guest)
    host.post("rematch")
    guest.post("decline")
    host.post("rematch")  # Ann asks again
    assert guest.page()["status"].attrs["data-round"] == "1"
    assert guest.page()["offer"].text == "Ann offers a rematch, sides swapped."
    guest.post("rematch")
    assert guest.page()["status"].attrs["data-round"] == "2"


def test_after_a_room_game_its_review_and_the_explorer(app):
    host, guest = pair(app)
    assert host.page().root.by_id("review") is None
    play_out(host, guest)
    page = guest.page()
    assert page["review"].attrs["href"] == "/review/0-3-1-4-2?o=Bob&x=Ann"  # the review names them
    assert page["explore"].attrs["href"] == "/explore/XXXOO...."
    review = Page(guest.client.get(page["review"].attrs["href"]).text)
    said = review["share-text"].text
    assert said.startswith("Tic-tac-toe, every move judged: Ann won in 3 of their moves (5 in all). Ann (X):")


def test_without_javascript_a_waiting_players_page_reloads_itself_and_a_form_never_does(app):
    host = Seat(app.test_client()).invite()
    assert REFRESH in host.page().html  # waiting for the guest
    assert host.page()["share"] and host.page()["room-link"].attrs["value"].endswith(host.path)
    assert next(host.page()["share"].iter("svg")).attrs["role"] == "img"
    guest = Seat(app.test_client(), host.path)
    assert guest.page()["join"] and "refresh" not in guest.page().html  # the join form: never
    guest.join()
    assert REFRESH not in host.page().html  # the host's turn
    assert REFRESH in guest.page().html and guest.page()["refresh"]
    host.move(1, 1)
    assert REFRESH in host.page().html and REFRESH not in guest.page().html
    watcher = Seat(app.test_client(), host.path).page()
    assert REFRESH in watcher.html and watcher["live-board"]  # a spectator's page reloads too (JS off)


REFRESH = '<noscript><meta http-equiv="refresh"'  # JavaScript on: the event stream, no reload


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
    assert page["watching"].text == "You are watching Ann (X) and Bob (O)."
    assert page["status"].text == "Ann (X) played b2. Bob (O) to move."
    watcher.join(status=409)
    link = guest.page().links[0, 0]
    assert watcher.client.get(link).status_code == 403
    assert host.client.get(link).status_code == 403  # the guest's link carries the guest's token
    assert guest.page().marks == "....X...."


def test_a_players_link_cannot_move_for_the_other_or_come_from_another_site(app):
    host, guest = pair(app)
    link = host.page().links[1, 1]
    token = parse_qs(urlsplit(link).query)["game"][0]
    assert token not in guest.page().html and guest.page()["status"].text == "Waiting for Ann to move."
    assert guest.client.get(link).status_code == 403  # the host's link, opened by the guest: not theirs
    response = host.client.get(link, headers={"Sec-Fetch-Site": "cross-site"})
    assert response.status_code == 403 and Page(response.text)["message"].text == NOT_FROM_HERE
    assert host.client.get(link, headers={"Sec-Fetch-Site": "same-site"}).status_code == 403
    assert host.page().marks == "." * 9
    assert host.client.get(link, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 303


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
    host.post("rematch")
    assert guest.client.get(guest_link).status_code == 403  # a link of round 1, replayed in round 2
    assert host.page().marks == "." * 9
    for never in [
        "AAAAAAAAAAAAAAAAAAAAAA",
        "not-a-room",
        "doesnotexist",
        host.path[6:-1] + ("Q" if host.path.endswith("A") else "A"),
        "é" * 22,
    ]:
        response = host.client.get(f"/room/{never}")
        assert response.status_code == 404 and "There is no such room" in response.text, never
        assert "closed" not in response.text
        assert host.client.post(f"/room/{never}/join", data={"name": "Cy"}).status_code == 404
    assert host.client.get("/room/AAAAAAAAAAAAAAAAAAAAAA/move?n=0&row=0&col=0&game=x").status_code == 404


def test_leaving_mid_game_says_the_score_the_resignation_makes(app):
    host, guest = pair(app)
    host.move(1, 1)
    confirm = Page(host.client.get(host.page()["leave"].attrs["href"]).text)
    assert "The game under way counts as resigned: Bob wins it." in confirm.html
    assert "Bob keeps the board and their 1 win in this room" in confirm.html
    assert host.client.post(confirm.action("leave-confirm"), data=confirm.form("leave-confirm")).status_code == 303
    assert guest.page()["room-score"].attrs["data-guest"] == "1"  # as the page said


def test_resign_and_leave_ask_first(app):
    host, guest = pair(app)
    host.move(1, 1)
    confirm = Page(guest.client.get(guest.page()["resign"].attrs["href"]).text)
    assert "Resign this game?" in confirm["confirm-title"].text and "Ann wins this round" in confirm.html
    assert guest.page()["status"].text == "Ann played b2. Your turn: place O."  # asking changed nothing
    response = guest.client.post(confirm.action("resign-confirm"), data=confirm.form("resign-confirm"))
    assert response.status_code == 303
    assert guest.page()["status"].text == "You resigned. Ann won."
    assert host.page()["room-score"].attrs["data-host"] == "1"
    confirm = Page(host.client.get(host.page()["leave"].attrs["href"]).text)
    assert "Bob keeps the board and their 0 wins in this room" in confirm.html
    assert "Whoever takes your seat starts with no wins" in confirm.html
    assert host.client.post(confirm.action("leave-confirm"), data=confirm.form("leave-confirm")).status_code == 303
    page = guest.page()  # the guest keeps the room, the board and their wins, and can invite again
    assert page.marks == "....X...." and page["room-score"].attrs["data-host"] == "0" and page["share"]
    assert "Ann" not in page["room-score"].text  # her win went with her
    assert page["status"].text == "You resigned. Ann won. Ann left: send the link to someone else to play again."
    outsider = Seat(app.test_client(), host.path)
    side = outsider.page()["join-side"].text  # the seat Ann left plays O in round 2, which the newcomer starts
    assert side.startswith("You will play O") and "open" not in side
    assert outsider.client.get(f"{host.path}/resign").status_code == 403
    outsider.join("Cy")  # someone new: a new round; Bob keeps his wins (none), Cy starts at 0
    page = guest.page()
    assert page["status"].text == "Your turn: place X." and page.marks == "." * 9
    assert page["room-score"].attrs == {**page["room-score"].attrs, "data-host": "0", "data-guest": "0"}
    assert "Cy" in page["room-score"].text
    guest.post("leave-confirm", at=f"{guest.path}/leave")
    outsider.post("leave-confirm", at=f"{host.path}/leave")
    response = guest.client.get(guest.path)
    assert response.status_code == 410 and "This room has closed" in response.text
    response = guest.client.get(f"{guest.path}/move?n=x")  # refused before the room is read
    assert response.status_code == 410 and "This room has closed" in response.text
    assert list(records(app, "rooms")) == []  # a room nobody sits in is deleted, not kept


def test_leaving_mid_game_counts_as_resigning(app):
    host, guest = pair(app)
    host.move(1, 1)
    guest.post("leave-confirm", at=f"{guest.path}/leave")
    page = host.page()
    assert page["status"].text == "Bob left during the game. You won!"
    assert page["room-score"].attrs["data-host"] == "1" and page.marks == "....X...."
    # his seat is free: the score no longer names him, and his wins and the draws went with him (#44)
    assert "Bob" not in page["room-score"].text and "Free seat" in page["room-score"].text
    Seat(app.test_client(), host.path).join("Dee")  # Ann keeps her win; Dee and the draws start at 0
    score = host.page()["room-score"]
    assert (score.attrs["data-host"], score.attrs["data-guest"], score.attrs["data-draws"]) == ("1", "0", "0")
    assert "Dee" in score.text and "Bob" not in score.text


def test_a_session_sits_in_three_rooms_at_most(app):
    client = app.test_client()
    first = Seat(client).invite()
    for _ in range(3):
        Seat(client).invite()
    assert client.get(first.path).status_code == 410
    assert len(records(app, "rooms")) == 3


def test_leaving_without_a_seat_stores_nothing(app):
    host = Seat(app.test_client()).invite()
    passer_by = app.test_client()
    assert passer_by.post(f"{host.path}/leave").status_code == 303
    assert passer_by.get_cookie(app.config["SESSION_COOKIE_NAME"]) is None
    assert len(records(app)) == 1 and host.page()["status"].attrs["data-state"] == "waiting"


def test_a_room_nobody_changes_expires(app_factory, both_stores):
    app = app_factory(ROOM_IDLE_HOURS=1 / 3600)  # a second
    host, guest = pair(app)
    time.sleep(1.2)
    assert host.client.get(host.path).status_code == 410
    assert guest.client.get(f"{host.path}/move?n=0&row=0&col=0&game=x").status_code == 410


def test_a_bad_name_on_an_invitation_is_refused(client):
    response = client.post("/room/new", data={"name": "<script>"})
    assert response.status_code == 400 and "12 letters" in response.text


def test_expired_rooms_are_removed_from_the_store(app_factory, both_stores):
    app = app_factory(ROOM_IDLE_HOURS=1 / 3600, TIDY_SECONDS=0)
    pair(app)
    time.sleep(1.2)
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


def test_two_players_on_two_gunicorn_instances_sharing_redis(live_servers_on_redis):
    first, second = live_servers_on_redis
    host = Seat(servers.HttpClient(first)).invite("Ann")
    guest = Seat(servers.HttpClient(second), host.path)
    guest.join("Bob")
    page = play_out(host, guest)
    assert page["status"].attrs["data-state"] == "over"
    assert host.page()["status"].text == "You won!" and guest.page()["status"].text == "Ann won."


# Links that leave the site: the share link, the QR code, a review's preview.


@pytest.mark.parametrize("host", ["a" * 4000, "ex ample.org", "b." + "a" * 300, "under_score.org"])
def test_a_host_the_app_cannot_put_in_a_link_is_refused_not_a_500(client, host):
    for method, path in [("POST", "/room/new"), ("GET", "/review/4-0")]:
        response = client.open(path, method=method, headers={"Host": host})
        assert response.status_code == 400, (method, path)
    assert records(client.application, "rooms") == {}


def test_a_review_names_the_host_it_was_asked_for_and_says_it_varies_by_host(client):
    response = client.get("/review/4-0", headers={"Host": "ttt.example.org:8080"})
    assert response.headers["Cache-Control"].startswith("public") and "Host" in response.headers["Vary"]
    assert 'content="http://ttt.example.org:8080/review/4-0/board' in response.text


def test_with_a_public_url_every_link_that_leaves_the_site_uses_it(app_factory):
    app = app_factory(PUBLIC_URL="https://ttt.example.org/")
    client = app.test_client()
    response = client.get("/review/4-0", headers={"Host": "evil.example"})
    assert "evil" not in response.text and "https://ttt.example.org/review/4-0" in response.text
    assert "Host" not in response.headers.get("Vary", "")
    host = Seat(client).invite()
    link = host.page()["room-link"].attrs["value"]
    assert link == f"https://ttt.example.org{host.path}"


def test_trusted_hosts_refuse_every_other_host(app_factory):
    client = app_factory(TRUSTED_HOSTS=["ttt.example.org"]).test_client()
    assert client.get("/", headers={"Host": "evil.example"}).status_code == 400
    assert client.get("/", headers={"Host": "ttt.example.org"}).status_code == 200


def test_a_rooms_link_and_qr_code_are_made_once_whatever_host_asks(app):
    host = Seat(app.test_client()).invite()
    link = host.page()["room-link"].attrs["value"]
    made = roompage.qr_svg.cache_info().misses
    name = app.config["SESSION_COOKIE_NAME"]
    cookie = host.client.get_cookie(name).value
    for n in range(20):
        host.client.set_cookie(name, cookie, domain=f"h{n}.example.org")  # the same player, by another name
        response = host.client.get(host.path, headers={"Host": f"h{n}.example.org"})
        assert Page(response.text)["room-link"].attrs["value"] == link and Page(response.text)["share"]
    assert roompage.qr_svg.cache_info().misses == made


def test_a_refused_name_is_said_beside_the_field_with_what_was_typed(app):
    host = Seat(app.test_client()).invite("Ann")
    guest = Seat(app.test_client(), host.path)
    response = guest.join("ann", status=409)  # the host's name
    page = Page(response.text)
    field = page["join-name"]
    assert field.attrs["value"] == "ann" and field.attrs["aria-invalid"] == "true"
    assert "join-name-error" in field.attrs["aria-describedby"]
    assert "not your friend's" in page["join-name-error"].text
    assert guest.page()["join-name"].attrs["value"] == ""  # nothing kept but on that answer


def test_a_seat_taken_first_says_by_whom(app):
    host = Seat(app.test_client()).invite("Ann")
    late = Seat(app.test_client(), host.path)
    form = late.page().form("join")
    assert form["seat"] == "1"
    Seat(app.test_client(), host.path).join("Cy")
    response = late.client.post(f"{host.path}/join", data={**form, "name": "Dee"})
    assert response.status_code == 409
    page = Page(response.text)
    assert page["message"].text == "Cy took the seat first. You can watch the game."
    assert page.root.by_id("join") is None and "Cy (O)" in page["watching"].text
    at = response.text.index
    assert at('id="message"') < at('id="live-status"') < at('id="live-board"')  # at the top, not under the board


def test_a_spectator_without_javascript_gets_the_waiting_pages_reload(app):
    host, _ = pair(app)
    spectator = Seat(app.test_client(), host.path)
    assert 'http-equiv="refresh"' in spectator.client.get(host.path).text
    newcomer_room = Seat(app.test_client()).invite("Eve")
    visitor = app.test_client()
    assert 'http-equiv="refresh"' not in visitor.get(newcomer_room.path).text  # a form to fill never reloads
