"""A room's rules: games between two people on two devices, through a link. What is stored
(the room's signed id, its seats, the moves, the score) is core/room_record.py.

The host's seat (first taken by whoever made the room) plays X in odd rounds and O in even
ones: sides swap at each rematch, so each opens in turn. A player who leaves gives up their
seat, not the room: the other keeps the board and the score, and someone new may sit down.
Every change returns a new Room (one with both seats empty is deleted); a refused one raises
RoomError with the reason, for the player.
"""

from __future__ import annotations

import hmac
from collections.abc import Callable
from dataclasses import dataclass, replace

from ..core import tictactoe as ttt
from .game import GameError
from .options import name_problem
from .room_record import GUEST, HOST, RoomRecord, issue_id, new_key, seat_hash


class RoomError(ValueError):
    """A request that does not fit the room: the message says why, for the player; `status`
    is the HTTP status to answer with."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class Room(RoomRecord):
    """The room's record (core/room_record.py), with its rules: whose turn it is, who won,
    and every change a player may make."""

    @classmethod
    def open(cls, host_key: str, link: Callable[[str], str], name: str = "", *, secret: bytes) -> Room:
        """A new room with the host seated and the guest's seat free; `link(id)` is its address;
        its id is signed with `secret` (issue_id)."""
        if name_problem(name):
            raise RoomError(name_problem(name))
        room_id = issue_id(secret)
        return cls(id=room_id, seats=(seat_hash(host_key), ""), token=new_key(), link=link(room_id), names=(name, ""))

    # What the room is now.

    @property
    def over(self) -> bool:
        return self.game.over or self.resigned is not None

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
        if self.seat_of(key) is not None:
            return self
        if self.full:
            raise RoomError("Both seats are taken: you can watch the game.")
        free = self.seats.index("")
        other = self.names[1 - free]
        if name_problem(name):
            raise RoomError(name_problem(name))
        if name and name.casefold() == other.casefold():
            raise RoomError(f"Choose a name that is not your friend's ({other}).")
        seats, names = _with(self.seats, free, seat_hash(key)), _with(self.names, free, name)
        score = (self.score[HOST], 0, 0) if free == GUEST else (0, self.score[GUEST], 0)  # the stayer's wins
        joined = replace(self, seats=seats, names=names, score=score, vacated=False, leaver="")
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
        starts it. Only once this round is over. A declined offer is gone: an offer made after
        it, by either player, waits for the other's yes."""
        who = self._check(who, token)
        if not self.over:
            raise RoomError("Finish or resign this game first.")
        if not self.full:
            raise RoomError("Your friend has left: send the link to someone else to play again.")
        if self.offer == 1 - who and not self.declined:
            return self._next_round()
        return replace(self, offer=who, declined=False)

    def decline(self, who: int | None, token: str) -> Room:
        who = self._check(who, token)
        if not self.over or self.offer != 1 - who:
            raise RoomError("There is no offer to decline.")
        return replace(self, declined=True)

    def leave(self, who: int | None) -> Room:
        """Player `who` gives up their seat; a game under way counts as resigned. The other
        keeps the board and their wins; the leaver's wins and the draws (played with them) go
        with them; the leaver's name stays (`leaver`) until someone takes the seat. Both seats
        empty: the room is over (`empty`)."""
        if who is None:
            raise RoomError("You have no seat in this room.", 403)
        room = self
        if self.full and self.moves and not self.over:
            room = replace(self, resigned=who)._scored()
        seats, names = _with(room.seats, who, ""), _with(room.names, who, "")
        score = [0, 0, 0]
        score[1 - who] = room.score[1 - who]  # the leaver's wins and the draws go with them
        return replace(
            room,
            seats=seats,
            names=names,
            score=(score[0], score[1], score[2]),
            offer=None,
            declined=False,
            vacated=True,
            leaver=room.names[who],
        )

    def _next_round(self) -> Room:
        return replace(self, token=new_key(), moves=(), round=self.round + 1, resigned=None, offer=None, declined=False)

    def _check(self, who: int | None, token: str) -> int:
        """The seat of a player whose link or button is of this round, room and seat."""
        if who is None:
            raise RoomError("You have no seat in this room: you can watch, not play.", 403)
        if not hmac.compare_digest(token.encode(), self.seat_token(who).encode()):
            raise RoomError("That link or button is from another round, room or seat. Here is the game now.", 403)
        return who

    def _scored(self) -> Room:
        """The room with this round's result counted, if the round just ended."""
        if not self.over:
            return self
        winner = self.winner()
        host, guest, draws = self.score
        return replace(self, score=(host + (winner == HOST), guest + (winner == GUEST), draws + (winner is None)))


def _with(pair: tuple[str, str], seat: int, value: str) -> tuple[str, str]:
    """The host's and the guest's entries, with the one of `seat` replaced by `value`."""
    return (value, pair[GUEST]) if seat == HOST else (pair[HOST], value)
