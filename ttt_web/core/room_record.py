"""A room as it is stored: plain JSON-native data under the room's id, which the site signs
(issue_id), and two seats, each held by whoever has its key (the room keeps only a hash of
it). What the room's rules make of it (turns, rounds, changes) is core/room.py.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import asdict, dataclass, fields
from functools import cached_property
from typing import Any, Self

from ..core import tictactoe as ttt
from .game import Game
from .options import valid_name

HOST, GUEST = 0, 1
ID_LENGTH = 22  # characters of a room id: 16 bytes, URL-safe
ID_NONCE = 10  # of which random: 80 bits; the other 6 sign them (issued)


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
class RoomRecord:
    """The room's fields, read from and written to the store, and who sits in it."""

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
    def from_data(cls, data: object) -> Self | None:
        """The room as stored, or None if it is not a valid one."""
        if not isinstance(data, dict):
            return None
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

    def to_data(self) -> dict[str, Any]:
        return {name: list(value) if isinstance(value, tuple) else value for name, value in asdict(self).items()}

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

    def seat_of(self, key: str | None) -> int | None:
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


FIELDS = tuple(field.name for field in fields(RoomRecord))
ADDED = ("leaver",)  # fields that rooms stored before them lack: those take their default
