"""What the session holds for a player, in one place: the current game, the score, the
finished games, the practice record and the seats in rooms. Each is written back whole,
never changed in place. Teach mode and a room page's auto-refresh are the browser's
preferences, in cookies of their own, so that turning them on or off stores nothing."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import Response, current_app, g, request, session

from ..core.game import DEFAULTS, DIFFICULTIES, Game, format_moves, parse_moves

OUTCOMES = ("win", "loss", "draw")  # the order of a score's tally
KEPT_GAMES = 20  # finished games listed on "Your games"
KEPT_GAME = "ttt_game"  # on flask.g: (the session's game record, the Game decoded from it)


def current_game() -> Game | None:
    """The stored game, decoded once per request: kept on `g` beside the record it was read
    from, so that a change to the record is seen."""
    data = session.get("game")
    kept = g.get(KEPT_GAME)
    if kept is None or kept[0] is not data:
        kept = (data, Game.from_data(data))
        setattr(g, KEPT_GAME, kept)
    return kept[1]


def save(game: Game) -> None:
    """Store the game; a game that just ended is counted in the score, once."""
    if game.over and not game.scored:
        game = game.counted()
        count(game, game.outcome)
        remember(game)
    data = game.to_data()
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
    return Game(token="", moves=parse_moves(record["moves"]) or (), names=tuple(record["names"]), mode=mode, **options)


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


def count(game: Game, outcome: str, by: int = 1) -> None:
    """Add a result to the score of the kind of game `game` is; `by=-1` takes it back."""
    score = {k: v for k, v in (session.get("score") or {}).items() if not _replaced(k, game)}
    key = score_key(game)
    tally = list(_tally(score.get(key)))
    slot = _slot(game, outcome)
    tally[slot] = max(0, tally[slot] + by)
    score[key] = tally
    session["score"] = score


def undo(game: Game) -> Game:
    """The game with the human's last move taken back; a finished game no longer counts, on
    the score or in the list."""
    if game.scored:
        count(game, game.outcome, by=-1)
        forget(game)
    reopened = game.undo()
    save(reopened)
    return reopened


def score(game: Game | None) -> list[tuple[str, str, int]]:
    """The score of the kind of game `game` is (or the default kind), as `_rows`."""
    return _rows(score_key(game))


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
    options = preferences(game)
    if options["mode"] == "ai":
        return f"ai-{options['difficulty']}"
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


def preferences(game: Game | None) -> dict[str, str]:
    """The options of the current game, or the defaults when there is none."""
    if game is None:
        return {**DEFAULTS, "names": ("", "")}
    return {"side": game.side, "difficulty": game.difficulty, "mode": game.mode, "names": game.names}


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
    _toggle_cookie(response, current_app.config["TEACH_COOKIE_NAME"])


def auto_refresh_on() -> bool:
    """Whether a waiting player's page refreshes itself: on, unless the browser turned it off."""
    return request.cookies.get(current_app.config["REFRESH_COOKIE_NAME"]) != "1"


def toggle_auto_refresh(response: Response) -> None:
    _toggle_cookie(response, current_app.config["REFRESH_COOKIE_NAME"])


def _toggle_cookie(response: Response, name: str) -> None:
    """A browser preference, in a cookie of its own: "1", or no cookie at all."""
    options = {"secure": current_app.config["HTTPS"], "httponly": True, "samesite": "Lax"}
    if request.cookies.get(name) == "1":
        response.delete_cookie(name, **options)
    else:
        response.set_cookie(name, "1", max_age=current_app.permanent_session_lifetime, **options)


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
