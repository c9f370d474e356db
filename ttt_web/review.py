"""Game review: a finished game (or the moves so far) at a stable URL that encodes its
moves, every move judged for the player who made it, a replay to step through, and a way
to play on from any position. The pages are the same for every visitor, so they never
touch the session and a proxy may cache them."""

from __future__ import annotations

import functools
from dataclasses import dataclass

from flask import Blueprint, Response, abort, render_template, request

from . import tictactoe as ttt
from .board import board_view
from .costs import position_of
from .game import Game, GameError, action_name, format_moves, parse_moves
from .judging import Judgement, review
from .urls import public_base, url_for, varies_by_host

bp = Blueprint("review", __name__, url_prefix="/review")

CACHE = "public, max-age=86400"  # a review never changes
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
    def refutation(self) -> list[str]:
        return [action_name(a) for a in self.judged.refutation]

    @property
    def explanation(self) -> str:
        """The verdict in a sentence, for the player who moved."""
        judged, mark = self.judged, self.judged.mark
        played = f"{mark} at {self.cell} {outlook(judged.played)}"
        if judged.verdict == "best":
            return f"Best move: {played}."
        better = f"Better: {' or '.join(self.best)}, which {outlook(judged.best)}."
        if judged.verdict == "inaccuracy":
            return f"Inaccuracy: {played}. {better}"
        line = f" Perfect play from here: {', '.join(self.refutation)}." if self.refutation else ""
        turned = TURNED[judged.best.outcome, judged.played.outcome]
        return f"{judged.verdict.capitalize()}: {played}, turning {turned}. {better}{line}"


def outlook(value: ttt.MoveValue) -> str:
    """What a move leads to under perfect play, for its player, in words."""
    if value.outcome == "draw":
        return "holds the draw"
    moves = "with this very move" if value.plies == 1 else f"in {value.plies} moves of both players"
    return f"wins {moves}" if value.outcome == "win" else f"loses {moves}"


@bp.get("/<moves>")
def game(moves: str):
    final = reviewed(moves)
    cells = final.moves
    ply = _ply(len(cells))
    base = url_for("review.game", moves=format_moves(cells))
    listed = [Move(n + 1, judged, f"{base}?ply={n + 1}") for n, judged in enumerate(judge_all(cells))]
    shown = Game(token="", mode="friend", moves=cells[:ply])
    final_text = result_text(final)
    tally = summary(listed)
    best = " ".join(f"{mark}: {n} of {played} best." for mark, (n, played) in tally.items())
    site = public_base()
    response = Response(
        render_template(
            "review/game.html",
            moves=listed,
            ply=ply,
            current=listed[ply - 1] if ply else None,
            base=base,
            view=board_view(shown, teach_on=True, links=False),
            position=position_of(shown.board),
            teach=True,
            final_text=final_text,
            summary=tally,
            turning=turning_point(listed),
            from_here=format_moves(cells[:ply]) if ply and not shown.over else "",
            share=site + base,
            share_text=f"Tic-tac-toe, every move judged: {final_text} {best}",
            image=site + url_for("review.picture", moves=format_moves(cells)),
        )
    )
    response.headers["Cache-Control"] = CACHE
    return varies_by_host(response)


@bp.get("/<moves>/board.svg")
def picture(moves: str):
    """The final board as an SVG picture, for link previews."""
    final = reviewed(moves)
    svg = render_template("review/board.svg", game=final, line=final.winning_line, text=result_text(final))
    return Response(svg, mimetype="image/svg+xml", headers={"Cache-Control": CACHE})


def reviewed(moves: str) -> Game:
    """The game written as in the URL; 400 if it is not written so, 404 if no game has
    these moves."""
    cells = parse_moves(moves)
    if cells is None:
        abort(400, "A review link lists the cells played, 0 to 8 row by row, like /review/4-0-8-2.")
    try:
        return Game(token="", mode="friend", moves=cells)
    except (GameError, ttt.InvalidMoveError):
        abort(404, "No game of tic-tac-toe has these moves: a cell is played twice or after the end.")


def result_text(game: Game) -> str:
    if not game.over:
        return f"unfinished after {game.number} {'move' if game.number == 1 else 'moves'}."
    return f"{game.winner} won in {game.number} moves." if game.winner else "A draw."


@functools.lru_cache(maxsize=4096)
def judge_all(cells: tuple[int, ...]) -> tuple[Judgement, ...]:
    """Every move of a game judged: the same for every visitor, so kept."""
    return tuple(review([divmod(cell, 3) for cell in cells]))


def _ply(count: int) -> int:
    value = request.args.get("ply", str(count))
    if not (value.isascii() and value.isdigit() and int(value) <= count):
        abort(400, f"A move of this game is numbered 0 to {count}.")
    return int(value)


def summary(moves: list[Move]) -> dict[str, tuple[int, int]]:
    """For X and O: (best moves, moves played)."""
    return {
        mark: (sum(m.judged.verdict == "best" for m in mine), len(mine))
        for mark in (ttt.X, ttt.O)
        if (mine := [m for m in moves if m.judged.mark == mark])
    }


def turning_point(moves: list[Move]) -> str | None:
    """The first move that changed the result, in words; None if none did."""
    for move in moves:
        turned = TURNED.get((move.judged.best.outcome, move.judged.played.outcome))
        if turned:
            return f"Move {move.ply}, {move.judged.mark} at {move.cell}, turned {turned} for {move.judged.mark}."
    return None
