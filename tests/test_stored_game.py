"""A game as the session keeps it: what reads back as it was written, and what a damaged
or incomplete record reads as (no game at all)."""

import json
import random

import pytest

from ttt_web.core import stored_games
from ttt_web.core.game import Game


def stored() -> tuple[Game, dict]:
    game = Game.start(random.Random(1), moves=(4, 0), mode="friend", names=("Ann", "Bo"))
    return game, json.loads(json.dumps(game.to_data()))


def test_a_stored_game_reads_back_as_it_was():
    game, data = stored()
    assert Game.from_data(data) == game and Game.from_data(data).board == game.board


@pytest.mark.parametrize(
    "damage",
    [
        {"moves": [4, 4]},
        {"moves": [True]},
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
        {"given": "1"},
        {"given": -1},
        {"given": 3},  # more moves given than the game has
    ],
)
def test_a_damaged_game_reads_as_none(damage):
    _, data = stored()
    assert Game.from_data({**data, **damage}) is None


@pytest.mark.parametrize("missing", ["token", "side", "difficulty", "mode", "moves", "scored", "names"])
def test_a_game_missing_a_field_reads_as_none(missing):
    _, data = stored()
    assert Game.from_data({k: v for k, v in data.items() if k != missing}) is None


def test_a_game_stored_before_versions_were_counted_reads_as_version_0():
    _, data = stored()
    assert data["version"] == 0
    played = Game.from_data({k: v for k, v in data.items() if k != "version"}).play(2, random.Random(1))
    assert played.version == 1 and Game.from_data(played.to_data()) == played
    assert played.undo().version == 2 and played.counted().version == 1


def test_what_is_not_a_record_reads_as_none():
    assert Game.from_data(None) is None and Game.from_data([]) is None


def test_a_game_played_on_keeps_how_many_moves_were_given_and_one_stored_without_reads_as_0():
    _, data = stored()
    assert data["given"] == 2 and Game.from_data(data).given == 2
    assert Game.from_data({k: v for k, v in data.items() if k != "given"}).given == 0


def test_a_game_kept_decoded_is_the_game_its_record_decodes_to():
    """Every record of the same values finds the one game kept for them, equal to a fresh
    decode of it, board and all; records that differ in any value, or in a value's type, do
    not find it, and a damaged record still reads as none."""
    game = Game.start(random.Random(3), moves=(4,), mode="friend", names=("Ann", "Bo")).play(0, random.Random(3))
    data = json.loads(json.dumps(stored_games.encode(game)))
    assert stored_games.decode(data) is game
    stored_games._DECODED.clear()
    fresh = stored_games.decode(data)
    assert fresh is not game and fresh == game and fresh.board == game.board
    assert stored_games.decode(json.loads(json.dumps(data))) is fresh
    for change in ({"version": 2}, {"moves": [4, 0, 8]}, {"scored": True}, {"names": ["Ann", "Cy"]}, {"given": 0}):
        assert stored_games.decode({**data, **change}) == Game.from_data({**data, **change}) != fresh
    for damage in ({"given": True}, {"version": 1.0}, {"moves": [4, 0, True]}, {"side": "Z"}, {"names": ["Ann"]}):
        assert stored_games.decode({**data, **damage}) is None
        assert stored_games.decode({**data, **damage}) is None  # kept or not, the same
    assert stored_games.decode(None) is None
