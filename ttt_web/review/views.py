"""Game review: a finished game (or the moves so far) at a stable URL that encodes its
moves, every move judged for the player who made it, a replay to step through, and a way
to play on from any position. The pages are the same for every visitor, so they never
touch the session and a proxy may cache them."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from flask import Blueprint, Response, abort, render_template, request

from ..core import tictactoe as ttt
from ..core.game import Game, GameError, format_moves, parse_moves
from ..core.judging import Judgement, accuracy, review, value_after
from ..core.position import action_name, action_of, cell_of, other, position_of
from ..core.words import ending, in_words, outlook, result_text
from ..web.board_view import board_view
from ..web.caching import PUBLIC_FOR_A_DAY
from ..web.urls import public_base, url_for, varies_by_host
from .picture import png

bp = Blueprint("review", __name__, url_prefix="/review")

TURNED = {
    ("win", "draw"): "a win into a draw",
    ("draw", "loss"): "a draw into a loss",
    ("win", "loss"): "a win into a loss",
}


@dataclass(frozen=True)
class Move:
    """One judged move as the review lists it."""

    ply: int  # 1-based
    judged: Judgement
    href: str

    @property
    def cell(self) -> str:
        return action_name(self.judged.action)

    @property
    def best(self) -> list[str]:
        return [action_name(a) for a in self.judged.best_actions]

    @property
    def value(self) -> int:
        """The value after this move, X's point of view: 1, 0 or -1."""
        return value_after(self.judged)

    @property
    def refutation(self) -> str:
        """Perfect play after the move, each move with its mark: "X c1, O b1, X a3"."""
        marks = itertools.cycle((self.other, self.judged.mark))
        return ", ".join(f"{mark} {action_name(a)}" for mark, a in zip(marks, self.judged.refutation, strict=False))

    @property
    def other(self) -> str:
        return other(self.judged.mark)

    @property
    def explanation(self) -> str:
        """The verdict in two sentences: whose move it was, what it leads to, and what that
        player should have played."""
        judged, mark, better = self.judged, self.judged.mark, " or ".join(self.best)
        if judged.verdict == "best":
            return f"Best move: {mark} played {self.cell}, which {outlook(judged.played, mark)}."
        should = f"{mark} should have played {better}, which {outlook(judged.best, mark)}"
        if judged.verdict == "inaccuracy":
            return f"Inaccuracy: {mark} played {self.cell}, which {outlook(judged.played, mark)}. {should}."
        turned = TURNED[judged.best.outcome, judged.played.outcome]
        after = in_words(judged.played, mark, self.other)
        line = f"; after {self.cell}, {after}: {self.refutation}" if self.refutation else ""
        return f"{judged.verdict.capitalize()}: {mark} played {self.cell}, turning {turned}. {should}{line}."


@bp.get("/<moves>")
def game(moves: str):
    final = reviewed(moves)
    cells = final.moves
    base = url_for("review.game", moves=format_moves(cells))
    back = "&back=game" if request.args.get("back") == "game" else ""
    listed = [Move(n + 1, judged, f"{base}?ply={n + 1}{back}") for n, judged in enumerate(judge_all(cells))]
    turning = turning_point(listed)
    ply, current, better = _shown_ply(listed, turning)
    shown = Game.of_moves(cells[: ply - 1 if better else ply])
    final_text = result_text(final)
    tally = summary(listed)
    site = public_base()
    response = Response(
        render_template(
            "review/game.html",
            moves=listed,
            ply=ply,
            current=current,
            better=better,
            base=base,
            back=back,
            view=board_view(
                shown, teach_on=True, links=False, played=cell_of(current.judged.action) if better else None
            ),
            position=position_of(shown.board),
            teach=True,
            final_text=final_text,
            summary=tally,
            turning=turning,
            strip=strip(listed, f"{base}?ply=0{back}"),
            turned=turned,
            percent=percent,
            retries=len(to_retry(cells)),
            retry=url_for("retry.mistake", moves=format_moves(cells), n="1"),
            from_here=format_moves(shown.moves) if shown.moves and not shown.over else "",
            share=site + base,
            share_text=f"Tic-tac-toe, every move judged: {final_text} {accuracy_text(tally)}",
            image=site + url_for("review.picture", moves=format_moves(cells)),
        )
    )
    response.headers["Cache-Control"] = PUBLIC_FOR_A_DAY
    return varies_by_host(response)


