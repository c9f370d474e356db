import random
import subprocess
import sys

import pytest

from tests import judge
from ttt_web.core import tictactoe as ttt
from ttt_web.core.tictactoe import EMPTY, InvalidMoveError, O, X


def board(text: str) -> ttt.Board:
    """A board from 9 characters read row by row: "X", "O", or "." for empty."""
    cells = [{"X": X, "O": O, ".": EMPTY}[c] for c in text.replace(" ", "")]
    return [cells[0:3], cells[3:6], cells[6:9]]


def text(b: ttt.Board) -> str:
    return "".join(c or "." for row in b for c in row)


POSITIONS = judge.reachable()
LIVE = sorted(p for p in POSITIONS if not judge.is_over(p))
SAMPLE = sorted(random.Random(4520).sample(LIVE, 400))  # for `make check`; `make test` checks every one


def test_state_space_sizes():
    assert len(POSITIONS) == 5478
    assert len(LIVE) == 4520


def test_initial_state_is_empty_and_fresh():
    first, second = ttt.initial_state(), ttt.initial_state()
    assert first == [[EMPTY] * 3] * 3
    first[0][0] = X
    assert second[0][0] is EMPTY and first[1][0] is EMPTY


@pytest.mark.parametrize(
    ("pos", "mover"),
    [(".........", X), ("X........", O), ("XO.......", X), ("XOX.O....", X), ("XOX......", O), ("XOXOXOOX.", X)],
)
def test_player(pos, mover):
    assert ttt.player(board(pos)) == mover


def test_actions():
    assert ttt.actions(board("X.O.X.O..")) == {(0, 1), (1, 0), (1, 2), (2, 1), (2, 2)}
    assert ttt.actions(board("XOXXOOOXX")) == set()
    assert ttt.actions(ttt.initial_state()) == {(i, j) for i in range(3) for j in range(3)}


def test_result_places_the_movers_mark():
    assert text(ttt.result(board("........."), (1, 1))) == "....X...."
    assert text(ttt.result(board("....X...."), (2, 0))) == "....X.O.."


def test_result_leaves_the_input_untouched_down_to_its_rows():
    before = board("X...O....")
    rows = list(before)
    snapshot = [row.copy() for row in before]
    after = ttt.result(before, (0, 1))
    assert before == snapshot
    assert all(a is b for a, b in zip(before, rows, strict=True))
    assert all(a is not b for a, b in zip(after, before, strict=True))


@pytest.mark.parametrize(
    "action",
    [(-1, 2), (2, -1), (3, 0), (0, 3), (-3, -3), (1,), (1, 1, 1), "11", None, 4,
     (1.0, 1), (1, "1"), (True, 0), {1: 1, 2: 2}],
)  # fmt: skip
def test_result_rejects_invalid_actions(action):
    b = board("X........")
    with pytest.raises(InvalidMoveError):
        ttt.result(b, action)
    assert text(b) == "X........"


def test_result_rejects_taken_cells_and_names_the_problem():
    with pytest.raises(InvalidMoveError, match=r"\(0, 0\) is taken by X"):
        ttt.result(board("X........"), (0, 0))
    assert issubclass(InvalidMoveError, ValueError)


def test_negative_index_does_not_wrap_around():
    with pytest.raises(InvalidMoveError, match="off the board"):
        ttt.result(board("........."), (-1, 2))


@pytest.mark.parametrize(
    ("pos", "won"),
    [
        ("XXXOO....", X),
        ("OO.XXX...", X),
        ("OO....XXX", X),
        ("XO.XO.X..", X),
        ("OX.OX..X.", X),
        ("..X.OXO.X", X),
        ("XO..XO..X", X),
        ("OXXXO...O", O),  # O on the main diagonal
        ("XXO.OXO..", O),  # O on the anti-diagonal
        ("XOXXOOOXX", None),
        (".........", None),
        ("XX.OO....", None),
    ],
)
def test_winner(pos, won):
    assert ttt.winner(board(pos)) == won
    line = ttt.winning_line(board(pos))
    assert len(line) == (3 if won else 0)
    assert all(board(pos)[i][j] == won for i, j in line)


@pytest.mark.parametrize(
    ("pos", "over", "score"),
    [
        (".........", False, 0),
        ("XXXOO....", True, 1),
        ("OXXXO...O", True, -1),
        ("XXO.OXO..", True, -1),
        ("XOXXOOOXX", True, 0),
        ("XOXXOO.X.", False, 0),
    ],
)
def test_terminal_and_utility(pos, over, score):
    assert ttt.terminal(board(pos)) is over
    assert ttt.utility(board(pos)) == score


