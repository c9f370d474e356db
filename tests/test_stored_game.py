"""A game as the session keeps it: what reads back as it was written, and what a damaged
or incomplete record reads as (no game at all, never an error page)."""

import json
import random

import pytest

from tests.page import Page
from ttt_web.app import create_app
from ttt_web.core.game import Game
from ttt_web.web import stored_games


def stored() -> tuple[Game, dict]:
    game = Game.start(random.Random(1), moves=(4, 0), mode="friend", names=("Ann", "Bo"))
    return game, json.loads(json.dumps(stored_games.encode(game)))


def test_a_stored_game_reads_back_as_it_was_in_json_types():
    game, data = stored()
    assert stored_games.decode(data) == game and stored_games.decode(data).board == game.board
    assert (
        stored_games.encode(game)
        == data
        == {
            "token": game.token,
            "side": "X",
            "difficulty": "medium",
            "mode": "friend",
            "moves": [4, 0],
            "scored": False,
            "names": ["Ann", "Bo"],
            "version": 0,
            "given": 2,
        }
    )


DAMAGES = [
    {"moves": [4, 4]},
    {"moves": [True]},
    {"moves": [9]},
    {"moves": [4.0]},
    {"moves": "40"},
    {"token": 1},
    {"scored": "no"},
    {"names": ["Ann", 2]},
    {"names": "Ann"},
    {"names": ["Ann"]},
    {"names": ["A" * 13, ""]},
    {"side": "Z"},
    {"mode": ["ai"]},
    {"version": "1"},
    {"version": True},
    {"version": 1.0},
    {"given": "1"},
    {"given": -1},
    {"given": 3},  # more moves given than the game has
]


@pytest.mark.parametrize("damage", DAMAGES)
def test_a_damaged_game_reads_as_none(damage):
    _, data = stored()
    assert stored_games.decode({**data, **damage}) is None
    assert stored_games.decode({**data, **damage}) is None  # read again (kept or not), the same


@pytest.mark.parametrize("missing", ["token", "side", "difficulty", "mode", "moves", "scored", "names"])
def test_a_game_missing_a_field_reads_as_none(missing):
    _, data = stored()
    assert stored_games.decode({k: v for k, v in data.items() if k != missing}) is None


def test_a_game_stored_before_versions_were_counted_reads_as_version_0():
    _, data = stored()
    assert data["version"] == 0
    played = stored_games.decode({k: v for k, v in data.items() if k != "version"}).play(2, random.Random(1))
    assert played.version == 1 and stored_games.decode(stored_games.encode(played)) == played
    assert played.undo().version == 2 and played.counted().version == 1


@pytest.mark.parametrize("record", [None, [], "game", 3, {"game": {}}, {"token": "t", "moves": [object()]}])
def test_what_is_not_a_record_reads_as_none(record):
    assert stored_games.decode(record) is None


def test_a_game_played_on_keeps_how_many_moves_were_given_and_one_stored_without_reads_as_0():
    _, data = stored()
    assert data["given"] == 2 and stored_games.decode(data).given == 2
    assert stored_games.decode({k: v for k, v in data.items() if k != "given"}).given == 0


def test_a_game_kept_decoded_is_the_game_its_record_decodes_to():
    """Every record of the same values finds the one game kept for them, equal to a fresh
    decode of it, board and all; records that differ in any value, or in a value's type, do
    not find it."""
    game = Game.start(random.Random(3), moves=(4,), mode="friend", names=("Ann", "Bo")).play(0, random.Random(3))
    data = json.loads(json.dumps(stored_games.encode(game)))
    stored_games.decoded.cache_clear()
    fresh = stored_games.decode(data)
    assert fresh is not game and fresh == game and fresh.board == game.board
    assert stored_games.decode(json.loads(json.dumps(data))) is fresh
    for change in ({"version": 2}, {"moves": [4, 0, 8]}, {"scored": True}, {"names": ["Ann", "Cy"]}, {"given": 0}):
        assert stored_games.decode({**data, **change}) not in (None, fresh)
    assert stored_games.decode({**data, "version": True}) is None  # not the game stored with 1


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE": str(tmp_path / "ttt.sqlite3")})
    return app.test_client()


@pytest.mark.parametrize("damage", [{"moves": [4, 4]}, {"version": True}, {"names": None}, {"token": 1}, None])
def test_a_session_holding_a_damaged_game_is_a_visitor_with_no_game_not_an_error(client, damage):
    """The page of a session whose game record is damaged: a new visitor's empty board, and
    the next move starts a game."""
    client.get(min(Page(client.get("/").text).links.values()))
    with client.session_transaction() as session:
        session["game"] = None if damage is None else {**session["game"], **damage}
    page = client.get("/")
    assert page.status_code == 200 and Page(page.text).marks == "." * 9
    assert client.get(min(Page(page.text).links.values())).status_code == 303
