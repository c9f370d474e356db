"""Values in words (ttt_web.core.words) against the independent judge: every move's value said
with the winner's own moves counted, the best moves ranked first, and each sentence of the
ending, the retry and teach mode as the pages say it."""

import random

import pytest

from tests import judge
from tests.test_engine import SAMPLE, board
from ttt_web.core import tictactoe as ttt
from ttt_web.core.game import Game
from ttt_web.core.players import Players
from ttt_web.core.position import action_of, other
from ttt_web.core.words import (
    Cast,
    ai_says,
    better_move,
    counted,
    either,
    ended,
    ending,
    in_words,
    outlook,
    rank,
    result_text,
    which,
)

WIN, DRAW, LOSS = ttt.MoveValue("win", 1), ttt.MoveValue("draw", 9), ttt.MoveValue("loss", 2)


def said_by_the_judge(pos: str, cell: int) -> str:
    """A move's value in words, spelled out from the judge's value of the position it makes:
    the winner named by its mark, its own moves counted (this move among the mover's)."""
    mover = judge.to_move(pos)
    utility, plies = judge.value(judge.children(pos)[cell])
    if utility == 0:
        return "draw with best play"
    winner, plies = ("X" if utility == 1 else "O"), plies + 1  # this move too
    moves = (plies + 1) // 2 if winner == mover else plies // 2
    if moves == 1:
        return f"{winner} wins now" if winner == mover else f"{winner} wins on its next move"
    return f"{winner} wins in {moves} of its moves"


def test_every_moves_value_is_said_as_the_judge_counts_it():
    for pos in SAMPLE:
        values = ttt.scores(board(pos))
        for cell in judge.children(pos):
            mover = judge.to_move(pos)
            assert in_words(values[action_of(cell)], mover, other(mover)) == said_by_the_judge(pos, cell), (pos, cell)


def test_the_best_ranked_moves_are_the_judges_optimal_ones():
    for pos in SAMPLE:
        values = ttt.scores(board(pos))
        top = max(rank(value) for value in values.values())
        best = sorted(cell for cell in judge.children(pos) if rank(values[action_of(cell)]) == top)
        assert best == judge.optimal_moves(pos), pos


def test_rank_orders_fast_wins_then_draws_then_slow_losses():
    values = [ttt.MoveValue("loss", 2), ttt.MoveValue("win", 5), ttt.MoveValue("draw", 4)]
    values += [ttt.MoveValue("loss", 6), ttt.MoveValue("win", 1)]
    assert sorted(values, key=rank, reverse=True) == [
        ttt.MoveValue("win", 1),
        ttt.MoveValue("win", 5),
        ttt.MoveValue("draw", 4),
        ttt.MoveValue("loss", 6),
        ttt.MoveValue("loss", 2),
    ]


@pytest.mark.parametrize(
    ("value", "me", "them", "said"),
    [
        (WIN, "you", "AI", "you win now"),
        (ttt.MoveValue("win", 3), "you", "AI", "you win in 2 of your moves"),
        (LOSS, "you", "AI", "AI wins on its next move"),
        (ttt.MoveValue("loss", 4), "you", "AI", "AI wins in 2 of its moves"),
        (ttt.MoveValue("win", 5), "Ann", "Bob", "Ann wins in 3 of their moves"),
        (ttt.MoveValue("loss", 2), "Ann", "Bob", "Bob wins on their next move"),
        (DRAW, "you", "AI", "draw with best play"),
    ],
)
def test_in_words_names_the_winner_and_counts_its_own_moves(value, me, them, said):
    assert in_words(value, me, them) == said


def test_the_possessives_can_be_given():
    assert in_words(ttt.MoveValue("win", 3), "Ann", "Bob", "her", "his") == "Ann wins in 2 of her moves"
    assert in_words(ttt.MoveValue("loss", 4), "Ann", "Bob", "her", "his") == "Bob wins in 2 of his moves"


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (DRAW, "holds the draw"),
        (WIN, "wins at once"),
        (ttt.MoveValue("win", 3), "wins in 2 of its moves"),
        (LOSS, "loses: O wins on its next move"),
        (ttt.MoveValue("loss", 6), "loses: O wins in 3 of its moves"),
    ],
)
def test_outlook_follows_which(value, said):
    assert outlook(value, "X") == said


