"""Stored games checked by a replay that shares no code with the app: each move list is
played out with tests/judge.py, from the empty board."""

from tests import judge
from tests.conftest import records


def legal(moves: list) -> bool:
    """Whether `moves` (cells 0-8) are each on an empty cell of a game not yet over."""
    position = "." * 9
    for cell in moves:
        if judge.is_over(position) or cell not in judge.children(position):
            return False
        position = judge.children(position)[cell]
    return True


def illegal_games(app) -> list[str]:
    """The keys of stored sessions and rooms whose game does not replay legally."""
    games = {key: (data.get("game") or {}).get("moves", []) for key, data in records(app).items()}
    games |= {f"room {key}": data.get("moves", []) for key, data in records(app, "rooms").items()}
    return [key for key, moves in games.items() if not legal(moves)]
