"""Inside the AI's head: any position at a stable URL (/explore/X.O.X....), in the
assignment's own terms. X is MAX and O is MIN; every move has its minimax value as
`utility` gives it (1, 0, -1); the tree below the position is drawn two levels deep; small
positions show the tree alpha-beta searches and a step-by-step trace of plain minimax.
The pages are the same for every visitor: no session, and cacheable."""

from __future__ import annotations

import math
from typing import NamedTuple

from flask import Blueprint, Flask, Response, abort, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from ..core import answer as answers
from ..core import search
from ..core import tictactoe as ttt
from ..core import trace as core_trace
from ..core.bugs import BUGS, Bug, first_worse, game, slower_wins, telling_position
from ..core.costs import moves, reachable
from ..core.game import Game
from ..core.judging import Judgement, judge
from ..core.pasted import BoardError, parse, unreachable
from ..core.position import EMPTY_BOARD, action_name, board, cell_name, cell_of, format_moves, over, to_move, winner_of
from ..core.words import outlook, result_text
from ..web import cpu_budget
from ..web.board_view import position_view
from ..web.caching import public
from ..web.errors import lost_page
from ..web.urls import url_for
from . import pages
from .model import MINUS, SIGNED, explained

bp = Blueprint("explore", __name__, url_prefix="/explore")
cpu_budget.counts(bp)  # the CPU its pages cost strangers, bounded per process


@bp.get("/")
def start():
    return position(EMPTY_BOARD)


class BugShown(NamedTuple):
    """A bug as its page shows it: the first position where it plays a worse move, that move
    judged, and its games against the real engine (moves and result) by the side it plays."""

    bug: Bug
    position: str
    judged: Judgement
    games: dict[str, str]
    results: dict[str, str]


@bp.get("/bugs")
def bugs_shown():
    """A real minimax bug and two kinds of legal but weaker play: each one's line of code,
    what it gets wrong, the first position where it may play a move the engine would not,
    and its games against the real engine."""
    shown = []
    for bug in BUGS:
        text, action = telling_position(bug.slug)
        judged = judge(board(text), action)
        played = {side: game(bug, side) for side in (ttt.X, ttt.O)}
        games = {side: format_moves(cells) for side, cells in played.items()}
        results = {side: result_text(Game.of_moves(cells)) for side, cells in played.items()}
        shown.append(BugShown(bug, text, judged, games, results))
    response = Response(
        render_template(
            "explore/bugs.html",
            shown=shown,
            slower=slower_wins(),
            no_depth_first=first_worse("no-depth")[0],
            outlook=outlook,
            cell=action_name,
        )
    )
    return public(response)


@bp.get("/paste")
def paste():
    """A board as the student has it: its explorer page, or the form again with the reason
    it cannot be read or reached, the text kept."""
    pasted = request.args.get("board", "")
    try:
        found = parse(pasted)
    except BoardError as error:
        page = render_template("explore/paste.html", pasted=pasted, paste_error=str(error) if pasted else "")
        return public(Response(page, status=400 if pasted else 200))
    return redirect(here(found), code=303)


@bp.get("/<text>")
def position(text: str):
    checked(text)
    student = students_answer(text)
    if student is None:
        return public(Response(pages.kept((text, from_game()), lambda: position_page(text, None))))
    return public(Response(position_page(text, student)))


def position_page(text: str, student: answers.Answer | None) -> str:
    """The position's page; with a student's answer marked, without the trees below it (on
    the page without the answer), which would make each such page cost what a first one does."""
    links = {n: here(child) for n, child in moves(text)}
    view = position_view(text, teach_on=True, links=links)
    if student and student.action in {(c.row, c.col) for row in view.rows for c in row}:
        marked = view.rows[student.action[0]][student.action[1]]
        changes = {"classes": marked.classes + " student", "label": marked.label + "; your minimax's answer"}
        view = view.with_cell(cell_of(student.action), **changes)
    return render_template("explore/position.html", page=explained(text), **helpers(), view=view, answer=student)


def students_answer(text: str) -> answers.Answer | None:
    """The answer `?student=i,j` (or `none`) gives, judged on `text`; 400 if it is not written so."""
    if "student" not in request.args:
        return None
    try:
        return answers.check(text, answers.read(request.args["student"]))
    except answers.AnswerError as error:
        abort(400, str(error))


@bp.get("/<text>/trace/<int:step>")
def trace(text: str, step: int):
    """Plain minimax's recursion from a small position, one call beginning or returning per page."""
    checked(text)
    if text.count(".") > search.TRACE_EMPTY_CELLS:
        abort(404, f"The step-by-step trace is for positions with at most {search.TRACE_EMPTY_CELLS} empty cells.")
    steps = search.trace(text)
    if not 1 <= step <= len(steps):
        abort(past_end(text, step, len(steps)))
    shown = steps[step - 1]
    frames = [(frame, played(above, frame)) for above, frame in zip((None, *shown.stack), shown.stack, strict=False)]
    page = render_template(
        "explore/trace.html",
        root=text,
        count=len(steps),
        n=step,
        step=shown,
        frames=frames,
        says=narrated(shown, len(shown.stack) - 1),
        **helpers(),
    )
    return public(Response(page))


