"""Search costs (ttt_web.core.costs) against counts made independently here, with the judge's
own rules, no memo and no shared code."""

import math
import random

import pytest

from tests import judge
from ttt_web.core import costs


def plain_count(pos: str) -> int:
    """Every node of the game tree below `pos`, walked one by one."""
    return 1 + (0 if judge.is_over(pos) else sum(plain_count(child) for child in judge.children(pos).values()))


def alphabeta_count(pos: str, order: str = "row") -> int:
    visited = 0

    def search(pos, alpha, beta):
        nonlocal visited
        visited += 1
        if judge.is_over(pos):
            return {"X": 1, "O": -1, None: 0}[judge.won_by(pos)]
        moves = sorted(judge.children(pos))
        if order != "row":  # the mover's best outcome first, row-major among equals
            moves.sort(key=lambda cell: ordering(pos, cell, quickest=order == "quickest"))
        maximizing = judge.to_move(pos) == "X"
        best = -math.inf if maximizing else math.inf
        for cell in moves:
            value = search(judge.children(pos)[cell], alpha, beta)
            if maximizing:
                best = max(best, value)
                if best >= beta:
                    return best
                alpha = max(alpha, best)
            else:
                best = min(best, value)
                if best <= alpha:
                    return best
                beta = min(beta, best)
        return best

    search(pos, -math.inf, math.inf)
    return visited


def ordering(pos: str, cell: int, quickest: bool) -> tuple[int, int, int]:
    """Wins, draws, losses; when `quickest`, wins soonest first and losses latest first."""
    outcome, plies = judge.move_outcome(pos, cell)
    rank = {"win": 0, "draw": 1, "loss": 2}[outcome]
    hurry = {"win": plies, "draw": 0, "loss": -plies}[outcome] if quickest else 0
    return rank, hurry, cell


def reachable_from(pos: str) -> set[str]:
    seen, todo = set(), [pos]
    while todo:
        here = todo.pop()
        if here not in seen:
            seen.add(here)
            if not judge.is_over(here):
                todo.extend(judge.children(here).values())
    return seen


def rotate(pos: str) -> str:
    return "".join(pos[6 - 3 * (n % 3) + n // 3] for n in range(9))


def mirror(pos: str) -> str:
    return "".join(pos[3 * (n // 3) + 2 - n % 3] for n in range(9))


def images(pos: str) -> set[str]:
    found = set()
    for start in (pos, mirror(pos)):
        for _ in range(4):
            found.add(start)
            start = rotate(start)
    return found


@pytest.mark.slow
def test_the_empty_board_costs_what_the_literature_says():
    c = costs.costs(".........")
    assert (c.plain, c.memo, c.symmetry) == (549_946, 5_478, 765)
    assert c.plain == plain_count(".........")
    assert c.plain > c.alphabeta > c.alphabeta_ordered > c.alphabeta_quickest and c.memo > c.symmetry
    assert (c.alphabeta_ordered, c.alphabeta_quickest) == (alphabeta_count(".........", "outcome"), 1_892)


SAMPLE = sorted(p for p in judge.reachable() if p.count(".") >= 7)  # the empty board and every 1- and 2-move position
SAMPLE += random.Random(481).sample(sorted(judge.reachable() - set(SAMPLE)), 150)
OPENINGS = set(random.Random(482).sample([p for p in SAMPLE if p.count(".") == 7], 8))  # `make check`'s 2-move ones


def in_make_check(pos: str) -> bool:
    """The larger trees (the empty board, 1-move and most 2-move positions) wait for `make test`."""
    return pos.count(".") < 7 or pos in OPENINGS


@pytest.mark.parametrize("pos", [pytest.param(p, marks=() if in_make_check(p) else pytest.mark.slow) for p in SAMPLE])
def test_every_count_agrees_with_an_independent_count(pos):
    c = costs.costs(pos)
    if pos.count(".") < 9:
        assert c.plain == plain_count(pos)
    assert c.alphabeta == alphabeta_count(pos)
    assert c.alphabeta_ordered == alphabeta_count(pos, "outcome")
    assert c.alphabeta_quickest == alphabeta_count(pos, "quickest")
    reachable = reachable_from(pos)
    assert c.memo == len(reachable)
    assert c.symmetry == len({min(images(p)) for p in reachable})


def test_the_eight_symmetries_are_the_board_s_own():
    pos = "XO.X.O..X"
    assert {"".join(pos[n] for n in s) for s in costs.SYMMETRIES} == images(pos)
