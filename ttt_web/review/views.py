"""Game review: a finished game (or the moves so far) at a stable URL that encodes its
moves, every move judged for the player who made it, a replay to step through, and a way
to play on from any position. The pages are the same for every visitor, so they never
touch the session and a proxy may cache them."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from urllib.parse import unquote

from flask import Blueprint, Response, abort, render_template, request

from ..core import tictactoe as ttt
from ..core.endings import Ending, EndingError, ending_asked
from ..core.game import Game, GameError
from ..core.judging import Judgement, review
from ..core.players import Players, PlayersError, review_query
from ..core.position import action_of, cell_of, format_moves, parse_moves, position_of
from ..core.words import ending
from ..web.board_view import board_view
from ..web.caching import PUBLIC_FOR_A_DAY
from ..web.urls import public_base, url_for, varies_by_host
from .picture import HEIGHT, of_game, off_the_loop
from .text import (
    Move,
    OwnMove,
    Tally,
    ended_text,
    heading,
    own_move,
    percent,
    preview,
    preview_description,
    share_text,
    step_count,
    summary,
    turned,
    turning_point,
)

bp = Blueprint("review", __name__, url_prefix="/review")


@bp.get("/<moves>")
def game(moves: str):
    final = reviewed(moves)
    cells, players = final.moves, players_asked()
    ending = ending_of(final, players)
    kept = review_query(players, final.given) | (ending.query() if ending else {})
    extra = kept_query(players, final)

    def step(ply: int, **more: str) -> str:
        return url_for("review.game", moves=format_moves(cells), ply=str(ply), **extra, **more)

    listed = [
        Move(n + 1, judged, step(n + 1), players, n < final.given, final.given)
        for n, judged in enumerate(judge_all(cells))
    ]
    played = listed[final.given :]  # only the moves played from the starting position count
    turning, own = turning_point(played), own_move(played, players)
    ply, current, better = _shown_ply(listed, own.move if own else turning)
    shown = Game.of_moves(cells[: ply - 1 if better else ply])
    tally = summary(played, players)
    site = public_base()
    share = site + url_for("review.game", moves=format_moves(cells), **kept)
    response = Response(
        render_template(
            "review/game.html",
            moves=listed,
            ply=ply,
            current=current,
            heading=heading(current, final.given, len(played)),
            step_count=step_count(current, final.given, len(played)),
            given=final.given,
            better=better,
            step=step,
            back="back" in extra,
            players=players,
            view=board_view(
                shown, teach_on=True, links=False, played=cell_of(current.judged.action) if better and current else None
            ),
            position=position_of(shown.board),
            teach=True,
            final_text=ended_text(final, players, ending),
            ending=ending,
            summary=tally,
            turning=turning,
            brief=brief(tally, players, own, turning),
            strip=strip(listed, step(0)),
            turned=turned,
            retries=len(to_retry(cells, players, final.given)),
            retry=url_for("retry.mistake", moves=format_moves(cells), n="1", **extra),
            from_here=play_on_query(shown, players),
            from_before=play_on_query(Game.of_moves(cells[: ply - 1]), players) if _worse(current, better) else {},
            share=share,
            share_shown=readable(share),
            share_text=share_text(final, players, tally, ending),
            preview=preview(final, players, ending),
            preview_description=preview_description(final, players, tally, ending),
            image=site + url_for("review.picture", moves=format_moves(cells), **kept),
            image_height=HEIGHT,
        )
    )
    response.headers["Cache-Control"] = PUBLIC_FOR_A_DAY
    return varies_by_host(response)


def readable(link: str) -> str:
    """A link as a person reads it (an IRI): letters of every script as they are, not
    percent-encoded; a space stays %20, so the link still ends where it should when pasted."""
    return unquote(link).replace(" ", "%20")


def brief(tally: list[Tally], players: Players, own: OwnMove | None, turning: Move | None) -> list[str]:
    """The verdict in brief, for the top of the page: the accuracy (yours against the AI,
    each player's otherwise; the Summary says what it counts) and the move it opens on."""
    if players.against_ai:
        mine = [f"Your accuracy: {percent(t.accuracy)}." for t in tally if t.mark == players.you]
        return mine + ([own.text] if own else [])
    kept_together = [
        f"{t.label}\N{NO-BREAK SPACE}{percent(t.accuracy)}".replace(" %", "\N{NO-BREAK SPACE}%") for t in tally
    ]
    said = [f"Accuracy: {', '.join(kept_together)}."] if tally else []
    return said + ([f"Turning point: {turned(turning)}"] if turning else [])


def ending_of(game: Game, players: Players) -> Ending | None:
    """How the game ended, if its query says it was resigned or left; 400 if that cannot be."""
    try:
        return ending_asked(request.args, game, players)
    except EndingError as error:
        abort(400, str(error))


def _worse(current: Move | None, better: bool) -> bool:
    """Whether the move shown, after it was played, was not best: then one can play on from
    before it too, to play the better move."""
    return current is not None and not current.given and current.judged.verdict != "best" and not better


def play_on_query(shown: Game, players: Players) -> dict[str, str]:
    """The query of the link to play on from the position shown, with your side and the AI's
    level against the AI; none when the game is over there."""
    if not shown.moves or shown.over:
        return {}
    return {"from": format_moves(shown.moves), **(players.query() if players.against_ai else {})}


def kept_query(players: Players, game: Game) -> dict[str, str]:
    """The review's query, which every link of the review and its retries keeps: its
    players, the moves given, how it ended if it was resigned or left, and its way back to
    the game."""
    back = {"back": "game"} if request.args.get("back") == "game" else {}
    ending = ending_of(game, players)
    return review_query(players, game.given) | (ending.query() if ending else {}) | back


def players_asked() -> Players:
    """Who played, as the review's query says; 400 if it says it wrongly."""
    try:
        return Players.from_query(request.args)
    except PlayersError as error:
        abort(400, str(error))


@bp.get("/<moves>/board.png")
def picture(moves: str):
    """The final board and who played it as a PNG picture, for link previews (chat apps draw no SVG)."""
    game, players = reviewed(moves), players_asked()
    image = off_the_loop(of_game, game, players, ending_of(game, players))
    return Response(image, mimetype="image/png", headers={"Cache-Control": PUBLIC_FOR_A_DAY})


def _shown_ply(listed: list[Move], turning: Move | None) -> tuple[int, Move | None, bool]:
    """The ply the review shows (by default its turning point, else the end), its move, and
    whether the page shows the better move there instead."""
    ply = _ply(len(listed), default=turning.ply if turning else len(listed))
    current = listed[ply - 1] if ply else None
    wanted = request.args.get("show") == "better"
    better = wanted and current is not None and not current.given and current.judged.verdict != "best"
    return ply, current, better


def reviewed(moves: str) -> Game:
    """The game written as in the URL, with the moves its query says were given (the
    position it was played on from); 400 if it is not written so, 404 if no game has these
    moves."""
    cells = parse_moves(moves)
    if cells is None:
        abort(400, "A review link lists the cells played, 0 to 8 row by row, like /review/4-0-8-2.")
    given = request.args.get("given", "0")
    if given not in {str(n) for n in range(len(cells))}:
        abort(400, f"A review of these moves says 0 to {len(cells) - 1} of them were given (?given=3).")
    try:
        return Game.of_moves(cells, int(given))
    except (GameError, ttt.InvalidMoveError):
        abort(404, "No game of tic-tac-toe has these moves: a cell is played twice or after the end.")


@functools.lru_cache(maxsize=4096)
def judge_all(cells: tuple[int, ...]) -> tuple[Judgement, ...]:
    """Every move of a game judged: the same for every visitor, so kept."""
    return tuple(review([action_of(cell) for cell in cells]))


def to_retry(cells: tuple[int, ...], players: Players, given: int = 0) -> list[int]:
    """The plies (from 1) of the people's moves that were not best: the ones to retry (not
    the AI's, nor the `given` first moves, the position the game was played on from)."""
    judged = enumerate(judge_all(cells), 1)
    return [ply for ply, move in judged if ply > given and move.verdict != "best" and players.learns(move.mark)]


def _ply(count: int, default: int) -> int:
    value = request.args.get("ply", str(default))
    if not (value.isascii() and value.isdigit() and int(value) <= count):
        abort(400, f"A move of this game is numbered 0 to {count}.")
    return int(value)


@dataclass(frozen=True)
class Point:
    """One ply on the value strip: where it is drawn, and where it links."""

    ply: int
    x: int
    y: int
    value: int  # X's point of view
    href: str
    label: str
    numbered: str  # written under it: the move's number, none for a move given


STRIP_LEFT, STRIP_STEP, STRIP_HEIGHT = 48, 24, 20  # the strip's units: labels, one ply across, one value up


def strip(moves: list[Move], start: str) -> list[Point]:
    """The game's value after every ply, from the empty board (a draw, at `start`) to the end;
    the moves played numbered as the review numbers them, the moves given not."""
    given = any(move.given for move in moves)
    before = "Before the moves given: draw" if given else "Before move 1: draw"
    points = [Point(0, STRIP_LEFT, 2 * STRIP_HEIGHT, 0, start, before, "" if given else "0")]
    for move in moves:
        x, y = STRIP_LEFT + STRIP_STEP * move.ply, (2 - move.value) * STRIP_HEIGHT
        numbered = "" if move.given else str(move.number)
        points.append(Point(move.ply, x, y, move.value, move.href, strip_label(move), numbered))
    return points


def strip_label(move: Move) -> str:
    if move.given:
        return f"Move {move.number} given, {move.mark} at {move.cell}, starting position: {ending(move.value)}"
    return f"Move {move.number}, {move.label} at {move.cell}: {ending(move.value)}"
