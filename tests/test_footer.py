"""The game's footer ("Every empty cell is a link...") is shown where a board is, and only there."""

import pytest

from tests.page import Page
from tests.test_rooms import pair

CELLS = "Every empty cell is a link"


def footer(html: str) -> str:
    return next(Page(html).root.iter("footer")).text


def test_the_game_page_says_its_cells_are_links(client):
    assert CELLS in footer(client.get("/").text)


@pytest.mark.parametrize("path", ["/score/reset", "/nowhere", "/review/x-y"])
def test_pages_with_no_board_do_not_speak_of_cells(client, path):
    assert client.get("/").status_code == 200
    response = client.get(path)
    assert 'id="board"' not in response.text and CELLS not in footer(response.text)


def test_a_room_s_leave_page_does_not_speak_of_cells(app):
    _, guest = pair(app)
    response = guest.client.get(f"{guest.path}/leave")
    assert response.status_code == 200 and CELLS not in footer(response.text)


@pytest.mark.parametrize(
    ("path", "linked"),
    [
        ("/?from=1-0-7", False),  # play on from a position: the board is drawn, not played on
        ("/review/1-0-7-4-3-8/retry/2", True),
        ("/review/1-0-7-4-3-8/retry/2?try=2", True),  # a wrong try: try again
        ("/review/1-0-7-4-3-8/retry/2?try=8", False),  # solved
        ("/review/1-0-7-4-3-8/retry/2?show=answer", False),
    ],
)
def test_the_footer_speaks_of_cells_only_where_they_are_links(client, path, linked):
    response = client.get(path)
    assert response.status_code == 200
    links = list(Page(response.text)["board"].iter("a"))
    assert (CELLS in footer(response.text)) == linked == bool(links)
