"""The path through /learn/: six steps in the lecture's order, each a short page with one
exercise and Next. The steps a student has done are kept in the session; only Next (a POST)
or Start again (a POST) changes them, and every page shows them. No JavaScript needed."""

from __future__ import annotations

import math
from typing import NamedTuple

from flask import Blueprint, abort, redirect, render_template, request, session

from ..core import trace as core_trace
from ..core.costs import moves, reachable, tree_size
from ..core.pasted import BoardError, parse
from ..core.position import EMPTY_BOARD, over, to_move
from ..core.subtrees import steps_with_empty_cells
from ..web.urls import url_for
from . import words

bp = Blueprint("path", __name__)
KEY = "learn"  # the session's list of the steps done
TREE_EXERCISE = "..XOOXOX."  # step 1's position: three empty cells, a game that may end early
TREE_EMPTY_CELLS = (2, 3, 4)  # step 1 takes a position of these sizes, small enough to draw by hand
TREE_SIZES = f"{min(TREE_EMPTY_CELLS)} to {max(TREE_EMPTY_CELLS)}"


def every_order(empty: int) -> int:
    """The nodes of a tree that plays every order of filling `empty` cells, no game ending early."""
    return sum(math.perm(empty, depth) for depth in range(empty + 1))


LARGEST_TREE = every_order(max(TREE_EMPTY_CELLS))  # the largest tree step 1 takes
TAKES = (
    f"Step 1's exercise is a tree you draw by hand, so it takes a game not yet over with {TREE_SIZES} empty "
    f"cells, like its own, {TREE_EXERCISE} ({TREE_EXERCISE.count('.')} empty cells): a tree of at most "
    f"{LARGEST_TREE} positions."
)


class Step(NamedTuple):
    number: int
    slug: str
    title: str
    summary: str


STEPS = (
    Step(1, "tree", "The game tree", "Positions, actions and results, down to the finished games."),
    Step(2, "values", "Backing up values", "Values from the leaves up: MAX takes the largest, MIN the smallest."),
    Step(3, "traced", "MAX-VALUE and MIN-VALUE, traced", "The lecture's pseudocode, one line at a time."),
    Step(4, "code", "Your tictactoe.py", "The seven functions, checked on every reachable position by the grader."),
    Step(5, "alphabeta", "Alpha-beta pruning", "α and β, and the branches that need no search."),
    Step(6, "limited", "Depth limits and evaluation", "Stop early, estimate, and see when the estimate misleads."),
)


def done() -> list[int]:
    """The numbers of the steps this session has done, in order; [] when none (or the session
    holds something else under the key)."""
    kept = session.get(KEY)
    if not isinstance(kept, list):
        return []
    return sorted({n for n in kept if type(n) is int and 1 <= n <= len(STEPS)})


def next_step(finished: list[int]) -> Step | None:
    """The first step not done yet; None when all are."""
    return next((s for s in STEPS if s.number not in finished), None)


def progress() -> dict:
    """What every page of the path shows: the steps, those done, and the next one."""
    finished = done()
    return {"steps": STEPS, "done": finished, "next_step": next_step(finished)}


def checked_step(number: int) -> Step:
    if not 1 <= number <= len(STEPS):
        abort(404, f"The path has steps 1 to {len(STEPS)}.")
    return STEPS[number - 1]


@bp.get("/step/<int:number>")
def step(number: int):
    return step_page(checked_step(number))


def step_page(shown: Step, status: int = 200, **more):
    """A step's page. Step 1's exercise is graded here, from its answers in the address."""
    extra = FACTS[shown.slug]() if shown.slug in FACTS else {}
    status = extra.pop("status", status)
    page = render_template(
        "learn/step.html", step=shown, short_game=core_trace.SHORT_GAME, w=words, **progress(), **extra, **more
    )
    return page, status


def traced_facts() -> dict:
    """Step 3's figures: the steps of the traces it offers, and of boards of a few sizes."""
    return {
        "sizes": {n: steps_with_empty_cells(n) for n in (4, 5)},
        "first_steps": core_trace.total(core_trace.SHORT_GAME, False)[0],
        "empty_steps": core_trace.total(EMPTY_BOARD, False)[0],
    }


