"""Where rooms live: the `rooms` table of the sessions' store (SQLite or Redis), so that any
worker on any host serves them. A change is a function from the room as it is to the room as
it should be, written by compare-and-set; if another request wrote first, the change is made
again on the room as it is now (every room action checks the turn, the move number and the
round, so this is safe). A change that also changes the session (a seat taken or given up)
writes the rooms and the session together, all or nothing: a request that loses the
session's race leaves no seat and no room behind. A room nobody sits in any more is deleted;
one nobody changes expires. Each change wakes the room's live streams (live.Watch)."""

from __future__ import annotations

from collections.abc import Callable

from flask import Flask, after_this_request, current_app

from ..core.room import Room, RoomError
from ..core.room_record import valid_id
from ..store.base import Store, Table, Write, WriteConflict
from ..store.live import PollingWatch, PublishingWatch, Watch
from ..web.errors import StoreFull
from ..web.sessions import Upkeep, tables, write_with_session

Change = Callable[[Room | None], Room | None]  # the room as it is, to the room as it should be

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

    def update(self, room_id: str, change: Change) -> Room | None:
        """Write change(room) in place of the room; return what it is now (None: gone). A
        change that raises (RoomError, NotFound) writes nothing."""
        return self.change({room_id: change})[room_id]

    def change(self, changes: dict[str, Change], session_data: dict | None = None) -> dict[str, Room | None]:
        """Make each change to its room and, if `session_data` is given, store the session as
        that: all in one write or none (a lost race of the session: SessionChanged). A room
        that someone else changed meanwhile is changed again as it is now. The rooms as they
        are now (None: gone)."""
        for _ in range(ATTEMPTS):
            if (now := self._try(changes, session_data)) is not None:
                return now
        raise RoomError("Someone else changed the room at the same moment. Here it is now; please try again.")

    def _try(self, changes: dict[str, Change], session_data: dict | None) -> dict[str, Room | None] | None:
        """One try of `change`; None if a room moved on between its read and the write."""
        found = {room_id: self.read(room_id) for room_id in changes}
        new = {room_id: change(found[room_id][0]) for room_id, change in changes.items()}
        planned = [self._write(room_id, *found[room_id], new[room_id]) for room_id in changes]
        writes = [write for write in planned if write is not None]
        try:
            self._commit(writes, session_data)
        except WriteConflict:
            return None
        self._written(writes)
        return {room_id: None if room is None or room.empty else room for room_id, room in new.items()}

    def _commit(self, writes: list[Write], session_data: dict | None) -> None:
        if any(not write.version and write.data for write in writes) and not self.upkeep.room_for_one_more(self.table):
            raise StoreFull()  # full of rooms played in too recently to make room
        if session_data is not None:
            write_with_session(writes, session_data)
        elif writes:
            self.store.write_all(writes)

    def _write(self, room_id: str, room: Room | None, version: int, new: Room | None) -> Write | None:
        """The write that puts `new` in place of `room` (at `version`); None if nothing changes."""
        if new == room:
            return None
        return Write(self.table, room_id, None if new is None or new.empty else new.to_data(), version)

    def _written(self, writes: list[Write]) -> None:
        """Wake the changed rooms' streams; tidy after the response if a new room took the
        table over its cap."""
        for write in writes:
            self.watch.changed(write.key)
        if any(not write.version and write.data for write in writes) and self.upkeep.over_cap(self.table):
            after_this_request(self.upkeep.run_after)


def init_app(app: Flask) -> None:
    store, table = app.extensions["ttt.store"], tables(app)[1]
    watch: Watch
    if app.config.get("REDIS_URL"):  # the store is Redis's
        watch = PublishingWatch(store.client, f"{store.prefix}rooms:changed", app.logger)
    else:
        watch = PollingWatch(store, table, app.logger)
    app.extensions["ttt.rooms"] = Rooms(store, table, app.extensions["ttt.upkeep"], watch)


def rooms() -> Rooms:
    return current_app.extensions["ttt.rooms"]
