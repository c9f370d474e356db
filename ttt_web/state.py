"""What the session holds for a player, in one place: the current game and the score. Both
are written back whole, never changed in place. Teach mode is the browser's preference, in
a cookie of its own, so that turning it on stores nothing."""

from __future__ import annotations

from dataclasses import replace

from flask import Response, current_app, request, session

from .game import DEFAULTS, Game

OUTCOMES = ("win", "loss", "draw")  # the order of a score's tally


def current_game() -> Game | None:
    return Game.from_data(session.get("game"))


def save(game: Game) -> None:
    """Store the game; a game that just ended is counted in the score, once."""
    if game.over and not game.scored:
        game = replace(game, scored=True)
        score = dict(session.get("score") or {})
        tally = list(_tally(score.get(score_key(game))))
        tally[OUTCOMES.index(game.outcome)] += 1
        score[score_key(game)] = tally
        session["score"] = score
    session["game"] = game.to_data()


def score(game: Game | None) -> dict[str, int]:
    """Wins, losses and draws in the kind of game `game` is (or the default kind)."""
    wins, losses, draws = _tally((session.get("score") or {}).get(score_key(game)))
    return {"wins": wins, "losses": losses, "draws": draws}


def reset_score() -> None:
    session.pop("score", None)  # with no score to reset, nothing is stored


def score_key(game: Game | None) -> str:
    """Scores are kept apart by difficulty against the AI, and for two players."""
    options = preferences(game)
    return f"ai-{options['difficulty']}" if options["mode"] == "ai" else "friend"


def preferences(game: Game | None) -> dict[str, str]:
    """The options of the current game, or the defaults when there is none."""
    if game is None:
        return dict(DEFAULTS)
    return {"side": game.side, "difficulty": game.difficulty, "mode": game.mode}


def _tally(value: object) -> tuple[int, int, int]:
    if isinstance(value, list) and len(value) == 3 and all(type(n) is int and n >= 0 for n in value):
        return tuple(value)
    return (0, 0, 0)


def practice() -> dict[str, int | str]:
    """The practice record: positions answered, cells right of cells tried, the current and
    best streak of positions answered without a mistake."""
    record = session.get("practice")
    fields = {"positions": 0, "right": 0, "tried": 0, "streak": 0, "best": 0}
    if isinstance(record, dict):
        fields.update({k: v for k, v in record.items() if k in fields and type(v) is int and v >= 0})
        fields["last"] = record.get("last") if isinstance(record.get("last"), str) else ""
    return fields


def record_practice(position: str, right: int, tried: int) -> dict[str, int | str]:
    """Count an answered position once, however often the same answer is sent."""
    record = practice()
    if record.get("last") != position:
        streak = record["streak"] + 1 if right == tried else 0
        record = {
            "positions": record["positions"] + 1,
            "right": record["right"] + right,
            "tried": record["tried"] + tried,
            "streak": streak,
            "best": max(record["best"], streak),
            "last": position,
        }
        session["practice"] = record
    return record


def teach_on() -> bool:
    return request.cookies.get(current_app.config["TEACH_COOKIE_NAME"]) == "1"


def toggle_teach(response: Response) -> None:
    name = current_app.config["TEACH_COOKIE_NAME"]
    options = {"secure": current_app.config["HTTPS"], "httponly": True, "samesite": "Lax"}
    if teach_on():
        response.delete_cookie(name, **options)
    else:
        response.set_cookie(name, "1", max_age=current_app.permanent_session_lifetime, **options)
