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
