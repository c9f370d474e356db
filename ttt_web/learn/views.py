"""For students: the page that leads from minimax's values to the assignment's code, the
lecture's pseudocode traced line by line for any position, depth-limited minimax beside the
exact values, and exercises in backing up values and in alpha-beta pruning. The same for
every visitor: no session, and cacheable."""

from __future__ import annotations

from flask import Blueprint, Response, abort, redirect, render_template, request

from ..core import limited as core_limited
from ..core import trace as core_trace
from ..core.pasted import BoardError, parse, unreachable
from ..core.position import EMPTY_BOARD, over
from ..core.pseudocode import code
from ..web import cpu_budget
from ..web.caching import public
from ..web.errors import lost_page
from ..web.urls import url_for
from . import path, practice, words

bp = Blueprint("learn", __name__, url_prefix="/learn")
cpu_budget.counts(bp)  # the CPU its pages (and its drills') cost strangers, bounded per process
POSITION_HELP = "A position is 9 characters read row by row: X, O or a dot for an empty cell, like X...O...."
DEFAULT_LIMITED = "......O.X"  # X wins with best play, and shallow estimates miss it (depth 1 and 2)
FINISHED = "That game is over: depth-limited search needs a game still going, since a finished game is its utility."
FIRST_TRACE = core_trace.SHORT_GAME
bp.register_blueprint(practice.bp)
bp.register_blueprint(path.bp)


@bp.context_processor
def path_steps() -> dict[str, object]:
    """The path's steps, for the exercise pages' way back to their step."""
    return {"path_steps": path.STEPS}


@bp.get("/")
def index():
    """The path's six steps, those this session has done ticked: a page per visitor, not cached."""
    return render_template("learn/index.html", first=FIRST_TRACE, **path.progress())


@bp.get("/trace/")
def trace_pasted():
    """The index's form: a board in any form a student pastes, traced with or without pruning."""
    pasted = request.args.get("board", "")
    try:
        position = parse(pasted)
    except BoardError as error:
        traced = path.STEPS[2]  # the step whose page holds this form
        return path.step_page(traced, 400, pasted=pasted, paste_error=str(error), pruning=request.args.get("pruning"))
    endpoint = "learn.alphabeta" if request.args.get("pruning") else "learn.trace"
    return redirect(url_for(endpoint, text=position), 303)


@bp.get("/trace/<text>")
def trace(text: str):
    return traced(checked(text), pruning=False)


@bp.get("/alphabeta/<text>")
def alphabeta(text: str):
    return traced(checked(text), pruning=True)


def traced(text: str, pruning: bool):
    endpoint = "learn.alphabeta" if pruning else "learn.trace"
    steps, calls = core_trace.total(text, pruning)
    if "call" in request.args:
        call = trace_number(request.args["call"], text, endpoint, steps, "call", calls)
        if not 1 <= call <= calls:
            abort(past_end(text, endpoint, steps, "call", call, calls))
        number = core_trace.step_of_call(text, call, pruning)
        return redirect(url_for(endpoint, text=text, step=str(number)), 303)
    number = trace_number(request.args.get("step", "1"), text, endpoint, steps, "step", steps)
    if not 1 <= number <= steps:
        abort(past_end(text, endpoint, steps, "step", number, steps))
    step = core_trace.step(text, number, pruning)
    lines = code(step.top.function, words.role(step.top) == "MAX", pruning)
    first = step.frames[0]
    root_lines = code(first.function, words.role(first) == "MAX", pruning) if len(step.frames) > 1 else ()
    page = render_template(
        "learn/trace.html",
        root=text,
        step=step,
        steps=steps,
        calls=calls,
        pruning=pruning,
        endpoint=endpoint,
        lines=lines,
        root_lines=root_lines,
        says=words.says(step),
        w=words,
    )
    return public(Response(page))


@bp.get("/limited/<text>")
def limited(text: str):
    text = checked(text)
    depth = whole(request.args.get("depth", "2"))
    evaluation = request.args.get("evaluation", "open-lines")
    if depth not in core_limited.DEPTHS or evaluation not in core_limited.EVALUATIONS:
        abort(400, "Choose a depth limit from 1 to 9 and one of the evaluations offered.")
    if over(text):
        return limited_form(text, FINISHED, depth, evaluation)
    found = core_limited.compare(text, depth, evaluation)
    live, wrong = core_limited.mistakes(depth, evaluation)
    page = render_template(
        "learn/limited.html",
        found=found,
        depths=core_limited.DEPTHS,
        evaluations=core_limited.EVALUATIONS.values(),
        win=core_limited.WIN,
        live=live,
        wrong=wrong,
        w=words,
    )
    return public(Response(page))


