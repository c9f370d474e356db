"""What the session holds for a player: the current game, the finished games, the practice
record and the seats in rooms; the score is in web/score.py, and the browser's own
preferences (cookies, not the session) in web/cookies.py. Each is written back whole, never
changed in place."""

from __future__ import annotations

from datetime import UTC, datetime

from flask import g, session

from ..core.game import Game
from ..core.options import DEFAULTS
from ..core.position import format_moves, parse_moves
from . import stored_games
from .score import OUTCOMES, count

KEPT_GAMES = 20  # finished games listed on "Your games"
KEPT_GAME = "ttt_game"  # on flask.g: (the session's game record, the Game decoded from it)


def current_game() -> Game | None:
    """The stored game, decoded once per request (and once per process for the same record:
    web/stored_games.py): kept on `g` beside the record it was read from, so that a change
    to the record is seen."""
    data = session.get("game")
    kept = g.get(KEPT_GAME)
    if kept is None or kept[0] is not data:
        kept = (data, stored_games.decode(data))
        setattr(g, KEPT_GAME, kept)
    return kept[1]


def save(game: Game) -> None:
    """Store the game; a game that just ended is counted in the score, once."""
    if game.over and not game.scored:
        game = game.counted()
        count(game, game.outcome)
        remember(game)
    data = stored_games.encode(game)
    session["game"] = data
    setattr(g, KEPT_GAME, (data, game))


def leave_lost(game: Game) -> None:
    """A game left where the AI wins with best play: a loss on the score and in the list."""
    count(game, "loss")
    remember(game, left=True)


def remember(game: Game, left: bool = False) -> None:
    """Put a finished game (or one `left` lost) at the top of the player's games, keeping the
    last KEPT_GAMES: the games the score counts."""
    record = {
        "ref": game.ref,
        "moves": format_moves(game.moves),
        "outcome": "loss" if left else game.outcome,
        "left": left,
        "mode": game.mode,
        "difficulty": game.difficulty,
        "side": game.side,
        "names": list(game.names),
        "given": game.given,
    }
    keep(record, game)


def keep(record: dict, game: Game) -> None:
    """Put the record of `game` at the top of the list, once, dated now."""
    record = {**record, "ended": datetime.now(UTC).isoformat(timespec="seconds")}
    session["games"] = [record, *_others(game)][:KEPT_GAMES]


def kept(game: Game) -> bool:
    return len(_others(game)) < len(finished_games())


def remember_round(game: Game, side: str, outcome: str, resigned: bool) -> None:
    """Keep a room's round that this player played (as `side`), once: the names in `game`."""
    if not kept(game):
        record = {"ref": game.ref, "moves": format_moves(game.moves), "outcome": outcome, "left": False}
        record |= {"mode": "room", "difficulty": DEFAULTS["difficulty"], "side": side, "names": list(game.names)}
        keep({**record, "resigned": resigned}, game)


def forget(game: Game) -> None:
    """Take a game off the list, as undo takes its ending off the score."""
    session["games"] = _others(game)


def _others(game: Game) -> list[dict]:
    same = (game.ref, format_moves(game.moves))
    return [g for g in finished_games() if (g["ref"], g["moves"]) != same]


def finished_games() -> list[dict]:
    """The player's finished games, newest first, as `remember` stored them."""
    games = session.get("games")
    return [g for g in games if _is_record(g)] if isinstance(games, list) else []


def finished_game(record: dict) -> Game:
    """The game a record of `finished_games` keeps; KeyError, TypeError or ValueError if the
    record does not hold one."""
    options = {k: record[k] for k in ("difficulty", "side")}
    mode = "friend" if record["mode"] == "room" else record["mode"]
    given = record.get("given", 0)  # 0 in a record kept before the moves given were
    moves = parse_moves(record["moves"]) or ()
    return Game(token="", moves=moves, names=tuple(record["names"]), mode=mode, given=given, **options)


def _is_record(record: object) -> bool:
    if not isinstance(record, dict) or record.get("outcome") not in OUTCOMES:
        return False
    try:
        datetime.fromisoformat(record["ended"])
        ended = (record.get("left") is True and record["outcome"] == "loss") or record.get("resigned") is True
        over = finished_game(record).over or ended
        return over and isinstance(record["ref"], str)
    except (KeyError, TypeError, ValueError):
        return False


def undo(game: Game) -> Game:
    """The game with the human's last move taken back; a finished game no longer counts, on
    the score or in the list."""
    if game.scored:
        count(game, game.outcome, by=-1)
        forget(game)
    reopened = game.undo()
    save(reopened)
    return reopened


PRACTICE_COUNTS = ("positions", "right", "tried", "streak", "best")


def practice_counts() -> tuple[dict[str, int], str]:
    """The practice record: positions answered, cells right of cells tried, the current and
    best streak of positions answered without a mistake; and the last position answered."""
    record = session.get("practice")
    counts = dict.fromkeys(PRACTICE_COUNTS, 0)
    last = ""
    if isinstance(record, dict):
        counts.update({k: v for k, v in record.items() if k in counts and type(v) is int and v >= 0})
        last = record["last"] if isinstance(record.get("last"), str) else ""
    return counts, last


def practice() -> dict[str, int | str]:
    """The practice record, its counts and its last position (practice_counts) in one."""
    counts, last = practice_counts()
    return {**counts, "last": last}


def record_practice(position: str, right: int, tried: int) -> dict[str, int | str]:
    """Count an answered position once, however often the same answer is sent."""
    counts, last = practice_counts()
    if last == position:
        return {**counts, "last": last}
    streak = counts["streak"] + 1 if right == tried else 0
    record: dict[str, int | str] = {
        "positions": counts["positions"] + 1,
        "right": counts["right"] + right,
        "tried": counts["tried"] + tried,
        "streak": streak,
        "best": max(counts["best"], streak),
        "last": position,
    }
    session["practice"] = record
    return record


MAX_SEATS = 3  # rooms a session may sit in at once; taking a fourth leaves the oldest


def seat_key(room_id: str) -> str | None:
    """The key to this session's seat in the room, if it has one."""
    seats = session.get("seats")
    key = seats.get(room_id) if isinstance(seats, dict) else None
    return key if isinstance(key, str) else None


def with_seat(room_id: str, key: str) -> tuple[dict, dict[str, str]]:
    """The session's data with the key to a seat in the room kept, and the seats (room: key)
    it gives up to make room. The session itself is unchanged: the caller stores the data
    with the rooms (sessions.write_with_session)."""
    seats = {k: v for k, v in _seats().items() if k != room_id}
    dropped = dict(list(seats.items())[: max(0, len(seats) - MAX_SEATS + 1)])
    kept = {k: v for k, v in seats.items() if k not in dropped}
    return {**session, "seats": {**kept, room_id: key}}, dropped


def without_seat(room_id: str) -> dict:
    """The session's data with its seat in the room given up (unchanged if it had none)."""
    seats = _seats()
    if room_id not in seats:
        return dict(session)
    return {**session, "seats": {k: v for k, v in seats.items() if k != room_id}}


def _seats() -> dict[str, str]:
    seats = session.get("seats")
    return {k: v for k, v in seats.items() if isinstance(v, str)} if isinstance(seats, dict) else {}
