"""Every error page names the error in its title and its first heading, never the game's
status line, and has a link back to the game."""

import pytest

from tests.page import Page
from ttt_web.app import create_app


@pytest.fixture
def responses(tmp_path):
    """One response of each kind of error, by a name for it."""
    app = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3"), "NEW_SESSION_LIMIT": "1 per day"})

    @app.get("/crash")
    def crash():
        raise RuntimeError("boom")

    client, stranger, newcomer = app.test_client(), app.test_client(), app.test_client()
    assert client.get("/move?n=0&row=1&col=1").status_code == 303
    token = Page(client.get("/").text).form("new-game")["game"]
    stranger.environ_base["REMOTE_ADDR"] = "192.0.2.1"  # past the newcomer's limit, by another address
    assert stranger.get("/move?n=0&row=1&col=1").status_code == 303
    form = {"game": token, "mode": "friend", "name_x": "Ann", "name_o": "Bo \U0001f600"}
    return {
        "bad move link": client.get("/move?n=x"),
        "no such cell": client.get("/move?n=1&row=7&col=1"),
        "another game's link": stranger.get(f"/move?game={token}&n=1&row=0&col=0"),
        "unknown page": client.get("/nowhere"),
        "no such game to review": client.get("/review/0-0"),
        "bad review link": client.get("/review/x-y"),
        "bad name in a review's address": client.get("/review/0-1?x=%3Cb%3E"),
        "bad name in the new-game form": client.post("/new", data=form),
        "wrong method": client.put("/"),
        "too many newcomers": newcomer.get("/move?n=0&row=1&col=1"),
        "crash": client.get("/crash"),
    }


HEADINGS = {
    "bad move link": (400, "That move link is not valid"),
    "no such cell": (400, "There is no such cell on the board"),
    "another game's link": (403, "That link or button is from an earlier game"),
    "unknown page": (404, "Page not found"),
    "no such game to review": (404, "No game of tic-tac-toe has these moves"),
    "bad review link": (400, "Request not understood"),
    "bad name in a review's address": (400, "“<” cannot be in a name"),
    "bad name in the new-game form": (400, "“\U0001f600” cannot be in a name"),
    "wrong method": (405, "Wrong kind of request"),
    "too many newcomers": (429, "Too many new players from your network in a short time"),
    "crash": (500, "Something went wrong"),
}


@pytest.mark.parametrize("kind", HEADINGS)
def test_an_error_page_names_the_error_and_links_back(responses, kind):
    response, (status, heading) = responses[kind], HEADINGS[kind]
    assert response.status_code == status, response.text
    page = Page(response.text)
    title = next(page.root.iter("title")).text
    assert title == f"{heading} (error {status}) · Tic-tac-toe"
    first = next(page["main"].iter("h2"))
    assert first.text.removesuffix(".") == heading  # a sentence of the game page's own keeps its stop
    back = page["back"]  # to the game; from a form, to the field to correct
    assert back.tag == "a" and back.attrs["href"] in (["#name_o"] if "form" in kind else ["/", "/#board"])
    assert "Your turn" not in title and "Your turn" not in first.text


@pytest.mark.parametrize("kind", HEADINGS)
def test_the_footer_speaks_of_cells_only_under_a_board(responses, kind):
    page = Page(responses[kind].text)
    footer = next(page.root.iter("footer")).text
    assert ("Every empty cell is a link" in footer) == (page.root.by_id("board") is not None), footer
