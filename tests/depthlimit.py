"""Independent depth-limited minimax and alpha-beta over small trees, for the tests; shares
no code with ttt_web (the rules come from tests/judge.py)."""

from __future__ import annotations

from tests.judge import children, is_over, to_move, won_by

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def estimate(pos: str, name: str) -> int:
    if name == "zero":
        return 0
    score = 0
    for line in LINES:
        marks = [pos[n] for n in line]
        xs, os_ = marks.count("X"), marks.count("O")
        if name == "open-lines":
            score += (os_ == 0) - (xs == 0)
        elif os_ == 0 and xs:
            score += 3 if xs == 2 else 1 if xs == 1 else 0
        elif xs == 0 and os_:
            score -= 3 if os_ == 2 else 1 if os_ == 1 else 0
    return score


def limited(pos: str, depth: int, name: str) -> tuple[int, int]:
    """(value in points, nodes) with no memo: utility x 100 at the end of a game."""
    if is_over(pos):
        return {"X": 100, "O": -100, None: 0}[won_by(pos)], 1
    if depth == 0:
        return estimate(pos, name), 1
    found = [limited(kid, depth - 1, name) for kid in children(pos).values()]
    values = [v for v, _ in found]
    return (max(values) if to_move(pos) == "X" else min(values)), 1 + sum(n for _, n in found)


def tree_values(tree, maximizing: bool) -> int:
    if isinstance(tree, int):
        return tree
    got = [tree_values(c, not maximizing) for c in tree]
    return max(got) if maximizing else min(got)


def tree_alphabeta(tree, maximizing: bool, alpha=-1000, beta=1000, path="", seen=None) -> int:
    """Textbook alpha-beta over a nested-tuple tree; records each visited node's path in `seen`."""
    seen.add(path)
    if isinstance(tree, int):
        return tree
    best = -1000 if maximizing else 1000
    for n, child in enumerate(tree):
        v = tree_alphabeta(child, not maximizing, alpha, beta, path + str(n), seen)
        if maximizing:
            best = max(best, v)
            alpha = max(alpha, best)
        else:
            best = min(best, v)
            beta = min(beta, best)
        if alpha >= beta:
            break
    return best
