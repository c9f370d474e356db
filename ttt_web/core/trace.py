"""The lecture's minimax, one line of pseudocode at a time, for any position: step k of the
trace is found on demand, with no trace stored. Standard library and the engine only.

The root call is the assignment's Python `minimax(board)`, which returns an action (i, j);
below it run MAX-VALUE and MIN-VALUE as the lecture writes them, with α and β when pruning
is on. Every call's steps, in order (the test helpers hold an independent copy of this):

- line 2, the terminal test; a finished game then returns at line 3 (`None` at the root);
- line 4, v (the best so far) starts at −∞ for MAX, ∞ for MIN;
- per action: line 6 calling the child; the child's own steps; line 6 again, when v takes
  what the child returned (at the root, line 7, or line 8 when the action is better);
  with pruning, then line 7 when v ≥ β (MAX) or v ≤ α (MIN) cuts the rest off, which is
  also the call's return, or else line 8, where α (MAX) or β (MIN) takes v;
- the return of v (line 7, or 9 with pruning), or at the root of best_action (line 9).

Subtree sizes (steps and calls) are memoised per position (and window), so step k is
reached by skipping whole subtrees: O(depth × branching) per request, whatever k is.
"""

from __future__ import annotations

import functools
import math
from typing import NamedTuple

from . import search
from .costs import alphabeta, moves, over, tree_size, utility

INF = math.inf
ROOT, MAX, MIN = "minimax", "MAX-VALUE", "MIN-VALUE"


def code(function: str, maximizing: bool, pruning: bool) -> tuple[str, ...]:
    """The lines of one function, line 1 first: the lecture's pseudocode, or at the root the
    Python the assignment asks for."""
    if function == ROOT:
        other, start, better = ("min_value", "-math.inf", ">") if maximizing else ("max_value", "math.inf", "<")
        window = ("best, math.inf" if maximizing else "-math.inf, best") if pruning else ""
        call = f"{other}(result(board, action){', ' + window if window else ''})"
        side = "X is MAX" if maximizing else "O is MIN"
        return (
            "def minimax(board):",
            "    if terminal(board):",
            "        return None",
            f"    best_action, best = None, {start}  # {side}",
            "    for action in actions(board):",
            f"        v = {call}",
            f"        if v {better} best:",
            "            best_action, best = action, v",
            "    return best_action",
        )
    name, other, start, pick = (MAX, MIN, "−∞", "MAX") if maximizing else (MIN, MAX, "∞", "MIN")
    args = ", α, β" if pruning else ""
    lines = [
        f"function {name}(state{args}):",
        "    if TERMINAL(state):",
        "        return UTILITY(state)",
        f"    v = {start}",
        "    for each action in ACTIONS(state):",
        f"        v = {pick}(v, {other}(RESULT(state, action){args}))",
    ]
    if not pruning:
        return (*lines, "    return v")
    cut, keep = ("v ≥ β", "α = MAX(α, v)") if maximizing else ("v ≤ α", "β = MIN(β, v)")
    return (*lines, f"        if {cut}: return v", f"        {keep}", "    return v")


finished = functools.cache(over)


def to_move(position: str) -> str:
    """X or O: a plain count, as the walk asks this at every level of every step."""
    return "O" if position.count("X") > position.count("O") else "X"


class Frame(NamedTuple):
    """A call under way: where it is, and what it holds at the step shown."""

    function: str  # ROOT, MAX or MIN
    position: str
    depth: int
    action: tuple[int, int] | None  # the action that led here; None at the root
    call: int  # the call's number, in the order calls begin (the root is 1)
    line: int
    v: float | None  # the best so far; None before line 4
    alpha: float
    beta: float
    best_action: tuple[int, int] | None = None  # at the root only
    last: int = 0  # the number of the step where this call returns


class Step(NamedTuple):
    number: int  # from 1
    event: str  # test, return, init, call, back, cut, keep
    frames: tuple[Frame, ...]  # the stack, the root first; the last is the current call
    returned: float | None = None  # what the child returned (back), or this call returns (return, cut)
    action: tuple[int, int] | None = None  # the action being called (call) or that returned (back)
    pruned: tuple[tuple[int, int], ...] = ()  # the actions never searched (cut)
    below: int = 0  # the steps of the call about to be made (call)

    @property
    def top(self) -> Frame:
        return self.frames[-1]


@functools.cache
def kids(
    position: str, window: tuple[float, float], pruning: bool
) -> tuple[tuple[tuple[int, int], str, tuple, int], ...]:
    """(action, child, child's window, what the child returns) for each action searched."""
    if not pruning:
        return tuple((divmod(n, 3), child, (-INF, INF), search.value(child)) for n, child in moves(position))
    searched = alphabeta(position, *window)
    return tuple((divmod(n, 3), c.position, (c.alpha, c.beta), c.returned) for n, c in searched.children)


def pruned_actions(position: str, window: tuple[float, float]) -> tuple[tuple[int, int], ...]:
    return tuple(divmod(n, 3) for n, _ in alphabeta(position, *window).pruned)