@bp.get("/limited/")
def limited_start():
    """The first visit, or the form with a board typed or pasted in any form `parse` reads;
    a board it cannot search comes back in the form, with what is wrong beside it."""
    if "board" not in request.args:
        return redirect(url_for("learn.limited", text=DEFAULT_LIMITED), 303)
    depth, evaluation = request.args.get("depth", "2"), request.args.get("evaluation", "open-lines")
    try:
        position = parse(request.args["board"])
    except BoardError as error:
        return limited_form(request.args["board"], str(error), depth, evaluation)
    if over(position):
        return limited_form(request.args["board"], FINISHED, depth, evaluation)
    chosen = {key: request.args[key] for key in ("depth", "evaluation") if key in request.args}
    return redirect(url_for("learn.limited", text=position, **chosen), 303)


def limited_form(board: str, problem: str, depth: int | str, evaluation: str) -> Response:
    """The depth-limited form alone, with the student's board, depth and evaluation kept and
    what is wrong with the board beside it."""
    page = render_template(
        "learn/limited.html",
        found=None,
        board=board,
        problem=problem,
        depth=int(depth) if str(depth).isdigit() else depth,
        evaluation=evaluation,
        depths=core_limited.DEPTHS,
        evaluations=core_limited.EVALUATIONS.values(),
        w=words,
    )
    return Response(page, status=400)


def warm() -> None:
    """Count the empty board's traces (calls and steps below every position, kept for all),
    the practice positions and every depth-limited search's values and mistakes (a fixed
    set: some 0.5 s of CPU at start, else 0.3-0.5 s on the event loop for each of the 27
    first pages), before the first visitor asks."""
    core_limited.every_mistake()
    core_trace.total(EMPTY_BOARD, pruning=False)
    core_trace.total(EMPTY_BOARD, pruning=True)
    path.traced_facts()  # step 3's sizes of a trace, over every board with 4 and 5 empty cells
    practice.drill.small_positions()


def checked(text: str) -> str:
    """`text` if it is a position some game reaches; else the page that says why, with the
    forms that read a board as the student has it."""
    forms = [
        ("Trace a board of yours (step 3's form)", url_for("learn.path.step", number=3) + "#trace-board"),
        ("Depth-limited search on a board of yours", url_for("learn.limited_start")),
        ("For students: the path", url_for("learn.index")),
    ]
    if len(text) != 9 or set(text) - set("XO."):
        abort(lost_page(400, "Not a position", POSITION_HELP, forms))
    if (why := unreachable(text)) is not None:
        abort(lost_page(404, "No game of tic-tac-toe reaches that position", why, forms))
    return text


def trace_number(typed: str, text: str, endpoint: str, steps: int, kind: str, last: int) -> int:
    """A step or call (`kind`) of a trace as the address gives it; if it is no whole number, the
    page that says so, with the same links as for one past the end."""
    if not typed.isdigit() or len(typed) > 9:
        said = f"“{typed[:20]}” is not a {kind} of this trace: its {kind}s are whole numbers, 1 to {last:,}."
        abort(lost_page(400, f"Not a {kind} number", said, trace_links(text, endpoint, steps)))
    return int(typed)


def past_end(text: str, endpoint: str, steps: int, kind: str, asked: int, last: int) -> Response:
    """The page for a step or call (`kind`) outside a trace: its last step, its first, the path."""
    said = f"There is no {kind} {asked:,} in this trace: it has {kind}s 1 to {last:,}."
    return lost_page(404, f"No such {kind} in this trace", said, trace_links(text, endpoint, steps))


def trace_links(text: str, endpoint: str, steps: int) -> list[tuple[str, str]]:
    """What helps from an address outside a trace: its last step, its first, the path."""
    return [
        (f"The last step, {steps:,}", url_for(endpoint, text=text, step=steps)),
        ("The first step", url_for(endpoint, text=text, step=1)),
        ("For students: the path", url_for("learn.index")),
    ]


def whole(text: str) -> int:
    if not text.isdigit() or len(text) > 9:
        abort(400, "Steps, calls and depths are whole numbers, like 12.")
    return int(text)
