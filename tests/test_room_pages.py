"""What a room's pages say after the fact: Back to a leave page once left, the score panel's
line once a round is over."""

from tests.page import Page
from tests.test_rooms import Seat, pair


def test_back_to_the_leave_page_after_leaving_says_you_have_no_seat(app):
    host, guest = pair(app)
    leave_page = f"{guest.path}/leave"
    guest.post("leave-confirm", at=leave_page)
    response = guest.client.get(leave_page)  # Back, after leaving
    assert response.status_code == 200, response.text
    page = Page(response.text)
    assert page["no-seat-title"].text == "You have no seat in this room"
    assert page["watch-room"].attrs["href"] == guest.path and page["play-ai"].attrs["href"] == "/"
    assert "leave-confirm" not in response.text
    assert Seat(app.test_client(), host.path).client.get(leave_page).status_code == 200  # a passer-by too
    host.post("leave-confirm", at=leave_page.replace(guest.path, host.path))
    response = host.client.get(f"{host.path}/leave")  # the last one out: the room has closed
    assert response.status_code == 410 and "This room has closed" in response.text


def test_back_to_the_resign_page_after_resigning_shows_the_room(app):
    _, guest = pair(app)
    resign_page = f"{guest.path}/resign"
    guest.post("resign-confirm", at=resign_page)
    response = guest.client.get(resign_page)  # Back, after resigning: nothing left to resign
    assert response.status_code == 303 and response.headers["Location"].endswith(guest.path)
    assert guest.page()["status"].text == "You resigned. Ann won."


def title_of(response) -> str:
    return next(Page(response.text).root.iter("title")).text


def test_every_room_error_page_is_titled_by_its_error(app):
    host, guest = pair(app)
    link = host.page().links[1, 1]
    watcher = Seat(app.test_client(), host.path)
    alone = Seat(app.test_client()).invite("Ann")
    errors = {
        "That move link is not valid (error 400)": host.client.get(f"{host.path}/move?game=zzz"),
        "There is no such cell on the board (error 400)": host.client.get(f"{host.path}/move?n=0&row=7&col=0"),
        "You have no seat in this room (error 403)": watcher.client.get(link),
        "That link or button is from another round, room or seat (error 403)": guest.client.get(link),
        "Someone took the seat first (error 409)": watcher.join(status=409),
        "Choose a name that is not your friend's (Ann) (error 409)": Seat(app.test_client(), alone.path).join(
            "Ann", 409
        ),
        "There is no such room (error 404)": host.client.get("/room/AAAAAAAAAAAAAAAAAAAAAA"),
        "“<” cannot be in a name (error 400)": app.test_client().post("/room/new", data={"name": "<b>"}),
    }
    host.move(1, 1)
    errors["That link is out of date (error 409)"] = host.client.get(link)
    for title, response in errors.items():
        assert title_of(response) == f"{title} · Tic-tac-toe", response.status_code
