"""How a game ended that its board does not show: a player of a room resigned or left (the
other won), or you left a game against the AI at a position where the AI wins with best play
(a loss). Your games says so ("Won: Dee resigned or left", "Lost: left where the AI wins"), and
a review's address says it in its query (`?resigned=O`, `?left=X`), so that the review, its
title and its link preview say it too. Standard library and the game only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from . import tictactoe as ttt
from .game import Game
from .players import Players
from .position import SIDES, other

RESIGNED, LEFT = "resigned", "left"  # the query's keys: a room's player resigned or left; you left the AI


class EndingError(ValueError):
    """A review's query whose ending does not fit its game: the message says why."""


@dataclass(frozen=True)
class Ending:
    how: str  # RESIGNED or LEFT
    mark: str  # the mark of the player who resigned or left

    @property
    def winner(self) -> str:
        return other(self.mark)

    def query(self) -> dict[str, str]:
        return {self.how: self.mark}


def ending_asked(args: Mapping[str, str], game: Game, players: Players) -> Ending | None:
    """The ending the query says (None: the board says how the game ended, or that it has
    not); EndingError if it says one this game cannot have had."""
    asked = [Ending(how, args[how]) for how in (RESIGNED, LEFT) if how in args]
    if not asked:
        return None
    if len(asked) > 1 or asked[0].mark not in SIDES:
        raise EndingError("A game ended one way: ?resigned=X or ?resigned=O (a room), or ?left=X or ?left=O.")
    if problem := _problem(asked[0], game, players):
        raise EndingError(problem)
    return asked[0]


def _problem(ending: Ending, game: Game, players: Players) -> str:
    """Why `game` cannot have ended so; "" if it can."""
    if game.over:
        return "This game ended on the board: nobody resigned or left it."
    if ending.how == RESIGNED and players.against_ai:
        return "A game against the AI is left (?left=), not resigned."
    if ending.how == LEFT and not left_lost(game, players, ending.mark):
        return "A game left against the AI is one you left on your turn, where the AI wins with best play."
    return ""


def left_lost(game: Game, players: Players, mark: str) -> bool:
    """Whether `mark` is yours against the AI, and you were to move in `game` where the AI
    wins with best play: a game left there counts as lost."""
    return players.against_ai and mark == players.you == game.to_move and ttt.evaluate(game.board).outcome == "loss"


def ending_query(how: str, mark: str) -> dict[str, str]:
    """The review's query for a game that ended so (RESIGNED or LEFT, by `mark`)."""
    return Ending(how, mark).query()
