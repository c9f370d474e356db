"""How many event streams a process holds open: in all, per client address and per room, each
bound well under the worker's connections, so that streams can never take the places that
ordinary requests need. A stream past a bound is refused at once (roomstream answers 429 to an
address over its share, else 503), and its page falls back to reloading (static/live.js).

A stream whose client has gone keeps its greenlet until its next write (a heartbeat, up to
HEARTBEAT_SECONDS later). So before refusing anyone, every stream's socket is checked (at most
every SWEEP_SECONDS, so that a flood of refused streams costs no more): those the client has
closed give up their place at once.

Numbers per process (each gunicorn worker has its own): a school behind one address with its
players in pairs spread over two workers needs one stream per player's page, so PER_ADDRESS
leaves room for a class of 60 and their second tabs; a room has two players and a few
onlookers."""

from __future__ import annotations

import _socket  # the C module: a probe that never waits, even when gevent has patched `socket`
import os
import socket
import threading
import time
from dataclasses import dataclass, field

SWEEP_SECONDS = 0.5  # at most one check of every stream's socket this often (some 1 ms for 250)


class OverBudget(Exception):
    """No place for another stream; `mine` when the address itself holds too many."""

    def __init__(self, mine: bool) -> None:
        super().__init__("over the address's share of streams" if mine else "no place for another stream")
        self.mine = mine


@dataclass(eq=False)
class Slot:
    """One stream's place: its client's address, its room, and its socket's file descriptor
    (-1: none known). `dropped` is set when the place is taken back from a closed stream."""

    address: str
    room_id: str
    fd: int = -1
    dropped: threading.Event = field(default_factory=threading.Event)
    wake: list = field(default_factory=list)  # callables that wake the stream's greenlet

    def drop(self) -> None:
        self.dropped.set()
        for wake in self.wake:
            wake()


class StreamBudget:
    def __init__(self, total: int, per_address: int, per_room: int) -> None:
        self.total, self.per_address, self.per_room = total, per_address, per_room
        self.slots: set[Slot] = set()
        self._lock = threading.Lock()
        self._next_sweep = 0.0

    def take(self, address: str, room_id: str, fd: int = -1) -> Slot:
        """A place for a new stream; OverBudget if every bound's closed streams are gone and
        one is still full."""
        slot = Slot(address, room_id, fd)
        with self._lock:
            full = self._full(slot)
            if full is not None and time.monotonic() >= self._next_sweep:
                self._next_sweep = time.monotonic() + SWEEP_SECONDS
                self._drop_closed()
                full = self._full(slot)
            if full is not None:
                raise OverBudget(mine=full == "address")
            self.slots.add(slot)
        return slot

    def give_back(self, slot: Slot) -> None:
        with self._lock:
            self.slots.discard(slot)

    def _full(self, new: Slot) -> str | None:
        """Which bound a new stream would pass: "address", "room", "total", or None."""
        if len(self.slots) >= self.total:
            return "total"
        if sum(slot.address == new.address for slot in self.slots) >= self.per_address:
            return "address"
        if sum(slot.room_id == new.room_id for slot in self.slots) >= self.per_room:
            return "room"
        return None

    def _drop_closed(self) -> None:
        """Take back the places of streams whose clients have gone (some 3 us a stream)."""
        closed = [slot for slot in self.slots if closed_by_peer(slot.fd)]
        for slot in closed:
            self.slots.discard(slot)
            slot.drop()


def closed_by_peer(fd: int) -> bool:
    """Whether the client closed the connection on `fd` (a stream's client sends nothing once
    it has asked, so anything to read is the end). Never waits."""
    if fd < 0:
        return False
    try:
        probe = _socket.socket(fileno=os.dup(fd))
    except OSError:
        return True
    try:
        return probe.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) == b""
    except BlockingIOError:
        return False
    except OSError:
        return True
    finally:
        probe.close()
