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

Subtree sizes (steps and calls) are memoised per position (and window) in `subtrees`, so
step k is reached by skipping whole subtrees: O(depth × branching) per request, whatever k is.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

from .position import over, utility
from .pseudocode import MAX, MIN, ROOT
from .subtrees import bound, calls_plain, kids, pruned_actions, size, step_of_call, to_move, total
from .tictactoe import Action

__all__ = [
    "MAX",
    "MIN",
    "ROOT",
    "SHORT_GAME",
    "Frame",
    "Step",
    "calls_plain",
    "over",
    "step",
    "step_of_call",
    "to_move",
    "total",
]

INF = math.inf
SHORT_GAME = "X.O.X.O.."  # a game a few moves in, where a first trace starts: 675 steps, 302 with pruning
Down = tuple[int, str, Action | None, int, tuple[float, float]]  # where a walk goes on: k, child, action, call, window


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
    returned: float | Action | None = None  # what the child returned (back), or this call returns (return, cut)
    action: tuple[int, int] | None = None  # the action being called (call) or that returned (back)
    pruned: tuple[tuple[int, int], ...] = ()  # the actions never searched (cut)
    below: int = 0  # the steps of the call about to be made (call)
    bound: str = "="  # "=" when `returned` is exact, "≤" or "≥" when alpha-beta proved only a bound

    @property
    def top(self) -> Frame:
        return self.frames[-1]

    @property
    def value(self) -> float | None:
        """What was returned, if a value: not the root's best_action (i, j)."""
        return None if isinstance(self.returned, tuple) else self.returned


def step(root: str, number: int, pruning: bool) -> Step:
    """Step `number` (from 1) of the trace from `root`; ValueError when there is none."""
    steps, _ = total(root, pruning)
    if not 1 <= number <= steps:
        raise ValueError(f"This trace has steps 1 to {steps}.")
    return _Walk(root, pruning).to(number)


@dataclass
class _Call:
    """A call being walked: where it is, and what it holds after the children seen so far."""

    position: str
    action: tuple[int, int] | None
    number: int
    window: tuple[float, float]
    maximizing: bool
    v: float = 0.0
    best: tuple[int, int] | None = None
    alpha: float = -INF
    beta: float = INF

    def __post_init__(self) -> None:
        self.v = -INF if self.maximizing else INF
        self.alpha, self.beta = self.window

    def take(self, returned: float) -> bool:
        """v takes what a child returned; whether it was better than v."""
        better = returned > self.v if self.maximizing else returned < self.v
        self.v = max(self.v, returned) if self.maximizing else min(self.v, returned)
        return better

    def cuts(self) -> bool:
        return self.v >= self.beta if self.maximizing else self.v <= self.alpha

    def keep(self) -> None:
        """α = MAX(α, v) for MAX, β = MIN(β, v) for MIN."""
        if self.maximizing:
            self.alpha = max(self.alpha, self.v)
        else:
            self.beta = min(self.beta, self.v)

    def keep_best(self, action: tuple[int, int], pruning: bool) -> None:
        """At the root, a better action: best_action takes it; with pruning, the window closes on it."""
        self.best = action
        if pruning and self.maximizing:
            self.alpha = self.v
        elif pruning:
            self.beta = self.v


