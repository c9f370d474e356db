"""An independent instrumented minimax for the tests: the assignment's `minimax(board)` at the
root and the lecture's MAX-VALUE / MIN-VALUE below it (with alpha-beta when asked), run for
real, recursively, yielding a snapshot at every line it passes (see ttt_web's trace module
docstring for the lines). Shares no code with ttt_web: positions are 9-character strings and
the rules come from tests/judge.py.

A snapshot is (event, line, stack, returned), the stack a tuple of
(function, position, depth, action, call, line, v, alpha, beta) from the root, the current
call last.
"""

from __future__ import annotations

import math

from tests.judge import children, is_over, to_move, won_by

INF = math.inf


class Tracer:
    def __init__(self, pruning: bool) -> None:
        self.pruning = pruning
        self.stack: list[list] = []
        self.calls = 0

    def snapshot(self, event: str, returned=None):
        frozen = tuple(tuple(frame) for frame in self.stack)
        return event, frozen[-1][5], frozen, returned

    def at(self, line: int, **changes):
        frame = self.stack[-1]
        frame[5] = line
        for name, value in changes.items():
            frame[{"v": 6, "alpha": 7, "beta": 8}[name]] = value

    def minimax(self, pos: str):
        """Yields every step from the root; its last step returns the chosen action."""
        self.calls = 1
        self.stack = [["minimax", pos, 0, None, 1, 2, None, -INF, INF]]
        yield self.snapshot("test")
        if is_over(pos):
            self.at(3)
            yield self.snapshot("return", None)
            return
        x_moves = to_move(pos) == "X"
        best_action, best = None, -INF if x_moves else INF
        self.at(4, v=best)
        yield self.snapshot("init")
        for cell, kid in children(pos).items():
            action = divmod(cell, 3)
            self.at(6)
            yield self.snapshot("call")
            window = ((best, INF) if x_moves else (-INF, best)) if self.pruning else (-INF, INF)
            v = yield from self.value(kid, action, *window)
            better = v > best if x_moves else v < best
            if better:
                best_action, best = action, v
            self.at(8 if better else 7, v=best)
            if self.pruning:
                self.at(8 if better else 7, **({"alpha": best} if x_moves else {"beta": best}))
            yield self.snapshot("back", v)
        self.at(9)
        yield self.snapshot("return", best_action)

    def value(self, pos: str, action, alpha: float, beta: float):
        """MAX-VALUE or MIN-VALUE, whichever the mover is; returns v to the caller."""
        self.calls += 1
        maximizing = to_move(pos) == "X"
        function = "MAX-VALUE" if maximizing else "MIN-VALUE"
        self.stack.append([function, pos, len(self.stack), action, self.calls, 2, None, alpha, beta])
        yield self.snapshot("test")
        if is_over(pos):
            u = {"X": 1, "O": -1, None: 0}[won_by(pos)]
            self.at(3)
            yield self.snapshot("return", u)
            self.stack.pop()
            return u
        v = -INF if maximizing else INF
        self.at(4, v=v)
        yield self.snapshot("init")
        for cell, kid in children(pos).items():
            self.at(6)
            yield self.snapshot("call")
            got = yield from self.value(kid, divmod(cell, 3), alpha, beta)
            v = max(v, got) if maximizing else min(v, got)
            self.at(6, v=v)
            yield self.snapshot("back", got)
            if not self.pruning:
                continue
            if (maximizing and v >= beta) or (not maximizing and v <= alpha):
                self.at(7)
                yield self.snapshot("cut", v)
                self.stack.pop()
                return v
            if maximizing:
                alpha = max(alpha, v)
                self.at(8, alpha=alpha)
            else:
                beta = min(beta, v)
                self.at(8, beta=beta)
            yield self.snapshot("keep")
        self.at(9 if self.pruning else 7)
        yield self.snapshot("return", v)
        self.stack.pop()
        return v


def trace(pos: str, pruning: bool):
    """Every step of the trace from `pos`, as snapshots."""
    return Tracer(pruning).minimax(pos)
