"""Room games in Your games: each seated player keeps the rounds they played in a room
(result from their side, the other's name, a review naming both), through rematches,
resigning, leaving and the room's closing."""

from tests.page import Page
from tests.test_rooms import WIN_FOR_X, pair, play_out


def games(seat) -> list[tuple[str, str, str]]:
    """(moves, outcome, text) for each game on the seat's Your games, newest first."""
    found = Page(seat.client.get("/games/").text).root.by_id("games")
    return [(li.attrs["data-moves"], li.attrs["data-outcome"], li.text) for li in found.iter("li")] if found else []


def test_each_player_keeps_a_finished_round_from_their_side(app):
    host, guest = pair(app)  # Ann hosts and plays X in the first round, Bob O
    assert games(host) == games(guest) == []
    play_out(host, guest, WIN_FOR_X)  # the host's last move ends it: kept in the host's games
    guest.page()  # a GET changes nothing: the guest keeps it at their next step in the room
    assert games(guest) == []
    guest.post("rematch")
    (moves, outcome, text), *_ = games(host)
    assert (moves, outcome) == ("0-3-1-4-2", "win") and "Won" in text and "Bob, in a room; you played X" in text
    (moves, outcome, text), *_ = games(guest)
    assert (moves, outcome) == ("0-3-1-4-2", "loss") and "Lost" in text and "Ann, in a room; you played O" in text
    link = next(Page(guest.client.get("/games/").text)["games"].iter("a")).attrs["href"]
    assert link == "/review/0-3-1-4-2?o=Bob&x=Ann"
    host.post("rematch")  # the next round begins: each keeps the last one once
    assert len(games(host)) == len(games(guest)) == 1


def test_a_room_page_changes_nothing(app, monkeypatch):
    """A GET of the room's page, after a round the other player ended: no session written,
    no cookie set, nothing in the store changed."""
    host, guest = pair(app)
    play_out(host, guest, WIN_FOR_X)
    store = app.session_interface.store
    writes = []
    for name in ("put", "delete", "write_all"):
        monkeypatch.setattr(store, name, lambda *args, _name=name, **kwargs: writes.append(_name))
    for seat in (guest, host):
        response = seat.client.get(seat.path)
        assert response.status_code == 200 and "Set-Cookie" not in response.headers
    assert writes == []


def test_a_round_is_kept_when_the_next_one_is_offered(app):
    host, guest = pair(app)
    play_out(host, guest, WIN_FOR_X)  # the guest's last look was before the end
    guest.post("rematch")  # offering the next round keeps the one that ended
    assert [g[:2] for g in games(guest)] == [("0-3-1-4-2", "loss")]


def test_resigning_and_leaving_are_kept_and_outlive_the_room(app):
    host, guest = pair(app)
    host.move(1, 1)
    guest.post("leave-confirm", at=f"{guest.path}/leave")  # resigns the game under way
    assert [g[:2] for g in games(guest)] == [("4", "loss")]
    assert "you resigned or left" in games(guest)[0][2]
    host.page()  # seen, not yet kept: a GET changes nothing
    assert games(host) == []
    host.post("leave-confirm", at=f"{host.path}/leave")  # the room closes; the host keeps the round
    assert host.client.get(host.path).status_code == 410
    assert [g[:2] for g in games(host)] == [("4", "win")] and "Bob resigned or left" in games(host)[0][2]
    assert Page(host.client.get("/games/").text)  # and the page renders
