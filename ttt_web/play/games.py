"""Your games: the last finished games of this session, newest first, each a link to its
review. The list lives in the session (session_data.finished_games), so it is the player's own."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from flask import Blueprint, render_template

from ..core.endings import LEFT, RESIGNED, EndingError, ending_asked, ending_query
from ..core.game import Game
from ..core.players import Players, review_query
from ..core.position import SIDES, other, position_of
from ..web import session_data

bp = Blueprint("games", __name__, url_prefix="/games")


@dataclass(frozen=True)
class Played:
    """One finished game as the list shows it."""

    moves: str  # as in its review's address, "4-0-8-..."
    result: str  # for the human: "Won", "Lost" or "Draw"; between friends, who won
    outcome: str  # "win", "loss" or "draw", for the colour
    opponent: str
    ended: datetime
    ago: str
    final: str  # the final board, 9 characters row by row
    players: dict[str, str]  # who played and the moves given, for the review's query
    given: int  # the moves of the position it was played on from: not played in it, nor scored


@bp.get("/")
def listed():
    now = datetime.now(UTC)
    games = [played(record, now) for record in session_data.finished_games()]
    current = session_data.current_game()
    return render_template("games/games.html", games=games, kept=session_data.KEPT_GAMES, current=current)


def played(record: dict, now: datetime) -> Played:
    game = session_data.finished_game(record)
    ended = datetime.fromisoformat(record["ended"])
    final = position_of(game.board)
    players = review_query(Players.of(game), game.given) | ending(record, game)
    if record["mode"] == "room":
        said, colour, against = in_room(game, record)
    else:
        said, colour, against = result(game, record), outcome(game, record), opponent(game)
    return Played(record["moves"], said, colour, against, ended, ago(now - ended), final, players, game.given)


def ending(record: dict, game: Game) -> dict[str, str]:
    """The review's query saying how a game ended that its board does not show: resigned or
    left in a room (by this player, if it was lost), or left against the AI where it wins;
    none if the game's moves cannot have ended so (the review would refuse the link)."""
    if record["mode"] == "room" and record.get("resigned") is True:
        query = ending_query(RESIGNED, record["side"] if record["outcome"] == "loss" else other(record["side"]))
    elif record.get("left") is True:
        query = ending_query(LEFT, record["side"])
    else:
        return {}
    try:
        ending_asked(query, game, Players.of(game))
    except EndingError:
        return {}
    return query


def in_room(game: Game, record: dict) -> tuple[str, str, str]:
    """A room's round from this player's side: the result, its colour, and who against."""
    side = record["side"]
    other = game.names[1 - SIDES.index(side)] or "a friend"
    said = {"win": "Won", "loss": "Lost", "draw": "Draw"}[record["outcome"]]
    if record.get("resigned") is True:
        said += ": you resigned or left" if record["outcome"] == "loss" else f": {other} resigned or left"
    return said, record["outcome"], f"{other}, in a room; you played {side}"


def result(game: Game, record: dict) -> str:
    if record.get("left") is True:
        return "Lost: left where the AI wins"
    if game.mode == "ai":
        return {"win": "Won", "loss": "Lost", "draw": "Draw"}[game.outcome]
    return f"{game.name(game.winner)} won" if game.winner else "Draw"


def outcome(game: Game, record: dict) -> str:
    """The colour of a result: the human's outcome against the AI; between friends, none."""
    return record["outcome"] if game.mode == "ai" else "draw"


def opponent(game: Game) -> str:
    if game.mode == "ai":
        return f"The AI, {Players.of(game).level}; you played {game.side}"
    if any(game.names):
        return f"{game.names[0]} (X) and {game.names[1]} (O), on one screen"
    return "Two players, on one screen"


def ago(elapsed: timedelta) -> str:
    """How long ago, in the largest whole unit: "just now", "5 minutes ago", "2 days ago"."""
    seconds = max(0, int(elapsed.total_seconds()))
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'' if n == 1 else 's'} ago"
    return "just now"
