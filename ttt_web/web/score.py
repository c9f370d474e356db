"""The player's score, kept in the session: a tally (wins, losses, draws) per kind of game,
by difficulty against the AI, and for two players; two named players keep theirs by name."""

from __future__ import annotations

import json
from typing import Any

from flask import session

from ..core.game import Game
from ..core.options import DEFAULTS, DIFFICULTIES

OUTCOMES = ("win", "loss", "draw")  # the order of a score's tally


def count(game: Game, outcome: str, by: int = 1) -> None:
    """Add a result to the score of the kind of game `game` is; `by=-1` takes it back. A game
    played on from a position counts in none."""
    if game.given:
        return
    score = {k: v for k, v in (session.get("score") or {}).items() if not _replaced(k, game)}
    key = score_key(game)
    tally = list(_tally(score.get(key)))
    slot = _slot(game, outcome)
    tally[slot] = max(0, tally[slot] + by)
    score[key] = tally
    session["score"] = score


def score(game: Game | None) -> list[tuple[str, str, int]]:
    """The score of the kind of game `game` is (or the default kind), as `_rows`; two named
    friends' wins in the game's order, X's first, though their tally is kept by name."""
    rows = _rows(score_key(game))
    if game is not None and game.mode == "friend" and list(game.names) != sorted(game.names):
        rows[0], rows[1] = rows[1], rows[0]
    return rows


def against_ai(difficulty: str) -> list[tuple[str, str, int]]:
    """The score of games against the AI at `difficulty`, as `_rows`."""
    return _rows(f"ai-{difficulty}")


def all_scores() -> list[tuple[str, list[tuple[str, str, int]]]]:
    """Every kind of game with a score: its name and its rows."""
    kinds = [(f"Against the AI, {d}", f"ai-{d}") for d in DIFFICULTIES] + [("Two players", "friend")]
    kinds += [("Two players, by name", key) for key in session.get("score") or {} if key.startswith("friend:")]
    listed = [(name, _rows(key)) for name, key in kinds]
    return [(name, rows) for name, rows in listed if any(n for _, _, n in rows)]


def _rows(key: str) -> list[tuple[str, str, int]]:
    """(data name, label, count) for each result: wins, losses and draws; between two
    friends, each one's wins and the draws."""
    if key.startswith("ai-"):
        labels = ("Wins", "Losses", "Draws")
    elif key == "friend":
        labels = ("X wins", "O wins", "Draws")
    else:
        first, second = json.loads(key.removeprefix("friend:"))
        labels = (f"{first or 'The other player'} wins", f"{second or 'The other player'} wins", "Draws")
    tally = _tally((session.get("score") or {}).get(key))
    return list(zip(("wins", "losses", "draws"), labels, tally, strict=True))


def reset_score() -> None:
    session.pop("score", None)  # with no score to reset, nothing is stored


def score_key(game: Game | None) -> str:
    """Scores are kept apart by difficulty against the AI, and for two players; two named
    players keep theirs by name, whoever plays X."""
    if game is None:  # no game: the defaults, against the AI
        return f"ai-{DEFAULTS['difficulty']}"
    if game.mode == "ai":
        return f"ai-{game.difficulty}"
    return f"friend:{json.dumps(sorted(game.names))}" if any(game.names) else "friend"


def _slot(game: Game, outcome: str) -> int:
    """Where a result goes in its tally: wins, losses, draws; or by player name."""
    if game.mode == "friend" and any(game.names) and outcome != "draw":
        winner = game.names[0 if outcome == "win" else 1]
        return sorted(game.names).index(winner)
    return OUTCOMES.index(outcome)


def _replaced(key: str, game: Game) -> bool:
    """Only the latest pair of named friends keeps a score, so names do not pile up."""
    return game.mode == "friend" and key.startswith("friend:") and key != score_key(game)


def preferences(game: Game | None) -> dict[str, Any]:
    """The options of the current game, or the defaults when there is none."""
    if game is None:
        return {**DEFAULTS, "names": ("", "")}
    return {"side": game.side, "difficulty": game.difficulty, "mode": game.mode, "names": game.names}


def _tally(value: object) -> tuple[int, int, int]:
    if isinstance(value, list) and len(value) == 3 and all(type(n) is int and n >= 0 for n in value):
        return tuple(value)
    return (0, 0, 0)