def alphabeta_facts() -> dict:
    """Step 5's figures: the calls from the empty board, with and without pruning."""
    return {"calls_plain": tree_size(EMPTY_BOARD), "calls_alphabeta": core_trace.total(EMPTY_BOARD, True)[1]}


FACTS = {
    "tree": lambda: {**tree_exercise(), "empty_tree": tree_size(EMPTY_BOARD)},
    "traced": traced_facts,
    "alphabeta": alphabeta_facts,
}


@bp.post("/step/<int:number>")
def step_done(number: int):
    """Next: the step counts as done, and the next one opens (the path's page after the last)."""
    shown = checked_step(number)
    finished = done()
    if shown.number not in finished:
        session[KEY] = sorted({*finished, shown.number})
    if shown.number == len(STEPS):
        return redirect(url_for("learn.index") + "#path", 303)
    return redirect(url_for("learn.path.step", number=shown.number + 1), 303)


@bp.post("/restart")
def restart():
    """Start again: the steps done are forgotten."""
    if KEY in session:
        session.pop(KEY)
    return redirect(url_for("learn.index") + "#path", 303)


class TreeAnswer(NamedTuple):
    """One answer of step 1's exercise: as typed, read as a number (None if it is not one),
    the truth, and what is wrong with it said without the truth."""

    name: str  # the form's field
    given: str  # as typed
    read: int | None
    truth: int
    hint: str  # why a wrong answer is wrong, never the right number; "" when right
    slips: tuple[str, ...] = ()  # the names of the slips that err this wrong count's way, each said in the hint

    @property
    def right(self) -> bool:
        return self.read == self.truth


def tree_exercise() -> dict:
    """Step 1's exercise: a small position, how many positions its game tree holds and how many
    of them are finished games; graded when the answers come in the address (`check`). A wrong
    answer is told what is wrong with it, not the right number, until `show` asks for it. A
    position of the student's own (`position`) that step 1 does not take leaves the default
    exercise in place, with what is wrong said beside the box (status 400)."""
    typed = request.args.get("position", "").strip()
    position, refused = exercise_position(typed)
    answers = None
    if "check" in request.args and not refused:
        counts = tree_counts(position)
        answers = [graded(counts, name, request.args.get(name, "")[:9]) for name in ("positions", "leaves")]
    shown = answers is not None and "show" in request.args
    return {
        "swapped": answers is not None and swapped(*answers),
        "position": position,
        "mover": to_move(position),
        "answers": answers,
        "show_answers": shown,
        "default_position": TREE_EXERCISE,
        "tree_sizes": TREE_SIZES,
        "typed": typed,
        "refused": refused,
        "status": 400 if refused else 200,
    }


def swapped(positions: TreeAnswer, leaves: TreeAnswer) -> bool:
    """Two wrong counts, fewer positions than finished games: never right, as every finished
    game is a position. (A count that is right, or no count, is not a swap.)"""
    nodes, ends = positions.read, leaves.read
    counts = nodes is not None and ends is not None and 0 <= nodes < ends
    return counts and not (positions.right or leaves.right)


def exercise_position(typed: str) -> tuple[str, str | None]:
    """Step 1's position and None, from what the box or the address holds (nothing typed is the
    default); or the default and, when the box holds a position step 1 does not take, what is
    wrong with it: how many empty cells it has, how many step 1 takes, and why."""
    if not typed:
        return TREE_EXERCISE, None
    try:
        position = parse(typed)
    except BoardError as error:
        return TREE_EXERCISE, f"{error} {TAKES}"
    if over(position):
        return TREE_EXERCISE, f"In {position}, {words.won(position)}: its tree is that one position. {TAKES}"
    empty = position.count(".")
    if empty in TREE_EMPTY_CELLS:
        return position, None
    cells = f"{empty} empty cell{'' if empty == 1 else 's'}"
    why = "too many to draw by hand" if empty > max(TREE_EMPTY_CELLS) else "too few to make an exercise"
    return (
        TREE_EXERCISE,
        f"{position} has {cells}, and its game tree holds {tree_size(position):,} positions: {why}. {TAKES}",
    )


