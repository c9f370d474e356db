"""Practice: guess the value. The student marks every empty cell of a position with what a
move there leads to, in X's terms as `utility` counts it (X wins 1, a draw 0, O wins -1),
and gets each cell graded with the line of perfect play that proves it; a streak and
accuracy are kept in the session."""

from __future__ import annotations

import functools
import random
from typing import NamedTuple

from flask import Blueprint, abort, render_template, request

from ..core import tictactoe as ttt
from ..core.costs import reachable
from ..core.judging import judge
from ..core.position import EMPTY_BOARD, Outcome, action_name, action_of, board, cell_name, other, over, to_move
from ..core.words import SIGNED, ending, in_words
from ..web import session_data
from ..web.board_view import position_view

bp = Blueprint("practice", __name__, url_prefix="/practice")
rng = random.SystemRandom()
# each answer as the form sends it (a utility, X's side) and as the page says it
ANSWERS = {str(utility): f"{ending(utility)} ({SIGNED[utility]})" for utility in (1, 0, -1)}


class Graded(NamedTuple):
    """One empty cell's answer, graded: what the player said a move there leads to, and
    what it does (with perfect play after it, as cell names)."""

    cell: str
    answer: str  # a utility as the form sends it ("1", "0", "-1"), or "" for none
    value: ttt.MoveValue
    utility: int
    correct: bool
    line: list[str]


@bp.get("/")
def ask():
    text = request.args.get("position") or rng.choice(candidates())
    return page(checked(text))


@bp.post("/")
def grade():
    text = checked(request.form.get("position", ""))
    here, graded = board(text), []
    for cell in empty_cells(text):
        judged = judge(here, action_of(cell))
        answer = request.form.get(f"cell-{cell_name(cell)}", "")
        utility = Outcome(judged.played.outcome).for_x(judged.mark)
        refutation = [action_name(a) for a in judged.refutation]
        graded.append(Graded(cell_name(cell), answer, judged.played, utility, answer == str(utility), refutation))
    right = sum(g.correct for g in graded)
    record = session_data.record_practice(text, right, len(graded))
    return page(text, graded=graded, right=right, record=record)


def page(text: str, graded=None, right: int = 0, record=None) -> str:
    return render_template(
        "practice/practice.html",
        position=text,
        mover=to_move(text),
        cells=[cell_name(n) for n in empty_cells(text)],
        answers=ANSWERS,
        view=position_view(text, teach_on=bool(graded)),
        teach=bool(graded),
        graded=graded,
        right=right,
        record=record or session_data.practice(),
        game=session_data.current_game(),
        told=told,
        said=said,
    )


def told(value: ttt.MoveValue, mover: str) -> str:
    """What a move of `mover` worth `value` leads to, in X's terms, to follow "X at c1 (0, 2)":
    "leads to utility 1: X wins in 2 of its moves", "leads to a draw (utility 0) with best play"."""
    utility = Outcome(value.outcome).for_x(mover)
    if not utility:
        return "leads to a draw (utility 0) with best play"
    return f"leads to utility {SIGNED[utility]}: {in_words(value, mover, other(mover))}"


def said(answer: str) -> str:
    """An answer the form sent, in words: "X wins", "draw", "O wins", or "nothing"."""
    return ending(int(answer)) if answer in ANSWERS else "nothing"


def checked(text: str) -> str:
    """A live, reachable position, else 400."""
    if text not in reachable(EMPTY_BOARD) or over(text):
        abort(400, "Practice takes a position of a game not yet over, 9 characters row by row, like X...O....")
    return text


def empty_cells(text: str) -> list[int]:
    return [n for n, c in enumerate(text) if c == "."]


@functools.cache
def candidates() -> tuple[str, ...]:
    """Positions worth a guess: not over, with three to seven empty cells."""
    return tuple(sorted(p for p in reachable(EMPTY_BOARD) if not over(p) and 3 <= p.count(".") <= 7))
