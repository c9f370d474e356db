"""Values in words: what a move leads to under perfect play, and how a game ended, said the
way every page says it (each player's own moves counted, never the plies of both)."""

from __future__ import annotations

from . import tictactoe as ttt
from .game import Game
from .players import Players
from .position import other, winner_of

MARKS = Players()  # nobody named: the players are X and O


def rank(value: ttt.MoveValue) -> tuple[int, int]:
    """Orders values as the player who moves prefers them: fast wins first, fast losses last."""
    if value.outcome == "win":
        return (2, -value.plies)
    return (1, 0) if value.outcome == "draw" else (0, value.plies)


def in_words(value: ttt.MoveValue, me: str, them: str, mine: str = "", theirs: str = "") -> str:
    """A move's value in the words of its player `me` ("you", "the AI", a name or a mark),
    against `them`: "you win now", "AI wins on its next move", "X wins in 2 of its moves".
    `mine` and `theirs` are the two players' possessives ("your", "its", "their"); by default
    the one each name calls for. Each player's own moves are counted, not the plies of both."""
    if value.outcome == "draw":
        return "draw with best play"
    won = value.outcome == "win"
    who, whose = (me, mine or _their(me)) if won else (them, theirs or _their(them))
    moves = (value.plies + 1) // 2 if won else value.plies // 2
    wins = "you win" if who == "you" else f"{who} wins"
    if moves == 1:
        return f"{wins} now" if won else f"{wins} on {whose} next move"
    return f"{wins} in {moves} of {whose} moves"


def outlook(value: ttt.MoveValue, me: str, them: str = "", mine: str = "", theirs: str = "") -> str:
    """What a move of `me` leads to under perfect play, counted in moves of the player who
    wins, to follow "which" or "it": "holds the draw", "wins in 2 of its moves", "loses: O wins
    on its next move". `me` is a mark unless `them` names the other player; the possessives
    are as in_words takes them."""
    if value.outcome == "draw":
        return "holds the draw"
    if value.outcome == "win":
        moves = (value.plies + 1) // 2
        return "wins at once" if moves == 1 else f"wins in {moves} of {mine or _their(me)} moves"
    return f"loses: {in_words(value, me, them or other(me), mine, theirs)}"


def _their(who: str) -> str:
    return "your" if who == "you" else "its" if who in ("AI", ttt.X, ttt.O) else "their"


def ending(utility: int) -> str:
    """A value in X's terms (a utility) in words: "X wins", "draw" or "O wins"."""
    winner = winner_of(utility)
    return f"{winner} wins" if winner else "draw"


def result_text(game: Game, players: Players = MARKS) -> str:
    """How the game ended, the winner named as `players` name them: "Ann won in 3 of their
    moves (5 in all).", "A draw.", or how many moves a game not over has."""
    if not game.over:
        return f"unfinished after {game.number} {'move' if game.number == 1 else 'moves'}."
    if not game.winner:
        return "A draw."
    own = (game.number + 1) // 2  # the winner moved last
    whose = players.possessive(game.winner)
    return f"{players.subject(game.winner)} won in {own} of {whose} moves ({game.number} in all)."


def counted(count: int, noun: str) -> str:
    """A number of things, the noun in the plural but for one: "1 move", "2 moves"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"
