"""A room: games between two people on two devices, through a link. Plain JSON-native
data, kept in the shared store under the room's id, so that any worker on any host serves
it; each player's session holds only the key to their seat, and the room keeps a hash of it.

The host's seat (first taken by whoever made the room) plays X in odd rounds and O in even
ones: sides swap at each rematch, so each opens in turn. A player who leaves gives up their
seat, not the room: the other keeps the board and the score, and someone new may sit down.
Every change returns a new Room (one with both seats empty is deleted); a refused one raises
RoomError with the reason, for the player.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from dataclasses import asdict, dataclass, fields, replace
from functools import cached_property

from ..core import tictactoe as ttt
from .game import Game, GameError
from .options import name_problem, valid_name

HOST, GUEST = 0, 1
ID_LENGTH = 22  # characters of a room id: 16 bytes, URL-safe
ID_NONCE = 10  # of which random: 80 bits; the other 6 sign them (issued)


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


def issue_id(secret: bytes) -> str:
    """A new room's id: random, and signed with the site's `secret`, so that an id the site
    never issued can be told from a room that has closed without keeping closed rooms."""
    nonce = secrets.token_bytes(ID_NONCE)
    return base64.urlsafe_b64encode(nonce + _id_signature(nonce, secret)).decode().rstrip("=")


def issued(room_id: str, secret: bytes) -> bool:
    """Whether `room_id` is one issue_id made with `secret` (the room may have closed since)."""
    if not valid_id(room_id):
        return False
    try:
        raw = base64.urlsafe_b64decode(room_id + "==")
    except ValueError:
        return False
    return len(raw) == 16 and hmac.compare_digest(raw[ID_NONCE:], _id_signature(raw[:ID_NONCE], secret))


def _id_signature(nonce: bytes, secret: bytes) -> bytes:
    return hmac.new(secret, b"room id:" + nonce, hashlib.sha256).digest()[: 16 - ID_NONCE]


@dataclass(frozen=True)
class Room:
    id: str
    seats: tuple[str, str]  # hashes of the host's and the guest's seat keys; "" while free
    token: str  # this round's secret: each seat's own token is made from it (seat_token)
    link: str  # the room's address in full, fixed when the room is made: to share, as a QR code
    moves: tuple[int, ...] = ()
    round: int = 1
    resigned: int | None = None  # the player who resigned (or left during) this round
    offer: int | None = None  # the player who offered a rematch of this finished round
    declined: bool = False  # and whether the other said no
    vacated: bool = False  # a player left, and nobody has taken their seat yet
    score: tuple[int, int, int] = (0, 0, 0)  # the host's wins, the guest's wins, draws
    names: tuple[str, str] = ("", "")  # the host's and the guest's, if they gave them
    leaver: str = ""  # the name of the player who left the free seat, until someone takes it

    @classmethod
    def open(cls, host_key: str, link: Callable[[str], str], name: str = "", *, secret: bytes) -> Room:
        """A new room with the host seated and the guest's seat free; `link(id)` is its address;
        its id is signed with `secret` (issue_id)."""
        if name_problem(name):
            raise RoomError(name_problem(name))
        room_id = issue_id(secret)
        return cls(id=room_id, seats=(seat_hash(host_key), ""), token=new_key(), link=link(room_id), names=(name, ""))

    @classmethod
    def from_data(cls, data: object) -> Room | None:
        """The room as stored, or None if it is not a valid one."""
        try:
            values = {name: data[name] for name in FIELDS if name in data or name not in ADDED}
            values.update({name: tuple(values[name]) for name in ("seats", "moves", "score", "names")})
            room = cls(**values)
            room.game  # noqa: B018 - replays the moves: illegal ones raise
        except (KeyError, TypeError, ValueError, ttt.InvalidMoveError):
            return None
        return room if room._well_formed() else None

    def _well_formed(self) -> bool:
        return valid_id(self.id) and self._well_formed_texts() and self._well_formed_counts()

    def _well_formed_texts(self) -> bool:
        texts = (self.id, self.token, self.link, self.leaver, *self.seats, *self.names)
        return (
            len(self.seats) == 2
            and len(self.names) == 2
            and all(isinstance(text, str) for text in texts)
            and all(valid_name(name) for name in (*self.names, self.leaver))
        )

    def _well_formed_counts(self) -> bool:
        """The score, the round, and who resigned, offers or declined a rematch or left."""
        return (
            len(self.score) == 3
            and all(type(n) is int and n >= 0 for n in (*self.score, self.round))
            and self.resigned in (None, HOST, GUEST)
            and self.offer in (None, HOST, GUEST)
            and isinstance(self.declined, bool)
            and isinstance(self.vacated, bool)
        )

    def to_data(self) -> dict:
        return {name: list(value) if isinstance(value, tuple) else value for name, value in asdict(self).items()}

    # What the room is now.

    @cached_property
    def game(self) -> Game:
        """This round's game, as two players on one screen would play it."""
        return Game(token=self.token, mode="friend", moves=self.moves)

    @property
    def full(self) -> bool:
        return all(self.seats)

    @property
    def empty(self) -> bool:
        return not any(self.seats)

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

    def name(self, who: int) -> str:
        """The name of player `who`: of the one who left, while their seat is free."""
        return self.names[who] or (self.leaver if not self.seats[who] else "")

    def seat_token(self, who: int) -> str:
        """What proves a button or a link of this round was shown to player `who`: each seat
        has its own, so that one player cannot make a link that moves for the other."""
        digest = hmac.new(self.token.encode(), self.seats[who].encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest[:16]).decode().rstrip("=")

    def mark(self, who: int) -> str:
        """The mark player `who` plays this round."""
        host_is_x = self.round % 2 == 1
        return ttt.X if (who == HOST) == host_is_x else ttt.O

    def whose_turn(self) -> int | None:
        """The player to move, or None when nobody can move."""
        if not self.full or self.over:
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
        """Take the free seat. The one who stayed keeps their wins in this room; the newcomer
        starts at none, and so do the draws (they were with someone else). A new round starts
        if this one has begun."""
        if self.player(key) is not None:
            return self
        if self.full:
            raise RoomError("Both seats are taken: you can watch the game.")
        free = self.seats.index("")
        other = self.names[1 - free]
        if name_problem(name):
            raise RoomError(name_problem(name))
        if name and name.casefold() == other.casefold():
            raise RoomError(f"Choose a name that is not your friend's ({other}).")
        seats, names = list(self.seats), list(self.names)
        seats[free], names[free] = seat_hash(key), name
        score = [0, 0, 0]
        score[1 - free] = self.score[1 - free]
        joined = replace(self, seats=tuple(seats), names=tuple(names), score=tuple(score), vacated=False, leaver="")
        return joined._next_round() if self.moves or self.resigned is not None else joined

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
        """Offer the next round, sides swapped; or accept the other player's offer, which
        starts it. Only once this round is over."""
        self._check(who, token)
        if not self.over:
            raise RoomError("Finish or resign this game first.")
        if not self.full:
            raise RoomError("Your friend has left: send the link to someone else to play again.")
        if self.offer == 1 - who:
            return self._next_round()
        return replace(self, offer=who, declined=False)

    def decline(self, who: int | None, token: str) -> Room:
        self._check(who, token)
        if not self.over or self.offer != 1 - who:
            raise RoomError("There is no offer to decline.")
        return replace(self, declined=True)

    def leave(self, who: int | None) -> Room:
        """Player `who` gives up their seat; a game under way counts as resigned. The other
        keeps the board and their wins; the leaver's name stays (`leaver`) until someone takes the
        seat. Both seats empty: the room is over (`empty`)."""
        if who is None:
            raise RoomError("You have no seat in this room.", 403)
        room = self
        if self.full and self.moves and not self.over:
            room = replace(self, resigned=who)._scored()
        seats, names = list(room.seats), list(room.names)
        seats[who], names[who] = "", ""
        changes = {"offer": None, "declined": False, "vacated": True, "leaver": room.names[who]}
        return replace(room, seats=tuple(seats), names=tuple(names), **changes)

    def _next_round(self) -> Room:
        return replace(self, token=new_key(), moves=(), round=self.round + 1, resigned=None, offer=None, declined=False)

    def _check(self, who: int | None, token: str) -> None:
        if who is None:
            raise RoomError("You have no seat in this room: you can watch, not play.", 403)
        if not hmac.compare_digest(token.encode(), self.seat_token(who).encode()):
            raise RoomError("That link or button is from another round, room or seat. Here is the game now.", 403)

    def _scored(self) -> Room:
        """The room with this round's result counted, if the round just ended."""
        if not self.over:
            return self
        winner = self.winner()
        tally = list(self.score)
        tally[2 if winner is None else winner] += 1
        return replace(self, score=tuple(tally))


FIELDS = tuple(field.name for field in fields(Room))
ADDED = ("leaver",)  # fields that rooms stored before them lack: those take their default