@bp.get("/<moves>/board.png")
def picture(moves: str):
    """The final board as a PNG picture, for link previews (chat apps draw no SVG)."""
    final = reviewed(moves)
    return Response(
        png(final.moves, final.winning_line), mimetype="image/png", headers={"Cache-Control": PUBLIC_FOR_A_DAY}
    )


def _shown_ply(listed: list[Move], turning: Move | None) -> tuple[int, Move | None, bool]:
    """The ply the review shows (by default its turning point, else the end), its move, and
    whether the page shows the better move there instead."""
    ply = _ply(len(listed), default=turning.ply if turning else len(listed))
    current = listed[ply - 1] if ply else None
    better = request.args.get("show") == "better" and current is not None and current.judged.verdict != "best"
    return ply, current, better


def reviewed(moves: str) -> Game:
    """The game written as in the URL; 400 if it is not written so, 404 if no game has
    these moves."""
    cells = parse_moves(moves)
    if cells is None:
        abort(400, "A review link lists the cells played, 0 to 8 row by row, like /review/4-0-8-2.")
    try:
        return Game.of_moves(cells)
    except (GameError, ttt.InvalidMoveError):
        abort(404, "No game of tic-tac-toe has these moves: a cell is played twice or after the end.")


@functools.lru_cache(maxsize=4096)
def judge_all(cells: tuple[int, ...]) -> tuple[Judgement, ...]:
    """Every move of a game judged: the same for every visitor, so kept."""
    return tuple(review([action_of(cell) for cell in cells]))


def to_retry(cells: tuple[int, ...]) -> list[int]:
    """The plies (from 1) of the game's moves that were not best: the ones to retry."""
    return [ply for ply, judged in enumerate(judge_all(cells), 1) if judged.verdict != "best"]


def _ply(count: int, default: int) -> int:
    value = request.args.get("ply", str(default))
    if not (value.isascii() and value.isdigit() and int(value) <= count):
        abort(400, f"A move of this game is numbered 0 to {count}.")
    return int(value)


@dataclass(frozen=True)
class Tally:
    """One player's moves, judged: how many, how many best, and the accuracy (0 to 1)."""

    mark: str
    played: int
    best: int
    accuracy: float


def summary(moves: list[Move]) -> list[Tally]:
    """For X and O, if they moved: their tally, with accuracy from the exact values."""
    judged = [m.judged for m in moves]
    return [
        Tally(mark, len(mine), sum(j.verdict == "best" for j in mine), accuracy(judged, mark))
        for mark in (ttt.X, ttt.O)
        if (mine := [j for j in judged if j.mark == mark])
    ]


def accuracy_text(tally: list[Tally]) -> str:
    return " ".join(f"{t.mark}: {percent(t.accuracy)} accuracy." for t in tally)


def percent(share: float) -> str:
    return f"{round(100 * share)} %"


def turning_point(moves: list[Move]) -> Move | None:
    """The first move that changed the result; None if none did."""
    return next((m for m in moves if (m.judged.best.outcome, m.judged.played.outcome) in TURNED), None)


def turned(move: Move) -> str:
    """The turning point in words: "Move 2, O at b1, turned a draw into a loss for O"."""
    judged = move.judged
    change = TURNED[judged.best.outcome, judged.played.outcome]
    return f"Move {move.ply}, {judged.mark} at {move.cell}, turned {change} for {judged.mark}."


@dataclass(frozen=True)
class Point:
    """One ply on the value strip: where it is drawn, and where it links."""

    ply: int
    x: int
    y: int
    value: int  # X's point of view
    href: str
    label: str


STRIP_LEFT, STRIP_STEP, STRIP_HEIGHT = 48, 24, 20  # the strip's units: labels, one ply across, one value up


def strip(moves: list[Move], start: str) -> list[Point]:
    """The game's value after every ply, from the empty board (a draw, at `start`) to the end."""
    points = [Point(0, STRIP_LEFT, 2 * STRIP_HEIGHT, 0, start, "Before move 1: draw")]
    for move in moves:
        label = f"Move {move.ply}, {move.judged.mark} at {move.cell}: {ending(move.value)}"
        points.append(
            Point(
                move.ply,
                STRIP_LEFT + STRIP_STEP * move.ply,
                (2 - move.value) * STRIP_HEIGHT,
                move.value,
                move.href,
                label,
            )
        )
    return points
