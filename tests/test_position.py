"""The vocabulary of a position against the independent judge, on every reachable position:
who moves, who moved last, the utility, the cells and their names, and outcomes."""

from tests import judge
from ttt_web.core import position as pos_
from ttt_web.core.position import Outcome
from ttt_web.core.words import ending


def test_who_moves_who_moved_and_the_utility_agree_with_the_judge():
    for pos in judge.reachable():
        assert pos_.to_move(pos) == judge.to_move(pos), pos
        assert pos_.over(pos) == judge.is_over(pos), pos
        if pos.count(".") < 9:
            assert pos_.other(pos_.last_mover(pos)) == judge.to_move(pos), pos
        if judge.is_over(pos):
            assert pos_.utility(pos) == judge.minimax(pos), pos
            assert pos_.winner_of(pos_.utility(pos)) == judge.won_by(pos), pos
        assert pos_.position_of(pos_.board(pos)) == pos


def test_each_move_is_played_by_the_side_whose_turn_it_is():
    position = "." * 9
    for number, cell in enumerate((4, 0, 8, 2, 6)):
        assert pos_.mark_of(number) == judge.to_move(position)
        position = judge.children(position)[cell]


def test_cells_their_coordinates_and_names():
    names = [f"{col}{row}" for row in "123" for col in "abc"]
    assert [pos_.cell_name(n) for n in range(9)] == names
    assert [pos_.action_of(n) for n in range(9)] == [(i, j) for i in range(3) for j in range(3)]
    assert all(pos_.cell_of(pos_.action_of(n)) == n for n in range(9))
    assert all(pos_.action_name(pos_.action_of(n)) == names[n] for n in range(9))


def test_outcomes_are_ordered_once_and_said_as_x_sees_them():
    assert sorted(Outcome, key=lambda o: o.sign) == [Outcome.LOSS, Outcome.DRAW, Outcome.WIN]
    for pos in judge.reachable() - {p for p in judge.reachable() if judge.is_over(p)}:
        for cell in judge.children(pos):
            outcome, _ = judge.move_outcome(pos, cell)
            assert Outcome(outcome).for_x(judge.to_move(pos)) == judge.minimax(judge.children(pos)[cell])
    assert [ending(u) for u in (1, 0, -1)] == ["X wins", "draw", "O wins"]
