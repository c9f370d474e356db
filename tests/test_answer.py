"""A student's minimax answer (ttt_web.core.answer) read as the explorer reads it and judged
against the independent judge: optimal exactly when it keeps the position's minimax value."""

import pytest

from tests import judge
from tests.test_engine import SAMPLE
from ttt_web.core.answer import AnswerError, check, read
from ttt_web.core.position import action_of


@pytest.mark.parametrize(
    ("text", "action"),
    [("0,2", (0, 2)), ("(1, 1)", (1, 1)), (" ( 2 ,0 ) ", (2, 0)), ("none", None), (" None ", None), ("NONE", None)],
)
def test_an_answer_is_read_as_an_action_or_none(text, action):
    assert read(text) == action


@pytest.mark.parametrize("text", ["", "1", "1,2,3", "a,b", "(1 1)", "1;2", "12,3", "nothing"])
def test_anything_else_is_refused_with_how_to_write_it(text):
    with pytest.raises(AnswerError) as refused:
        read(text)
    assert str(refused.value) == "The student's answer is written i,j (like 0,2 for row 0, column 2) or none."


def minimax_keepers(pos: str) -> tuple[tuple[int, int], ...]:
    """Every move that keeps the position's minimax value, by the judge (the assignment's
    optimal: any of them, not only the quickest)."""
    goal = judge.value(pos)[0]
    return tuple(action_of(cell) for cell, child in judge.children(pos).items() if judge.value(child)[0] == goal)


def test_every_legal_answer_is_optimal_exactly_when_it_keeps_the_minimax_value():
    for pos in SAMPLE:
        right = minimax_keepers(pos)
        for cell in judge.children(pos):
            answer = check(pos, action_of(cell))
            assert answer.right == right and answer.problem == "", pos
            assert answer.optimal == (action_of(cell) in right), (pos, cell)
            assert answer.judged.action == action_of(cell) and answer.judged.mark == judge.to_move(pos)


def test_none_on_a_live_board_is_wrong_and_says_why():
    answer = check("XX.OO....", None)
    assert (answer.optimal, answer.right, answer.judged) == (False, ((0, 2),), None)
    assert answer.problem == "the game is not over, so minimax must return one of the moves"


def test_off_the_board_or_on_a_taken_cell_is_wrong_and_says_why():
    off = check("XX.OO....", (0, 3))
    assert (off.optimal, off.judged, off.right) == (False, None, ((0, 2),))
    assert off.problem == "it is not on the board: i and j are 0, 1 or 2"
    assert check("XX.OO....", (3, 0)).problem == off.problem
    assert check("XX.OO....", (-1, 0)).problem == off.problem
    taken = check("XX.OO....", (1, 0))
    assert (taken.optimal, taken.judged, taken.problem) == (False, None, "that cell is not empty")


def test_every_answer_keeps_what_minimax_returned_and_a_wrong_one_the_right_ones_beside_it():
    for action in [(2, 2), (0, 2), (0, 3), (1, 0), None]:
        answer = check("XX.OO....", action)
        assert answer.action == action and answer.right == ((0, 2),), action
    assert check("XXXOO....", (2, 2)).action == (2, 2)


def test_on_a_finished_board_only_none_is_right():
    for pos in ("XXXOO....", "XOXXOOOXX"):
        assert check(pos, None) == check(pos, None) and check(pos, None).optimal is True
        assert (check(pos, None).problem, check(pos, None).right) == ("", ())
        wrong = check(pos, (2, 2))
        assert wrong.optimal is False and wrong.judged is None
        assert wrong.problem == "the game is over here, so minimax returns None"
