"""What the AI says of its own move in teach mode, checked against the independent judge on
every move of every reachable position: "I slipped" only when its move lowered its outcome,
"every move loses" only when it had no better, and the moves counted to the end."""

from tests import judge
from ttt_web.core.game import Game
from ttt_web.core.position import action_of, board, cell_name
from ttt_web.core.words import ai_move_words, ai_says


def for_ai(pos: str, u: int) -> int:
    """A utility (X's side) for the player to move in `pos`: 1 a win, -1 a loss."""
    return u if judge.to_move(pos) == "X" else -u


def expected_end(child: str) -> str:
    """How the judge says best play ends after the AI's move, as the sentence ends."""
    u, plies = judge.value(child)
    ai = "O" if judge.to_move(child) == "X" else "X"
    if u == 0:
        return "Best play from here is a draw."
    moves = (plies + 1) // 2  # the winner moves first or second from here
    if (u == 1) == (ai == "X"):
        mine = f"I can force a win in {moves} of my moves."
        return "I can win on my next move, whatever you play." if moves == 1 else mine
    return "You can win right now." if moves == 1 else f"You can force a win in {moves} of your moves."


def cases():
    for pos in sorted(judge.reachable()):
        if judge.is_over(pos):
            continue
        for cell, child in judge.children(pos).items():
            if not judge.is_over(child):
                yield pos, cell, child


def test_every_ai_move_is_told_as_the_judge_values_it():
    told = 0
    for pos, cell, child in cases():
        said = ai_move_words(board(pos), action_of(cell))
        best = max(for_ai(pos, judge.value(c)[0]) for c in judge.children(pos).values())
        got = for_ai(pos, judge.value(child)[0])
        end = expected_end(child)
        assert said.lower().endswith(end.lower()), (pos, cell, said, end)
        assert said.startswith("I slipped") == (got < best), (pos, cell, said)
        assert said.startswith("Every move loses") == (best == got == -1), (pos, cell, said)
        if best == got == -1:
            hold_out = max(judge.value(c)[1] for c in judge.children(pos).values())  # plies, your win
            held = "I hold out longest" if cell in judge.optimal_moves(pos) else "I could have held out longer"
            said_held = f"; {held} " in said and f" with {cell_name(cell)}. " in said
            assert said_held == (hold_out > 1), (pos, cell, said)  # else you win next, whatever it plays
        told += 1
    assert told > 10_000


def test_the_ai_that_holds_out_longest_does_not_say_it_slipped():
    # you X: a1, the AI b1, you b2; every move loses for the AI, which holds out with c3
    game = Game(token="t", side="X", difficulty="impossible", moves=(0, 1, 4, 8), given=3)
    assert ai_says(game) == "Every move loses here; I hold out longest with c3. You can force a win in 2 of your moves."
    slipped = Game(token="t", side="X", difficulty="easy", moves=(0, 1))  # the AI's b1 loses the draw
    assert ai_says(slipped) == "I slipped: you can force a win in 3 of your moves."
    later = Game(token="t", side="X", difficulty="easy", moves=(0, 1, 4, 8))  # then its best, c3
    assert ai_says(later).startswith("Every move loses here; I hold out longest with c3.")