@pytest.mark.parametrize("pos", ["XXX OO. ...", "OOO XX. X..", "XOX XOO OXX", "........."])
def test_score_is_utility_under_cpsc_481s_name(pos):
    assert ttt.score(board(pos)) == ttt.utility(board(pos)) and callable(ttt.scores)


@pytest.mark.parametrize("pos", ["XOXXOOOXX", "XXXOO....", "OXXXO...O"])
def test_minimax_returns_none_when_the_game_is_over(pos):
    assert ttt.minimax(board(pos)) is None
    assert ttt.best_moves(board(pos)) == []
    assert ttt.scores(board(pos)) == {}


@pytest.mark.parametrize(
    ("pos", "move"),
    [
        ("XX.OO....", (0, 2)),  # win now rather than block
        ("XO.XO....", (2, 0)),  # X wins down the first column
        ("XX.O.....", (0, 2)),  # O must block
        ("X...O...X", None),  # checked below: O must take an edge
    ],
)
def test_minimax_on_known_positions(pos, move):
    if move is not None:
        assert ttt.minimax(board(pos)) == move
    else:
        assert ttt.minimax(board(pos)) in {(0, 1), (1, 0), (1, 2), (2, 1)}


def test_scores_on_a_literal_position():
    assert ttt.scores(board("XX.OO....")) == {
        (0, 2): ("win", 1),
        (1, 2): ("draw", 5),
        (2, 0): ("loss", 2),
        (2, 1): ("loss", 2),
        (2, 2): ("loss", 2),
    }
    assert ttt.evaluate(board("XX.OO....")) == ("win", 1)
    assert ttt.evaluate(board(".........")) == ("draw", 9)
    assert ttt.evaluate(board("XXXOO....")) == ("loss", 0)


def test_engine_rejects_boards_that_are_not_boards():
    for bad in [[], [[X, O]], [[X, O, "Z"]] * 3, "XXX", [[1, 2, 3]] * 3]:
        with pytest.raises(ttt.InvalidBoardError):
            ttt.minimax(bad)


# Exhaustive checks over every reachable position, against the independent judge.


def test_every_move_value_agrees_with_the_judge():
    for pos in LIVE:
        expected = {divmod(i, 3): judge.move_outcome(pos, i) for i in judge.children(pos)}
        assert ttt.scores(board(pos)) == expected, pos


def test_every_move_is_strongly_optimal():
    """best_moves is the judge's optimal set, narrowed to blocking moves where any is optimal."""
    for pos in LIVE:
        optimal = {divmod(i, 3) for i in judge.optimal_moves(pos)}
        blocking = {(i, j) for i, j in optimal if judge.blocks(pos, 3 * i + j)}
        assert set(ttt.best_moves(board(pos))) == (blocking or optimal), pos
        assert ttt.minimax(board(pos)) in optimal, pos


def test_position_values_agree_with_the_judge():
    for pos in POSITIONS:
        u, plies = judge.value(pos)
        sign = 1 if judge.to_move(pos) == "X" else -1
        assert ttt.evaluate(board(pos)) == ({1: "win", 0: "draw", -1: "loss"}[u * sign], plies)


def test_a_lost_engine_still_blocks():
    blocked = 0
    for pos in LIVE:
        my_wins = [i for i, c in judge.children(pos).items() if judge.won_by(c)]
        threats = [i for i in judge.children(pos) if judge.blocks(pos, i)]
        if threats and not my_wins:
            i, j = ttt.minimax(board(pos))
            assert 3 * i + j in threats, pos
            blocked += 1
    assert blocked > 500


@pytest.mark.parametrize("engine_side", [X, O])
def test_the_engine_never_loses_against_any_opponent(engine_side):
    """Every opponent sequence, and every move the engine may choose among equals."""
    games = 0
    todo = [ttt.initial_state()]
    while todo:
        b = todo.pop()
        if ttt.terminal(b):
            assert ttt.winner(b) in (engine_side, None), text(b)
            games += 1
        elif ttt.player(b) == engine_side:
            todo.extend(ttt.result(b, move) for move in ttt.best_moves(b))
        else:
            todo.extend(ttt.result(b, move) for move in ttt.actions(b))
    assert games > 100


def test_cold_start_solves_once_and_imports_nothing_heavy():
    code = (
        "import sys; import ttt_web.core.tictactoe as t;"
        "t.minimax(t.initial_state()); n = len(t._scores);"
        "[t.minimax(t.result(t.initial_state(), a)) for a in t.actions(t.initial_state())];"
        "assert len(t._scores) == n, 'solved twice';"
        "assert not {'flask', 'typing'} & set(sys.modules), sorted(sys.modules)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