class _Walk:
    """Down from the root to one step, skipping every subtree that lies wholly before it."""

    def __init__(self, root: str, pruning: bool) -> None:
        self.root, self.pruning, self.last = root, pruning, 0
        self.frames: list[Frame] = []

    def frame(
        self,
        position: str,
        action: Action | None,
        call: int,
        line: int,
        v: float | None,
        window: tuple[float, float],
        best: Action | None = None,
    ) -> Frame:
        function = ROOT if not self.frames else MAX if to_move(position) == "X" else MIN
        return Frame(function, position, len(self.frames), action, call, line, v, *window, best, self.last)

    def at(self, here: _Call, line: int) -> Frame:
        return self.frame(here.position, here.action, here.number, line, here.v, (here.alpha, here.beta), here.best)

    def to(self, number: int) -> Step:
        k, position, action, call, window = number - 1, self.root, None, 1, (-INF, INF)
        while True:
            self.last = number - k + size(position, window, self.pruning, not self.frames)[0] - 1
            found = self.inside(k, position, action, call, window)
            if isinstance(found, Step):
                return found._replace(number=number)
            k, position, action, call, window = found

    def here(self, event: str, frame: Frame, **more: Any) -> Step:
        return Step(0, event, (*self.frames, frame), **more)

    def inside(
        self, k: int, position: str, action: Action | None, call: int, window: tuple[float, float]
    ) -> Step | Down:
        """The step at offset `k` of this call, or where to go down: (k, child, action, call, window)."""
        if over(position):
            return self.terminal(k, position, action, call, window)
        here = _Call(position, action, call, window, to_move(position) == "X")
        if k < 2:
            return self.opening(k, here)
        k, below = k - 2, call + 1
        for act, child, w, returned in kids(position, window, self.pruning):
            steps, calls = size(child, w, self.pruning)
            if k == 0:
                return self.here("call", self.at(here, 6), action=act, below=steps)
            if k <= steps:
                self.frames.append(self.at(here, 6))
                return k - 1, child, act, below, w
            k, below = k - 1 - steps, below + calls
            found = self.after_child(k, here, act, (returned, self.bound(child, w)))
            if isinstance(found, Step):
                return found
            k = found
        return self.finish(here)

    def opening(self, k: int, here: _Call) -> Step:
        """Line 2, the terminal test (k = 0), then line 4, v's start (k = 1)."""
        if k == 0:
            return self.here("test", self.frame(here.position, here.action, here.number, 2, None, here.window))
        return self.here("init", self.frame(here.position, here.action, here.number, 4, here.v, here.window))

    def finish(self, here: _Call) -> Step:
        """Every action tried: the return of v, or at the root of best_action."""
        if not self.frames:
            return self.here("return", self.at(here, 9), returned=here.best)
        bound = self.bound(here.position, here.window)
        return self.here("return", self.at(here, 9 if self.pruning else 7), returned=here.v, bound=bound)

    def bound(self, position: str, window: tuple[float, float]) -> str:
        """How what the call on `position` returns stands to its minimax value, as the
        explorer's alpha-beta tree marks it: "=", or "≤" / "≥" for a bound."""
        return bound(position, window) if self.pruning else "="

    def terminal(self, k: int, position: str, action: Action | None, call: int, window: tuple[float, float]) -> Step:
        """A finished game: the test (k = 0), then the return of its utility (None at the root)."""
        returned = None if not self.frames or k == 0 else utility(position)
        frame = self.frame(position, action, call, 2 + k, None, window)
        return self.here("test" if k == 0 else "return", frame, returned=returned)

    def after_child(self, k: int, here: _Call, action: tuple[int, int], back: tuple[float, str]) -> Step | int:
        """The steps after a child returned (`back`: its value and bound), at offset `k` from
        the first: v takes its value (back), then with pruning the cut or α/β's update (keep).
        The step, or the offset left."""
        returned, bound_back = back
        better = here.take(returned)
        if not self.frames:
            if better:
                here.keep_best(action, self.pruning)
            if k == 0:
                line = 8 if better else 7
                return self.here("back", self.at(here, line), returned=returned, action=action, bound=bound_back)
            return k - 1
        if k == 0:
            return self.here("back", self.at(here, 6), returned=returned, action=action, bound=bound_back)
        if not self.pruning:
            return k - 1
        if here.cuts():
            pruned = pruned_actions(here.position, here.window)
            cut_bound = self.bound(here.position, here.window)
            return self.here("cut", self.at(here, 7), returned=here.v, pruned=pruned, bound=cut_bound)
        here.keep()
        return self.here("keep", self.at(here, 8)) if k == 1 else k - 2