def past_end(text: str, step: int, steps: int) -> Response:
    """The page for a step past the trace's end: its last step, its first, the position, the path."""
    links = [
        (f"The last step, {steps:,}", here(text, steps)),
        ("The first step", here(text, 1)),
        ("This position in the explorer", here(text)),
        ("For students: the path", url_for("learn.index")),
    ]
    said = f"There is no step {step:,} in this trace: it has steps 1 to {steps:,}."
    heading = "No such step in this trace"
    return lost_page(404, heading, said, links)


def checked(text: str) -> None:
    """Nothing for a reachable position; else the page that says why it is not one, or the
    way to its address in capitals (`x...o....` for `X...O....`)."""
    if len(text) == 9 and not set(text) - set("XOxo.") and text != text.upper():
        abort(in_capitals(text.upper()))
    if len(text) != 9 or set(text) - set("XO."):
        abort(400, "A position is 9 characters read row by row: X, O or a dot for an empty cell, like X...O....")
    if text not in reachable(EMPTY_BOARD):
        abort(404, f"No game of tic-tac-toe reaches that position. {unreachable(text)}")


def in_capitals(text: str) -> BaseResponse:
    """A permanent redirect to this request's address with the position `text` as written
    in capitals, its query kept."""
    assert request.endpoint is not None and request.view_args is not None  # a view's request
    path = url_for(request.endpoint, **{**request.view_args, "text": text})
    query = request.query_string.decode("latin-1")
    return public(redirect(f"{path}?{query}" if query else path, code=301))


def here(text: str, step: int | None = None) -> str:
    """The explorer's address for `text` (or for a step of its trace), keeping the way back
    to the visitor's game."""
    back = {"back": "game"} if from_game() else {}
    if step is None:
        return url_for("explore.position", text=text, **back)
    return url_for("explore.trace", text=text, step=step, **back)


def from_game() -> bool:
    return request.args.get("back") == "game"


def helpers() -> dict:
    """What the explorer's templates call, given to each render (even the one at start-up,
    whose request matches no blueprint when TRUSTED_HOSTS leaves out its host)."""
    return {
        "here": here,
        "from_game": from_game,
        "signed": SIGNED,
        "cell_name": cell_name,
        "role_of": search.role,
        "shown": shown,
        "cell": action_name,
        "outlook": outlook,
        "short_game": core_trace.SHORT_GAME,
        "trace_steps": lambda text: core_trace.total(text, pruning=False)[0],
    }


def shown(value: float) -> str:
    """A value or an alpha-beta bound as the page prints it, infinities included."""
    return "∞" if value == math.inf else f"{MINUS}∞" if value == -math.inf else SIGNED[int(value)]


def warm(app: Flask) -> None:
    """Work out and render the empty board's page (the explorer's first) before the first
    visitor asks for it."""
    with app.test_request_context("/explore/"):
        start()
    slower_wins()  # the bugs page's figures, worked out over every won position


def narrated(step: search.Step, depth: int) -> str:
    """What happens at `step` of a trace, and why, in the assignment's terms: max_value and
    min_value return a value, minimax an action."""
    position = step.position
    where = "the position traced" if depth == 0 else f"the position after {last_move(step)}"
    function = "max_value" if to_move(position) == "X" else "min_value"
    called = f"{function}(board) is called on {where} (depth {depth})."
    if over(position):
        won = search.value(position)
        why = "the board is full with no line" if won == 0 else f"{winner_of(won)} has three in a row"
        return f"{called} The game is over: {why}, so it returns utility(board) = {SIGNED[won]} at once."
    role, mover = search.role(position), to_move(position)
    if step.returns is None:
        return f"{called} {mover} is to move, so this is a {role} node: {plan(position, role)}."
    values = ", ".join(SIGNED[v] for _, v in step.values)
    top = "nobody: it is the position's value, and minimax(board) returns an action that gets it"
    caller = "the call one level up" if depth else top
    return f"Every action is tried. {function} returns {role.lower()}({values}) = {SIGNED[step.returns]} to {caller}."


def plan(position: str, role: str) -> str:
    """What a call about to try its actions will do with their values."""
    tried = [cell_name(n) for n, _ in moves(position)]
    if len(tried) == 1:
        return f"it has one action, {tried[0]}, and returns the value that gets"
    pick = "largest" if role == "MAX" else "smallest"
    return f"it tries the actions {', '.join(tried)} in row order and returns the {pick} value they get"


def last_move(step: search.Step) -> str:
    cell = moved(step.stack[-2], step.position)
    return f"{step.position[cell]} at {cell_name(cell)}"


def played(before: str | None, after: str) -> int | None:
    """The cell where `after` differs from `before`: the move between them."""
    return None if before is None else moved(before, after)


def moved(before: str, after: str) -> int:
    return next(n for n in range(9) if before[n] != after[n])
