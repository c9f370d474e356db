"""The benchmarks' yardstick apps still answer their pages: a template change must not turn
a bench figure into a count of errors; and the Jinja floor's page is the game's."""

import importlib

import pytest

from ttt_web.app import create_app
from ttt_web.web import stored_games


@pytest.mark.parametrize(
    "module",
    ["bench.bare_app", "bench.floor_app", "bench.jinja_floor_app", "bench.session_floor_app", "bench.page_floor_app"],
)
def test_each_yardstick_serves_its_page(module):
    app = importlib.import_module(module).app
    response = app.test_client().get("/")
    assert response.status_code == 200 and response.text


def test_the_jinja_floor_renders_the_games_own_page(tmp_path):
    """Byte for byte the page a player whose game it is would be sent: the same links, menu
    and forms, so that the floor costs what rendering this page costs, no less."""
    from bench import jinja_floor_app  # it makes its app when imported: here, not at collection

    client = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE": str(tmp_path / "t.sqlite3")}).test_client()
    with client.session_transaction() as session:
        session["game"] = stored_games.encode(jinja_floor_app.game)
    floor = jinja_floor_app.app.test_client().get("/").text
    assert client.get("/").text == floor


def test_the_page_floor_reads_a_stored_session():
    from bench import jinja_floor_app, page_floor_app

    client = page_floor_app.app.test_client()
    assert client.get("/start").status_code == 200
    response = client.get("/")
    assert "Cookie" in response.headers["Vary"] and response.text == jinja_floor_app.app.test_client().get("/").text
