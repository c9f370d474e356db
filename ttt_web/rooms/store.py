"""Where rooms live: the `rooms` table of the sessions' store (SQLite or Redis), so that any
worker on any host serves them. A change is a function from the room as it is to the room as
it should be, written by compare-and-set; if another request wrote first, the change is made
again on the room as it is now (every room action checks the turn, the move number and the
round, so this is safe). A room nobody sits in any more is deleted; one nobody changes
expires. Each change wakes the room's live streams (live.Watch)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, after_this_request, current_app

from ..core.room import Room, RoomError, valid_id
from ..store.base import Store, Table
from ..store.live import PollingWatch, PublishingWatch, Watch
from ..store.redis import RedisStore
from ..web.sessions import Upkeep, tables

ATTEMPTS = 3  # tries of one change before the player is told that the room is busy


class Rooms:
    def __init__(self, store: Store, table: Table, upkeep: Upkeep, watch: Watch) -> None:
        self.store = store
        self.table = table
        self.upkeep = upkeep
        self.watch = watch

    def get(self, room_id: str) -> Room | None:
        return self.read(room_id)[0]

    def read(self, room_id: str) -> tuple[Room | None, int]:
        """The room and the version of its record (0: none)."""
        record = self.store.get(self.table, room_id) if valid_id(room_id) else None
        room = Room.from_data(record.data) if record else None
        return room, record.version if record and room else 0

    def update(self, room_id: str, change: Callable[[Room | None], Room]) -> Room | None:
        """Write change(room) in place of the room; return what it is now (None: gone). A
        change that raises (RoomError, NotFound) writes nothing."""
        for _ in range(ATTEMPTS):
            room, version = self.read(room_id)
            new = change(room)
            if new == room:
                return room
            if new.empty:
                written = not version or self.store.delete(self.table, room_id, version)
                new = None
            else:
                written = self.store.put(self.table, room_id, new.to_data(), version)
                if written and not version and self.upkeep.over_cap(self.table):
                    after_this_request(self.upkeep.run_after)
            if written:
                self.watch.changed(room_id)
                return new
        raise RoomError("Someone else changed the room at the same moment. Here it is now; please try again.")


def init_app(app: Flask) -> None:
    store, table = app.extensions["ttt.store"], tables(app)[1]
    if isinstance(store, RedisStore):
        watch = PublishingWatch(store.client, f"{store.prefix}rooms:changed", app.logger)
    else:
        watch = PollingWatch(store, table, app.logger)
    app.extensions["ttt.rooms"] = Rooms(store, table, app.extensions["ttt.upkeep"], watch)


def rooms() -> Rooms:
    return current_app.extensions["ttt.rooms"]