def test_outlook_names_the_other_player_when_told():
    assert outlook(LOSS, "you", "the AI", "your", "its") == "loses: the AI wins on its next move"
    assert outlook(ttt.MoveValue("win", 3), "Ann", "Bob") == "wins in 2 of their moves"


def test_a_retry_asks_for_a_better_move_in_the_terms_of_its_loss():
    naming = ("X", "O", "", "")
    assert better_move(DRAW, LOSS, "X", naming) == "one that holds the draw"
    assert better_move(WIN, ttt.MoveValue("win", 3), "X", naming) == "one that wins sooner: it wins at once"
    assert better_move(WIN, DRAW, "X", naming) == "one that wins at once"
    assert better_move(ttt.MoveValue("loss", 4), LOSS, "O", ("O", "X", "", "")) == (
        "one that loses later. Every move here loses with best play (utility 1: X wins),"
        " but the best holds out until X wins in 2 of its moves"
    )
    assert better_move(ttt.MoveValue("loss", 4), LOSS, "X", naming).startswith(
        "one that loses later. Every move here loses with best play (utility \N{MINUS SIGN}1: O wins)"
    )


def test_a_utility_in_words():
    assert [ending(u) for u in (1, 0, -1)] == ["X wins", "draw", "O wins"]


@pytest.mark.parametrize(
    ("cast", "winner", "final", "said"),
    [
        (Cast(("you", "the AI"), you="X", ai="O"), "X", "", "You won!"),
        (Cast(("you", "the AI"), you="X", ai="O"), "O", "The AI played b2", "The AI played b2 and won."),
        (Cast(("you", "the AI"), you="X", ai="O"), None, "The AI played b2", "The AI played b2: it's a draw."),
        (Cast(("you", "the AI"), you="X", ai="O"), None, "", "It's a draw."),
        (Cast(("Ann", "Bob"), shared=True), "O", "", "Bob (O) wins!"),
        (Cast(("Ann", "Bob")), "X", "", "Ann won."),
        (Cast(("the AI", "you"), you="O", ai="X"), "X", "", "The AI won."),
    ],
)
def test_how_a_game_ended_for_its_reader(cast, winner, final, said):
    assert ended(cast, winner, final) == said


def test_a_room_that_ended_without_a_last_move_to_tell_says_only_how():
    cast = Cast(("Ann", "Bob"), you="O")
    assert ended(cast, None) == "It's a draw."
    assert ended(cast, "X") == "Ann won."


def random_games(count: int) -> list[tuple[int, ...]]:
    """Whole games of random legal moves, played on the judge's boards."""
    rng, games = random.Random(481), []
    for _ in range(count):
        pos, cells = "." * 9, []
        while not judge.is_over(pos):
            cell = rng.choice(sorted(judge.children(pos)))
            pos, cells = judge.children(pos)[cell], [*cells, cell]
        games.append(tuple(cells))
    return games


def judged_result(cells: tuple[int, ...], given: int) -> tuple[str | None, int, int]:
    """The winner of the game `cells` by the judge (None for a draw), the winner's marks
    placed since move `given`, and the moves played since."""
    pos = "".join("XO"[cells.index(i) % 2] if i in cells else "." for i in range(9))
    winner = judge.won_by(pos)
    own = sum(1 for n in range(given, len(cells)) if "XO"[n % 2] == winner)
    return winner, own, len(cells) - given


