"""The judging of moves (ttt_web.core.judging): literal positions, then every move from every
live position against the independent judge."""

import random

import pytest

from tests import judge
from tests.test_engine import LIVE, SAMPLE, board
from ttt_web.core import judging
from ttt_web.core import tictactoe as ttt


@pytest.mark.parametrize(
    ("pos", "cell", "verdict", "best"),
    [
        ("XX.OO....", 2, "best", [2]),  # wins at once
        ("XX.OO....", 6, "blunder", [2]),  # a win thrown away: O completes the middle row next
        (".....XOOX", 0, "inaccuracy", [2]),  # still wins, two plies later than c1
        ("X........", 1, "mistake", [4]),  # only the centre holds the draw
        ("X........", 4, "best", [4]),
        (".........", 0, "best", list(range(9))),  # every opening draws
    ],
)
def test_literal_positions(pos, cell, verdict, best):
    judged = judging.judge(board(pos), divmod(cell, 3))
    assert judged.verdict == verdict
    assert judged.best_actions == tuple(divmod(n, 3) for n in best)
    assert judged.mark == judge.to_move(pos)


def test_the_refutation_is_the_line_that_punishes_the_move():
    judged = judging.judge(board("XX.OO...."), (2, 0))
    assert judged.refutation == ((1, 2),)  # O completes the middle row
    assert judged.played == ttt.MoveValue("loss", 2)


def test_an_illegal_move_is_refused():
    with pytest.raises(ttt.InvalidMoveError, match=r"^\(0, 0\) is not a legal move here$"):
        judging.judge(board("X........"), (0, 0))
    with pytest.raises(ttt.InvalidMoveError, match=r"^a move after the end of the game$"):
        judging.review([(0, 0), (1, 1), (0, 1), (2, 2), (0, 2), (2, 0)])  # after X has won
    with pytest.raises(ttt.InvalidMoveError, match=r"^\(1, 1\) is not a legal move here$"):
        judging.review([(0, 0), (1, 1), (1, 1)])  # the first illegal move, in a game going on


def test_a_game_reviewed_move_by_move():
    judged = judging.review([(0, 0), (0, 1), (1, 1), (2, 2), (2, 0)])
    assert [j.mark for j in judged] == ["X", "O", "X", "O", "X"]
    assert [j.verdict for j in judged] == ["best", "mistake", "best", "best", "best"]


def expected_verdict(pos: str, cell: int) -> str:
    """The verdict spelled out from the judge's own values and optimal moves."""
    played = judge.move_outcome(pos, cell)
    best = judge.move_outcome(pos, judge.optimal_moves(pos)[0])
    if played[0] == best[0]:
        return "best" if cell in judge.optimal_moves(pos) else "inaccuracy"
    if (best[0], played[0]) in (("win", "draw"), ("draw", "loss")):
        return "mistake"
    return "blunder"


@pytest.mark.slow
def test_every_move_from_every_live_position_is_judged_as_the_judge_would():
    check_judged(LIVE)


def test_every_move_from_sampled_live_positions_is_judged_as_the_judge_would():
    check_judged(SAMPLE)


def check_judged(positions: list[str]) -> None:
    counts = dict.fromkeys(judging.VERDICTS, 0)
    for pos in positions:
        for cell in judge.children(pos):
            judged = judging.judge(board(pos), divmod(cell, 3))
            assert judged.verdict == expected_verdict(pos, cell), (pos, cell)
            assert judged.best_actions == tuple(divmod(n, 3) for n in judge.optimal_moves(pos)), pos
            counts[judged.verdict] += 1
    assert all(counts.values()), counts  # every verdict occurs


@pytest.mark.slow
def test_every_refutation_is_perfect_play_to_the_end():
    check_refutations(LIVE)


def test_sampled_refutations_are_perfect_play_to_the_end():
    check_refutations(SAMPLE)


def check_refutations(positions: list[str]) -> None:
    for pos in positions:
        for cell, child in judge.children(pos).items():
            line = judging.judge(board(pos), divmod(cell, 3)).refutation
            assert len(line) == judge.value(child)[1], (pos, cell)
            for action in line:
                assert 3 * action[0] + action[1] in judge.optimal_moves(child), (pos, cell)
                child = judge.children(child)[3 * action[0] + action[1]]
            assert judge.is_over(child)


def random_games(count: int) -> list[list[int]]:
    """`count` games of random moves to the end, as cells."""
    rng, games = random.Random(41), []
    for _ in range(count):
        pos, cells = ".........", []
        while not judge.is_over(pos):
            cell = rng.choice(sorted(judge.children(pos)))
            cells.append(cell)
            pos = judge.children(pos)[cell]
        games.append(cells)
    return games


def test_accuracy_and_the_value_after_each_move_are_the_judges():
    """Accuracy: each of a player's moves scores the points it kept (a win 2, a draw 1, a loss
    0) over those the best move kept, averaged; the value after a move is the judge's."""
    points = {1: 2, 0: 1, -1: 0}  # a utility for the mover: its points
    for cells in random_games(60):
        judged = judging.review([divmod(cell, 3) for cell in cells])
        kept = {"X": [], "O": []}
        pos = "........."
        for cell, judgement in zip(cells, judged, strict=True):
            mover, sign = judge.to_move(pos), 1 if judge.to_move(pos) == "X" else -1
            child = judge.children(pos)[cell]
            best = max(sign * judge.value(c)[0] for c in judge.children(pos).values())
            kept[mover].append(1 - (points[best] - points[sign * judge.value(child)[0]]) / 2)
            assert judging.value_after(judgement) == judge.value(child)[0], (cells, cell)
            pos = child
        for mark in "XO":
            assert judging.accuracy(judged, mark) == pytest.approx(sum(kept[mark]) / len(kept[mark])), cells
    assert judging.accuracy(judging.review([(1, 1)]), "O") is None  # O never moved
    assert judging.accuracy([], "X") is None
