"""Every move judged from the engine's exact values, for the player who made it: the
ground the game review stands on. Standard library and the engine only.

A move is `best` when it keeps the position's value exactly (the outcome, and for a win the
fewest plies, for a loss the most); an `inaccuracy` when it keeps the outcome but wins more
slowly or loses sooner; a `mistake` when it gives up half a point (a win becomes a draw, a
draw a loss); a `blunder` when a win becomes a loss.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core import tictactoe as ttt
from .position import Outcome

VERDICTS = ("best", "inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Judgement:
    """A move, judged for the player who made it (`mark`)."""

    mark: str
    action: ttt.Action
    verdict: str
    played: ttt.MoveValue  # what the move leads to under perfect play, for `mark`
    best: ttt.MoveValue  # what the best move led to, for `mark`
    best_actions: tuple[ttt.Action, ...]  # every move that keeps `best`, row by row
    refutation: tuple[ttt.Action, ...]  # after the move, perfect play to the end


def judge(board: ttt.Board, action: ttt.Action) -> Judgement:
    """Judge `action`, played by the player to move on `board`; InvalidMoveError if illegal."""
    values = ttt.scores(board)
    if action not in values:
        raise ttt.InvalidMoveError(f"{action!r} is not a legal move here")
    played, best = values[action], ttt.evaluate(board)
    return Judgement(
        mark=ttt.player(board),
        action=action,
        verdict=verdict(played, best),
        played=played,
        best=best,
        best_actions=tuple(sorted(a for a, value in values.items() if value == best)),
        refutation=principal_variation(ttt.result(board, action)),
    )


def verdict(played: ttt.MoveValue, best: ttt.MoveValue) -> str:
    """What playing a move worth `played` is, where the best move was worth `best`."""
    lost = Outcome(best.outcome).sign - Outcome(played.outcome).sign
    if lost == 0:
        return "best" if played == best else "inaccuracy"
    return "mistake" if lost == 1 else "blunder"


def principal_variation(board: ttt.Board) -> tuple[ttt.Action, ...]:
    """The moves `minimax` plays from `board` for both sides until the game ends."""
    line = []
    while (action := ttt.minimax(board)) is not None:
        line.append(action)
        board = ttt.result(board, action)
    return tuple(line)


def review(actions: list[ttt.Action]) -> list[Judgement]:
    """Each move of a game judged in turn; InvalidMoveError at the first illegal one."""
    board, judged = ttt.initial_state(), []
    for action in actions:
        if ttt.terminal(board):
            raise ttt.InvalidMoveError("a move after the end of the game")
        judged.append(judge(board, action))
        board = ttt.result(board, action)
    return judged


def accuracy(judged: list[Judgement], mark: str) -> float | None:
    """How much of the best outcome `mark`'s moves kept, 0 to 1, or None if `mark` never
    moved. Each move scores the points it kept over those the best move kept (a win is 2, a
    draw 1, a loss 0): 1 when the outcome is kept, even more slowly; 1/2 when a win becomes
    a draw or a draw a loss; 0 when a win becomes a loss."""
    mine = [j for j in judged if j.mark == mark]
    if not mine:
        return None
    return sum(1 - (Outcome(j.best.outcome).sign - Outcome(j.played.outcome).sign) / 2 for j in mine) / len(mine)


def value_after(judgement: Judgement) -> int:
    """The position's value after the move under perfect play, from X's point of view as
    `utility` counts it: 1 if X wins, 0 for a draw, -1 if O wins."""
    return Outcome(judgement.played.outcome).for_x(judgement.mark)