def test_how_a_game_ended_counts_the_winners_own_moves_as_the_judge_does():
    for n, cells in enumerate(random_games(120)):
        for given in {0, n % len(cells)}:
            winner, own, played = judged_result(cells, given)
            since = f", played on from the position after move {given}" if given else ""
            if winner is None:
                assert result_text(Game.of_moves(cells, given)) == f"A draw{since}.", (cells, given)
            else:
                said = f"{winner} won in {own} of its moves ({played} in all{since})."
                assert result_text(Game.of_moves(cells, given)) == said, (cells, given)
        moves = counted(n % len(cells), "move")
        assert result_text(Game.of_moves(cells[: n % len(cells)])) == f"unfinished after {moves}."


def test_how_a_game_ended_names_its_players_and_is_told_by_the_one_who_shares_it():
    x_wins, o_wins = (0, 3, 1, 4, 2), (0, 4, 1, 2, 3, 6)
    assert judged_result(x_wins, 0)[0] == "X" and judged_result(o_wins, 0)[0] == "O"
    named = Players(names=("Ann", "Bob"))
    assert result_text(Game.of_moves(x_wins), named) == "Ann won in 3 of their moves (5 in all)."
    assert result_text(Game.of_moves(o_wins), named, sharer=True) == "Bob won in 3 of their moves (6 in all)."
    assert result_text(Game.of_moves(o_wins), Players(you="X", ai="easy")) == "The AI won in 3 of its moves (6 in all)."
    against_ai = Players(you="O", ai="easy")
    assert result_text(Game.of_moves(o_wins), against_ai) == "You won in 3 of your moves (6 in all)."
    assert result_text(Game.of_moves(o_wins), against_ai, sharer=True) == "I won in 3 of my moves (6 in all)."
    unfinished = "unfinished after 2 moves played on from the position after move 1."
    assert result_text(Game.of_moves(o_wins[:3], 1)) == unfinished


def test_alternatives_and_counts():
    assert either(["a2"]) == "a2" and either(["a2", "b2"]) == "a2 or b2"
    assert either(["a2", "b2", "a3", "c3"]) == "a2, b2, a3 or c3"
    assert which(["a2"]) == "which" and which(["a2", "b2"]) == "each of which"
    assert counted(1, "move") == "1 move" and counted(2, "move") == "2 moves" and counted(0, "move") == "0 moves"


@pytest.mark.parametrize(
    ("game", "why"),
    [
        (Game(token="t", side="X", difficulty="easy", moves=(0,)), "the AI has not moved"),
        (Game(token="t", side="O", difficulty="easy", moves=(0,), given=1), "its move is the position's"),
        (Game(token="t", side="X", mode="friend", moves=(0, 1)), "no AI"),
        (Game(token="t", side="X", difficulty="easy", moves=(0, 3, 1, 4, 2)), "the game is over"),
    ],
)
def test_the_ai_says_nothing_but_after_its_own_move_in_a_game_going_on(game, why):
    assert ai_says(game) is None, why


def test_the_ai_speaks_after_its_move():
    assert ai_says(Game(token="t", side="X", difficulty="easy", moves=(4, 0))) == "Best play from here is a draw."


def test_facing_two_threats_the_ai_says_every_move_loses_and_you_win_on_your_next_move():
    before = "XOXOX...."  # X threatens c3 and a3; the AI, O, to move
    assert {judge.value(child) for child in judge.children(before).values()} == {(1, 1)}
    game = Game(token="t", side="X", difficulty="easy", moves=(0, 1, 2, 3, 4, 5))
    assert ai_says(game) == "Every move loses here: you can win right now."


@pytest.mark.parametrize(
    ("moves", "after", "value", "said"),
    [
        ((0, 1, 2, 3, 6, 4), "XOXOO.X..", (-1, 2), "I can win on my next move, whatever you play."),
        (
            (7, 5, 4, 2),
            "..O.XO.X.",
            (1, 1),
            "Every move loses here; I could have held out longer than with c1. You can win right now.",
        ),
    ],
)
def test_what_the_ai_expects_after_its_move_is_the_judges_value(moves, after, value, said):
    assert judge.value(after) == value
    assert ai_says(Game(token="t", side="X", difficulty="easy", moves=moves)) == said
