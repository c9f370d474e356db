"""A game as the web app keeps it: options, the moves so far, and what to show.

A `Game` is immutable. Its fields are what the session stores (web/stored_games.py writes
and reads them from this declaration); the board is not one of them: it is replayed from
the moves when a game is made, so a game is always a legal position consistent with its
history.
"""

from __future__ import annotations

import hashlib
import random
import secrets
from dataclasses import dataclass, fields
from functools import cached_property

from ..core import tictactoe as ttt
from .options import DEFAULTS, DIFFICULTIES, MODES, choose_move, name_problem, valid_name
from .position import SIDES, action_of, cell_name, cell_of, mark_of, other


class GameError(ValueError):
    """A request that does not fit the game: the message says why, for the player."""


@dataclass(frozen=True)
class Game:
    token: str
    side: str = DEFAULTS["side"]
    difficulty: str = DEFAULTS["difficulty"]
    mode: str = DEFAULTS["mode"]
    moves: tuple[int, ...] = ()
    scored: bool = False
    names: tuple[str, str] = ("", "")  # in friend mode, X's and O's; "" for none
    version: int = 0  # counts the moves and undos: a link or a button carries the one it was shown
    given: int = 0  # how many of the moves were the position it was played on from, not played in it

    def __post_init__(self) -> None:
        if self.side not in SIDES or self.difficulty not in DIFFICULTIES or self.mode not in MODES:
            raise GameError("Unknown game options.")
        if len(self.names) != 2 or not all(valid_name(name) for name in self.names):
            raise GameError(next(filter(None, map(name_problem, self.names)), "A game has two names, X's and O's."))
        _ = self.board  # replayed now: moves that no game has are refused when a game is made

    @cached_property
    def board(self) -> ttt.Board:
        return _replayed(self.moves, self.given)

    def _derived(self, board: ttt.Board, **changes: object) -> Game:
        """A copy with `changes` whose board is already known, so it is not replayed from
        the start: a request replays its stored game once."""
        game = object.__new__(Game)
        for name in (f.name for f in fields(self)):
            object.__setattr__(game, name, changes.get(name, getattr(self, name)))
        object.__setattr__(game, "board", board)
        return game

    def _then(self, cell: int) -> Game:
        """This game with one more move."""
        return self._derived(_after(self.board, cell), moves=(*self.moves, cell))

    def at(self, number: int) -> Game:
        """This game as it was after its first `number` moves, not counted in the score: the
        later moves' cells emptied."""
        board = [list(row) for row in self.board]
        for cell in self.moves[number:]:
            board[cell // 3][cell % 3] = ttt.EMPTY
        return self._derived(board, moves=self.moves[:number], scored=False, given=min(self.given, number))

    def _changed_from(self, before: Game) -> Game:
        """This game as a change (a move, an undo) made it from `before`: one version on."""
        return self._derived(self.board, version=before.version + 1)

    def counted(self) -> Game:
        """This game, marked as counted in the score."""
        return self._derived(self.board, scored=True)

    @classmethod
    def start(
        cls,
        rng: random.Random,
        moves: tuple[int, ...] = (),
        names: tuple[str, str] = ("", ""),
        side: str = DEFAULTS["side"],
        difficulty: str = DEFAULTS["difficulty"],
        mode: str = DEFAULTS["mode"],
    ) -> Game:
        """A new game, from the empty board or from the position `moves` lead to; the AI
        moves first when it is its turn (it opens when the human plays O)."""
        game = cls(secrets.token_urlsafe(16), side, difficulty, mode, moves, names=names, given=len(moves))
        return game.ai_reply(rng)

    @classmethod
    def of_moves(cls, moves: tuple[int, ...], given: int = 0) -> Game:
        """The position `moves` lead to, as a game between two friends with no token, the
        first `given` of them the position it was played on from."""
        return cls(token="", mode="friend", moves=moves, given=given)

    # What the position is: derived from the immutable board once, on first use.

    @property
    def number(self) -> int:
        """How many moves have been played: the move number a link must carry."""
        return len(self.moves)

    @cached_property
    def ref(self) -> str:
        """A public name for this game, for the addresses of its boards; the token stays
        secret."""
        return hashlib.sha256(self.token.encode()).hexdigest()[:10]

    @cached_property
    def over(self) -> bool:
        return ttt.terminal(self.board)

    @cached_property
    def winner(self) -> str | None:
        return ttt.winner(self.board)

    @cached_property
    def to_move(self) -> str:
        return ttt.player(self.board)

    @property
    def ai_side(self) -> str | None:
        if self.mode != "ai":
            return None
        return other(self.side)

    @property
    def humans_turn(self) -> bool:
        return not self.over and self.to_move != self.ai_side

    @cached_property
    def winning_line(self) -> tuple[int, ...]:
        """The cells of the completed line, or () if nobody has won."""
        return tuple(cell_of(action) for action in ttt.winning_line(self.board))

    @property
    def outcome(self) -> str:
        """ "win", "loss" or "draw" when the game is over: the human's, in AI mode; X's, in
        friend mode."""
        if self.winner is None:
            return "draw"
        first = self.side if self.mode == "ai" else ttt.X
        return "win" if self.winner == first else "loss"

    @cached_property
    def lost(self) -> bool:
        """In AI mode, whether the human, to move, loses with best play from here."""
        return self.mode == "ai" and self.humans_turn and ttt.evaluate(self.board).outcome == "loss"

    def name(self, mark: str) -> str:
        """Who plays `mark`, as the page names them: "Ann (X)", or "X" with no name."""
        given = self.names[SIDES.index(mark)] if self.mode == "friend" else ""
        return f"{given} ({mark})" if given else mark

    def history(self) -> list[tuple[str, str]]:
        """(mark, cell name) for each move so far, e.g. ("X", "b2")."""
        return [(mark_of(n), cell_name(cell)) for n, cell in enumerate(self.moves)]

    # Changes: each returns a new Game.

    def play(self, cell: int, rng: random.Random) -> Game:
        """The human's move at `cell`, and the AI's reply in AI mode."""
        if self.over:
            raise GameError("The game is over. Start a new game to play again.")
        if not self.humans_turn:
            raise GameError("It is not your turn.")
        if type(cell) is not int or not 0 <= cell <= 8:
            raise GameError("There is no such cell on the board.")
        if cell in self.moves:
            raise GameError("That cell is already taken.")
        return self._then(cell).ai_reply(rng)._changed_from(self)

    def ai_reply(self, rng: random.Random) -> Game:
        if self.over or self.to_move != self.ai_side:
            return self
        return self._then(cell_of(choose_move(self.board, self.difficulty, rng)))

    def undo(self) -> Game:
        """Take back the human's last move, with the AI's reply after it in AI mode, never a
        move of the position the game started from. A finished game reopens, so it no longer
        counts as scored."""
        moves = list(self.moves)
        while len(moves) > self.given:
            moves.pop()
            if mark_of(len(moves)) != self.ai_side:
                return self.at(len(moves))._changed_from(self)
        raise GameError("There is no move of yours to take back.")

    @property
    def can_undo(self) -> bool:
        return any(mark_of(n) != self.ai_side for n in range(self.given, len(self.moves)))


def _replayed(moves: tuple[int, ...], given: int) -> ttt.Board:
    """The board `moves` lead to; GameError if the `given` first moves are not among them."""
    if type(given) is not int or not 0 <= given <= len(moves):
        raise GameError("The starting position is not in the game.")
    board = ttt.initial_state()
    for cell in moves:
        board = _after(board, cell)
    return board


def _after(board: ttt.Board, cell: int) -> ttt.Board:
    """The board after a move at `cell`; GameError if the game was over."""
    if ttt.terminal(board):
        raise GameError("Moves after the end of the game.")
    return ttt.result(board, _action(cell))


def _action(cell: int) -> ttt.Action:
    if type(cell) is not int or not 0 <= cell <= 8:
        raise ttt.InvalidMoveError(f"no cell {cell!r}")
    return action_of(cell)