@functools.cache
def size(position: str, window: tuple[float, float], pruning: bool, root: bool = False) -> tuple[int, int]:
    """(steps, calls) of the call on `position` and everything below it."""
    if finished(position):
        return 2, 1
    per = 2 if root or not pruning else 3
    below = [size(child, w, pruning) for _, child, w, _ in kids(position, window, pruning)]
    cut = pruning and not root and cuts(position, window)
    return 2 + sum(per + s for s, _ in below) + (0 if cut else 1), 1 + sum(c for _, c in below)


def cuts(position: str, window: tuple[float, float]) -> bool:
    """Whether alpha-beta's call on `position` stops early (v reached β for MAX, α for MIN)."""
    returned = alphabeta(position, *window).returned
    return returned >= window[1] if to_move(position) == "X" else returned <= window[0]


def total(root: str, pruning: bool) -> tuple[int, int]:
    """(steps, calls) of the whole trace from `root`."""
    return size(root, (-INF, INF), pruning, True)


def calls_plain(root: str) -> int:
    return tree_size(root)


def step(root: str, number: int, pruning: bool) -> Step:
    """Step `number` (from 1) of the trace from `root`; ValueError when there is none."""
    steps, _ = total(root, pruning)
    if not 1 <= number <= steps:
        raise ValueError(f"This trace has steps 1 to {steps}.")
    return _Walk(root, pruning).to(number)


def step_of_call(root: str, call: int, pruning: bool) -> int:
    """The number of the step where call `call` (from 1) begins; ValueError when there is none."""
    _, calls = total(root, pruning)
    if not 1 <= call <= calls:
        raise ValueError(f"This trace has calls 1 to {calls}.")
    position, window, first, number, is_root = root, (-INF, INF), 1, 1, True
    while first != call:
        offset, first = 2, first + 1
        for _, child, w, _ in kids(position, window, pruning):
            steps, calls_below = size(child, w, pruning)
            if call < first + calls_below:
                number += offset + 1
                position, window, is_root = child, w, False
                break
            offset += (2 if is_root or not pruning else 3) + steps
            first += calls_below
    return number


class _Walk:
    """Down from the root to one step, skipping every subtree that lies wholly before it."""

    def __init__(self, root: str, pruning: bool) -> None:
        self.root, self.pruning, self.frames, self.last = root, pruning, [], 0

    def frame(self, position, action, call, line, v, window, best=None) -> Frame:
        function = ROOT if not self.frames else MAX if to_move(position) == "X" else MIN
        return Frame(function, position, len(self.frames), action, call, line, v, *window, best, self.last)

    def to(self, number: int) -> Step:
        k, position, action, call, window = number - 1, self.root, None, 1, (-INF, INF)
        while True:
            self.last = number - k + size(position, window, self.pruning, not self.frames)[0] - 1
            found = self.inside(k, position, action, call, window)
            if isinstance(found, Step):
                return Step(number, found.event, found.frames, found.returned, found.action, found.pruned, found.below)
            k, position, action, call, window = found

    def here(self, event, frame, **more) -> Step:
        return Step(0, event, (*self.frames, frame), **more)

    def inside(self, k, position, action, call, window):
        """The step at offset `k` of this call, or where to go down: (k, child, action, call, window)."""
        root = not self.frames
        if finished(position):
            returned = None if root or k == 0 else utility(position)
            frame = self.frame(position, action, call, 2 + k, None, window)
            return self.here("test" if k == 0 else "return", frame, returned=returned)
        maximizing = to_move(position) == "X"
        v, best, alpha, beta = (-INF if maximizing else INF), None, *window
        if k < 2:
            return self.here(
                "test" if k == 0 else "init", self.frame(position, action, call, 2 + 2 * k, v if k else None, window)
            )
        k, below = k - 2, call + 1
        for act, child, w, returned in kids(position, window, self.pruning):
            steps, calls = size(child, w, self.pruning)
            if k == 0:
                frame = self.frame(position, action, call, 6, v, (alpha, beta), best)
                return self.here("call", frame, action=act, below=steps)
            if k <= steps:
                self.frames.append(self.frame(position, action, call, 6, v, (alpha, beta), best))
                return k - 1, child, act, below, w
            k, below = k - 1 - steps, below + calls
            better = returned > v if maximizing else returned < v
            v = max(v, returned) if maximizing else min(v, returned)
            if root:
                best = act if better else best
                line = 8 if better else 7
                alpha, beta = (
                    (v, beta) if maximizing and self.pruning else (alpha, v) if self.pruning else (alpha, beta)
                )
                if k == 0:
                    return self.here(
                        "back",
                        self.frame(position, action, call, line, v, (alpha, beta), best),
                        returned=returned,
                        action=act,
                    )
                k -= 1
                continue
            if k == 0:
                return self.here(
                    "back", self.frame(position, action, call, 6, v, (alpha, beta)), returned=returned, action=act
                )
            k -= 1
            if not self.pruning:
                continue
            if (v >= beta) if maximizing else (v <= alpha):
                frame = self.frame(position, action, call, 7, v, (alpha, beta))
                return self.here("cut", frame, returned=v, pruned=pruned_actions(position, window))
            alpha, beta = (max(alpha, v), beta) if maximizing else (alpha, min(beta, v))
            if k == 0:
                return self.here("keep", self.frame(position, action, call, 8, v, (alpha, beta)))
            k -= 1
        line = 9 if root or self.pruning else 7
        frame = self.frame(position, action, call, line, v, (alpha, beta), best)
        return self.here("return", frame, returned=best if root else v)
