"""Stored games, decoded once per process: a request reads its game from the session's
record, and the same record decodes to the same Game, which never changes. So every request
that reads a record of the same values shares one Game, kept with what it worked out once
(its position's outcome, its moves' names...), the last DECODED of them.

Real traffic reads the same record again and again: a move stores the game (`encode` keeps
it), and the player's browser follows the move's See Other to the game's page on the same
connection, so the same process; a reload, Back and the next move read it again."""

from __future__ import annotations

from typing import Any

from .game import Game

DECODED = 4096  # games kept decoded per process, each a few KB
# The fields of a stored game, as Game.to_data writes them, and the exact type of each.
FIELDS = (
    ("token", str),
    ("side", str),
    ("difficulty", str),
    ("mode", str),
    ("moves", list),
    ("scored", bool),
    ("names", list),
    ("version", int),
    ("given", int),
)
OPTIONAL = ("version", "given")  # 0 in a game stored before each was kept
_DECODED: dict[tuple[object, ...], Game | None] = {}  # None for a record that holds no valid game
_UNKNOWN = object()


def decode(data: object) -> Game | None:
    """Game.from_data(data): the game stored in the session, or None."""
    key = _key(data)
    if key is None:  # not as to_data writes it: decoded (to None, surely), never kept
        return Game.from_data(data)
    kept = _DECODED.get(key, _UNKNOWN)
    if isinstance(kept, Game) or kept is None:
        return kept
    game = Game.from_data(data)
    _keep(key, game)
    return game


def encode(game: Game) -> dict[str, object]:
    """game.to_data(), with `game` kept as what that data decodes to."""
    data = game.to_data()
    key = _key(data)
    if key is not None:  # always, for a game's own data
        _keep(key, game)
    return data


def _key(data: object) -> tuple[object, ...] | None:
    """The values of a record, in the order of FIELDS, if each is of the exact type that
    to_data writes (so that a damaged record, a version `true`, cannot find the game stored
    with 1); else None."""
    if not isinstance(data, dict):
        return None
    values: list[Any] = []
    for name, kind in FIELDS:
        value = data.get(name, 0) if name in OPTIONAL else data.get(name)
        if type(value) is not kind:
            return None
        values.append(tuple(value) if isinstance(value, list) else value)
    moves, names = values[4], values[6]
    if not all(type(cell) is int for cell in moves) or not all(type(name) is str for name in names):
        return None
    return tuple(values)


def _keep(key: tuple[object, ...], game: Game | None) -> None:
    while len(_DECODED) >= DECODED:
        _DECODED.pop(next(iter(_DECODED)), None)  # the oldest
    _DECODED[key] = game
