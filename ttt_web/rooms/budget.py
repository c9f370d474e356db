"""How many event streams a process holds open: in all, per client network (web.limits's
client_network: an IPv4 /24, an IPv6 /64) and per room, each bound well under gunicorn's
`worker_connections`, so that streams never take the places ordinary requests need. A stream
past a bound is refused at once (429 for a network over its share, else 503), and its page
falls back to reloading (static/live.js).

A seated player's stream always finds a place while onlookers hold any: past a bound, it
takes the place of an onlooker's stream under that bound (from the network holding the most
streams), whose page then reloads by itself. So a flood of streams from a few networks holds
at most their shares, and never the places of the players of a game.

A stream ends when its room changes to gone, when STREAM_SECONDS pass, when a write fails
(its client has gone: a heartbeat every HEARTBEAT_SECONDS finds out), or when its place is
taken back (`Slot.drop`). Its place is given back when its response closes.

The places are counted here, not by a gevent semaphore: a share per network and the choice
of the onlooker who makes way need to know who holds each place, which a semaphore does not.
Numbers per process (each gunicorn worker has its own); see app.py's settings."""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field


class OverBudget(Exception):
    """No place for another stream; `mine` when the client's network itself holds its share."""

    def __init__(self, mine: bool) -> None:
        super().__init__("over the network's share of streams" if mine else "no place for another stream")
        self.mine = mine


@dataclass(eq=False)
class Slot:
    """One stream's place: its client's network, its room, whether a seated player holds it.
    `dropped` is set when the place is taken back for a seated player's stream."""

    network: str
    room_id: str
    seated: bool
    dropped: threading.Event = field(default_factory=threading.Event)
    wake: list = field(default_factory=list)  # callables that wake the stream's greenlet

    def drop(self) -> None:
        self.dropped.set()
        for wake in self.wake:
            wake()


class StreamBudget:
    def __init__(self, total: int, per_network: int, per_room: int) -> None:
        self.total, self.per_network, self.per_room = total, per_network, per_room
        self.slots: list[Slot] = []  # oldest first
        self.networks: Counter[str] = Counter()
        self.rooms: Counter[str] = Counter()
        self._lock = threading.Lock()  # for threaded servers; uncontended under gevent

    def take(self, network: str, room_id: str, seated: bool = False) -> Slot:
        """A place for a new stream; OverBudget if a bound is full (and, for a seated
        player's stream, no onlooker under it can make way)."""
        slot = Slot(network, room_id, seated)
        with self._lock:
            while full := self._full(slot):
                kind, under = full[0]
                if not (seated and self._make_way(under)):
                    raise OverBudget(mine=kind == "network")
            self.slots.append(slot)
            self.networks[network] += 1
            self.rooms[room_id] += 1
        return slot

    def give_back(self, slot: Slot) -> None:
        with self._lock:
            if slot in self.slots:
                self._remove(slot)

    def _full(self, new: Slot) -> list[tuple[str, Callable[[Slot], bool]]]:
        """The bounds a new stream would pass: which ("network", "room", "total"), and a test
        of whether a stream counts under it."""
        full: list[tuple[str, Callable[[Slot], bool]]] = []
        if self.networks[new.network] >= self.per_network:
            full.append(("network", lambda slot: slot.network == new.network))
        if self.rooms[new.room_id] >= self.per_room:
            full.append(("room", lambda slot: slot.room_id == new.room_id))
        if len(self.slots) >= self.total:
            full.append(("total", lambda slot: True))
        return full

    def _make_way(self, under: Callable[[Slot], bool]) -> bool:
        """Take back the place of an onlooker's stream under a bound, from the network that
        holds the most streams; False if there is none."""
        onlookers = [slot for slot in self.slots if not slot.seated and under(slot)]
        if not onlookers:
            return False
        leaving = max(onlookers, key=lambda slot: self.networks[slot.network])
        self._remove(leaving)
        leaving.drop()
        return True

    def _remove(self, slot: Slot) -> None:
        self.slots.remove(slot)
        for counter, key in ((self.networks, slot.network), (self.rooms, slot.room_id)):
            counter[key] -= 1
            if not counter[key]:
                del counter[key]