def graded(counts: TreeCounts, name: str, given: str) -> TreeAnswer:
    """An answer to step 1's exercise, `positions` (the tree's nodes) or `leaves` (its finished
    games), against the counts of the exercise's tree."""
    truth = counts.nodes if name == "positions" else counts.leaves
    read = words.whole_number(given)
    if read is None or read < 0:
        return TreeAnswer(name, given, read, truth, words.not_a_count(given, read))
    if read == truth:
        return TreeAnswer(name, given, read, truth, "")
    high = read > truth  # the slips named are those that err the same way on this tree
    slips = tuple(slip for slip, n in slip_counts(name, counts).items() if n != truth and (n > truth) == high)
    return TreeAnswer(name, given, read, truth, tree_hint(read, truth, [SLIPS[name][slip] for slip in slips]), slips)


class TreeCounts(NamedTuple):
    nodes: int  # the positions of the tree, a board counted once for each way play reaches it
    leaves: int  # its finished games, counted so too
    boards: int  # the different boards in it, each counted once
    ended_boards: int  # the different finished boards in it
    full: int  # the leaves whose board is full: the games that last to the last cell
    played_on: int  # the nodes if play went on after three in a row, to a full board
    played_on_leaves: int  # the leaves so: every order of filling the empty cells


def tree_counts(position: str) -> TreeCounts:
    boards, ends = reachable(position), leaf_list(position)
    full = sum(1 for leaf in ends if "." not in leaf)
    ended = sum(1 for b in boards if over(b))
    empty = position.count(".")
    played_on, played_on_leaves = every_order(empty), math.factorial(empty)
    return TreeCounts(tree_size(position), len(ends), len(boards), ended, full, played_on, played_on_leaves)


# The likely slips in counting a tree by hand, by the answer they touch. A hint names those that
# err in the typed count's direction on this tree (`slip_counts`), never which one gives the count.
SLIPS = {
    "positions": {
        "left-out": "a position left out (the root, where you start, or the last position of a branch)",
        "boards": "a board reached two ways counted once (it is two positions, one for each way play reaches it)",
        "played-on": "play counted on after a game is over (three in a row ends it: that position is a leaf)",
        "twice": "a position counted twice",
    },
    "leaves": {
        "left-out": "a finished game left out",
        "boards": (
            "a finished board reached two ways counted once "
            "(it is two finished games, one for each way play reaches it)"
        ),
        "full": "only the games that fill the board counted (three in a row also ends a game)",
        "played-on": "play counted on after three in a row (the game ends there: it is one finished game)",
        "twice": "a finished game counted twice",
    },
}


def slip_counts(name: str, counts: TreeCounts) -> dict[str, int]:
    """The count each slip of SLIPS[name] gives on this tree."""
    if name == "positions":
        return {
            "left-out": counts.nodes - 1,
            "boards": counts.boards,
            "played-on": counts.played_on,
            "twice": counts.nodes + 1,
        }
    return {
        "left-out": counts.leaves - 1,
        "boards": counts.ended_boards,
        "full": counts.full,
        "played-on": counts.played_on_leaves,
        "twice": counts.leaves + 1,
    }


def tree_hint(read: int, truth: int, ways: list[str]) -> str:
    """What is wrong with a wrong count, said without the right one: too many or too few, and
    the slips that err that way on this tree, the same whatever the count typed on that side."""
    too = "many" if read > truth else "few"
    slips = "; or ".join(ways)
    return f"{words.number(read)} is too {too}. Slips that count too {too}: {slips}."


def leaf_list(position: str) -> list[str]:
    """The finished games below `position`, one for each way play reaches them."""
    return [position] if over(position) else [leaf for _, child in moves(position) for leaf in leaf_list(child)]
