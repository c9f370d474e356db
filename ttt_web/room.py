"""A room: games between two people on two devices, through a link. Plain JSON-native
data, kept in the shared store under the room's id, so that any worker on any host serves
it; each player's session holds only the key to their seat, and the room keeps a hash of it.

The host (who made the room) plays X in odd rounds and O in even ones: sides swap at each
rematch, so each opens in turn. Every change returns a new Room; a refused one raises
RoomError with the reason, for the player.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, replace
from functools import cached_property

from . import tictactoe as ttt
from .game import Game, GameError, valid_name

HOST, GUEST = 0, 1
ID_LENGTH = 22  # characters of a room id: 128 random bits, URL-safe


class RoomError(ValueError):
    """A request that does not fit the room: the message says why, for the player; `status`
    is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


def new_key() -> str:
    """A secret that proves a seat: it stays in its player's session."""
    return secrets.token_urlsafe(16)


def seat_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def valid_id(text: str) -> bool:
    return len(text) == ID_LENGTH and text.isascii() and all(c.isalnum() or c in "-_" for c in text)


@dataclass(frozen=True)
class Room:
    id: str
    seats: tuple[str, str]  # hashes of the host's and the guest's seat keys; "" while free
    token: str  # this round's: a link from an earlier round is refused
    moves: tuple[int, ...] = ()
    round: int = 1
    resigned: int | None = None  # the player who resigned this round
    closed: bool = False  # a player left: nobody plays here any more
    score: tuple[int, int, int] = (0, 0, 0)  # the host's wins, the guest's wins, draws
    names: tuple[str, str] = ("", "")  # the host's and the guest's, if they gave them

    @classmethod
    def open(cls, host_key: str, name: str = "") -> Room:
        """A new room with the host seated and the guest's seat free."""
        if not valid_name(name):
            raise RoomError("A name is up to 12 letters, digits or spaces.")
        room_id = secrets.token_urlsafe(16)
        return cls(id=room_id, seats=(seat_hash(host_key), ""), token=secrets.token_urlsafe(16), names=(name, ""))

    @classmethod
    def from_data(cls, data: object) -> Room | None:
        """The room as stored, or None if it is not a valid one."""
        try:
            room = cls(
                id=data["id"],
                seats=tuple(data["seats"]),
                token=data["token"],
                moves=tuple(data["moves"]),
                round=data["round"],
                resigned=data["resigned"],
                closed=data["closed"],
                score=tuple(data["score"]),
                names=tuple(data["names"]),
            )
            room.game  # noqa: B018 - replays the moves: illegal ones raise
        except (KeyError, TypeError, ValueError, ttt.InvalidMoveError):
            return None
        return room if room._well_formed() else None

    def _well_formed(self) -> bool:
        texts = (self.id, self.token, *self.seats, *self.names)
        return (
            valid_id(self.id)
            and len(self.seats) == 2
            and len(self.names) == 2
            and all(isinstance(text, str) for text in texts)
            and all(valid_name(name) for name in self.names)
            and len(self.score) == 3
            and all(type(n) is int and n >= 0 for n in (*self.score, self.round))
            and self.resigned in (None, HOST, GUEST)
            and isinstance(self.closed, bool)
        )

    def to_data(self) -> dict:
        return {
            "id": self.id,
            "seats": list(self.seats),
            "token": self.token,
            "moves": list(self.moves),
            "round": self.round,
            "resigned": self.resigned,
            "closed": self.closed,
            "score": list(self.score),
            "names": list(self.names),
        }

    # What the room is now.

    @cached_property
    def game(self) -> Game:
        """This round's game, as two players on one screen would play it."""
        return Game(token=self.token, mode="friend", moves=self.moves)

    @property
    def full(self) -> bool:
        return all(self.seats)

    @property
    def over(self) -> bool:
        return self.game.over or self.resigned is not None

    def player(self, key: str | None) -> int | None:
        """HOST or GUEST for the holder of seat key `key`; None for anyone else."""
        if not key:
            return None
        digest = seat_hash(key)
        for who, seat in enumerate(self.seats):
            if seat and hmac.compare_digest(seat, digest):
                return who
        return None

    def mark(self, who: int) -> str:
        """The mark player `who` plays this round."""
        host_is_x = self.round % 2 == 1
        return ttt.X if (who == HOST) == host_is_x else ttt.O

    def whose_turn(self) -> int | None:
        """The player to move, or None when nobody can move."""
        if self.closed or not self.full or self.over:
            return None
        return HOST if self.mark(HOST) == self.game.to_move else GUEST

    def winner(self) -> int | None:
        """The player who won this round, if it is over and not a draw."""
        if self.resigned is not None:
            return 1 - self.resigned
        mark = self.game.winner
        if mark is None:
            return None
        return HOST if self.mark(HOST) == mark else GUEST

    # Changes.

    def join(self, key: str, name: str = "") -> Room:
        if self.closed:
            raise RoomError("This room has closed: a player left.")
        if self.player(key) is not None:
            return self
        if self.full:
            raise RoomError("Both seats are taken: you can watch the game.")
        if not valid_name(name) or (name and name.casefold() == self.names[HOST].casefold()):
            raise RoomError("A name is up to 12 letters, digits or spaces, and not your friend's.")
        return replace(self, seats=(self.seats[HOST], seat_hash(key)), names=(self.names[HOST], name))

    def play(self, who: int | None, cell: int, number: int, token: str) -> Room:
        """Player `who` plays `cell` on the board they were shown (move `number`, round `token`)."""
        self._check(who, token)
        if self.over:
            raise RoomError("This game is over.")
        if not self.full:
            raise RoomError("Your friend has not joined yet.")
        if number != self.game.number:
            raise RoomError("That link is out of date: the board has changed since. Here it is now.")
        if self.whose_turn() != who:
            raise RoomError("It is not your turn.")
        try:
            played = replace(self, moves=(*self.moves, cell))
            played.game  # noqa: B018 - replays the moves: a taken cell raises
        except (GameError, ttt.InvalidMoveError) as exc:
            raise RoomError("That cell is already taken.") from exc
        return played._scored()

    def resign(self, who: int | None, token: str) -> Room:
        self._check(who, token)
        if self.over or not self.full:
            raise RoomError("There is no game under way to resign.")
        return replace(self, resigned=who)._scored()

    def rematch(self, who: int | None, token: str) -> Room:
        """The next round, sides swapped; only once this one is over."""
        self._check(who, token)
        if not self.over:
            raise RoomError("Finish or resign this game first.")
        return replace(self, token=secrets.token_urlsafe(16), moves=(), round=self.round + 1, resigned=None)

    def leave(self, who: int | None) -> Room:
        """Player `who` leaves: the room closes, and an unfinished game is not scored."""
        if who is None:
            raise RoomError("You have no seat in this room.", 403)
        return replace(self, closed=True)

    def _check(self, who: int | None, token: str) -> None:
        if who is None:
            raise RoomError("You have no seat in this room: you can watch, not play.", 403)
        if self.closed:
            raise RoomError("This room has closed: a player left.")
        if not hmac.compare_digest(token.encode(), self.token.encode()):
            raise RoomError("That link or button is from another round or room. Here is the game now.", 403)

    def _scored(self) -> Room:
        """The room with this round's result counted, if the round just ended."""
        if not self.over:
            return self
        winner = self.winner()
        tally = list(self.score)
        tally[2 if winner is None else winner] += 1
        return replace(self, score=tuple(tally))
