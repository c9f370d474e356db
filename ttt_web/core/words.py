"""Values in words: what a move leads to under perfect play, and how a game ended, said the
way every page says it (each player's own moves counted, never the plies of both)."""

from __future__ import annotations

from . import tictactoe as ttt
from .game import Game
from .position import other, winner_of


def rank(value: ttt.MoveValue) -> tuple[int, int]:
    """Orders values as the player who moves prefers them: fast wins first, fast losses last."""
    if value.outcome == "win":
        return (2, -value.plies)
    return (1, 0) if value.outcome == "draw" else (0, value.plies)


def in_words(value: ttt.MoveValue, me: str, them: str) -> str:
    """A move's value in the words of its player `me` ("you" or a name), against `them`:
    "you win now", "AI wins on its next move", "X wins in 2 of its moves". Each player's
    own moves are counted, not the plies of both."""
    if value.outcome == "draw":
        return "draw with best play"
    if value.outcome == "win":
        mine = (value.plies + 1) // 2
        who = "you win" if me == "you" else f"{me} wins"
        return f"{who} now" if mine == 1 else f"{who} in {mine} of {_their(me)} moves"
    theirs = value.plies // 2
    if theirs == 1:
        return f"{them} wins on {_their(them)} next move"
    return f"{them} wins in {theirs} of {_their(them)} moves"


def outlook(value: ttt.MoveValue, mark: str) -> str:
    """What a move of `mark` leads to under perfect play, counted in moves of the player
    who wins, to follow "which" or "it": "holds the draw", "wins in 2 of its moves",
    "loses: O wins on its next move"."""
    if value.outcome == "draw":
        return "holds the draw"
    if value.outcome == "win":
        mine = (value.plies + 1) // 2
        return "wins at once" if mine == 1 else f"wins in {mine} of its moves"
    return f"loses: {in_words(value, mark, other(mark))}"


def _their(who: str) -> str:
    return "your" if who == "you" else "its" if who in ("AI", ttt.X, ttt.O) else "their"


def ending(utility: int) -> str:
    """A value in X's terms (a utility) in words: "X wins", "draw" or "O wins"."""
    winner = winner_of(utility)
    return f"{winner} wins" if winner else "draw"


def result_text(game: Game) -> str:
    if not game.over:
        return f"unfinished after {game.number} {'move' if game.number == 1 else 'moves'}."
    if not game.winner:
        return "A draw."
    own = (game.number + 1) // 2  # the winner moved last
    return f"{game.winner} won in {own} of its moves ({game.number} in all)."
