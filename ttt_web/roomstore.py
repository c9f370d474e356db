"""Where rooms live: the store both players' requests share, whichever worker or host serves
them. Files beside the sessions (one host), or Redis (any number of hosts), as the sessions
are. A room is JSON; every change is made under the room's own lock (the sessions' kind of
lock, on a name of the room's), and a room that nobody changes for `idle` seconds is gone.
Reading a room, as a waiting player's page does every couple of seconds, takes no lock and
writes nothing."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import redis
from flask import Flask, current_app

from .room import Room, valid_id
from .sessions import FileLocks, RedisLocks, open_healing

SWEEP_EVERY = 600.0  # seconds between two sweeps of the file store's expired rooms


class Change:
    """The room a locked change read (None if there is none), and the room to write."""

    def __init__(self, room: Room | None) -> None:
        self.room = room
        self.write: Room | None = None


class Rooms:
    """What both stores share: a change is read, made and written under the room's lock."""

    @contextlib.contextmanager
    def change(self, room_id: str) -> Iterator[Change]:
        if not valid_id(room_id):
            yield Change(None)
            return
        room, write, release = self._take(room_id)
        try:
            change = Change(room)
            yield change
            if change.write is not None:
                write(change.write)
        finally:
            release()
        if change.write is not None:
            self._written()

    def _take(self, room_id: str) -> tuple[Room | None, Callable[[Room], None], Callable[[], None]]:
        """Lock the room: (the room now, how to write it, how to let the lock go)."""
        raise NotImplementedError

    def _written(self) -> None:
        """After a write, with no lock held."""


class FileRooms(Rooms):
    """One JSON file per room, replaced whole, so a reader never sees half a room."""

    def __init__(self, directory: Path, idle: int) -> None:
        self.directory = directory
        self.idle = idle
        self.locks = FileLocks(directory / ".locks")
        (directory / ".locks").mkdir(parents=True, exist_ok=True)

    def get(self, room_id: str) -> Room | None:
        if not valid_id(room_id):
            return None
        try:
            record = json.loads((self.directory / f"{room_id}.json").read_bytes())
        except (FileNotFoundError, ValueError):  # none, or a damaged one: no game worth a 503
            return None
        if not isinstance(record, dict) or record.get("expires", 0) < time.time():
            return None
        return Room.from_data(record.get("room"))

    def _take(self, room_id: str) -> tuple[Room | None, Callable[[Room], None], Callable[[], None]]:
        release = self.locks.acquire(f"room:{room_id}")
        return self.get(room_id), self._write, release

    def _written(self) -> None:
        self._sweep_if_due()  # with no lock held: a sweep takes the locks of the rooms it removes

    def _write(self, room: Room) -> None:
        record = json.dumps({"expires": time.time() + self.idle, "room": room.to_data()}).encode()
        path = self.directory / f"{room.id}.json"
        temporary = path.with_suffix(f".{os.getpid()}.tmp")
        fd = open_healing(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, record)
        finally:
            os.close(fd)
        os.replace(temporary, path)

    def _sweep_if_due(self) -> None:
        """Remove expired rooms, at most once per SWEEP_EVERY across processes."""
        marker = self.directory / ".last-sweep"
        try:
            if time.time() - marker.stat().st_mtime < SWEEP_EVERY:
                return
        except FileNotFoundError:
            pass
        marker.touch()
        self.sweep()

    def sweep(self) -> int:
        """Remove expired rooms, and temporaries that a killed writer left."""
        removed = 0
        for path in self.directory.glob("*.tmp"):
            if time.time() - path.stat().st_mtime > 60:
                path.unlink(missing_ok=True)
        for path in self.directory.glob("*.json"):
            room_id = path.stem
            if self.get(room_id) is None and valid_id(room_id):
                with self.change(room_id) as change:  # a room revived meanwhile stays
                    if change.room is None:
                        path.unlink(missing_ok=True)
                        removed += 1
        return removed


class RedisRooms(Rooms):
    """One key per room, with the idle time as its expiry; changed through a fenced lock."""

    def __init__(self, client: redis.Redis, idle: int) -> None:
        self.client = client
        self.idle = idle
        self.locks = RedisLocks(client, store_id=lambda name: self.key(name.removeprefix("room:")))

    @staticmethod
    def key(room_id: str) -> str:
        return f"ttt:room:{room_id}"

    def get(self, room_id: str) -> Room | None:
        if not valid_id(room_id):
            return None
        return self._decode(self.client.get(self.key(room_id)))

    def _take(self, room_id: str) -> tuple[Room | None, Callable[[Room], None], Callable[[], None]]:
        lock = self.locks.acquire(f"room:{room_id}")

        def write(room: Room) -> None:
            lock.write_and_release(self.key(room_id), json.dumps(room.to_data()).encode(), self.idle, None)

        return self._decode(lock.record), write, lock  # calling the lock releases it, unless written

    @staticmethod
    def _decode(record: bytes | None) -> Room | None:
        try:
            return Room.from_data(json.loads(record)) if record else None
        except ValueError:
            return None


def init_app(app: Flask) -> None:
    idle = int(app.config["ROOM_IDLE_HOURS"] * 3600)
    if app.config.get("REDIS_URL"):
        client = app.session_interface.client  # the sessions' connection pool
        app.extensions["ttt.rooms"] = RedisRooms(client, idle)
    else:
        app.extensions["ttt.rooms"] = FileRooms(Path(app.config["ROOM_DIR"]), idle)


def rooms() -> FileRooms | RedisRooms:
    return current_app.extensions["ttt.rooms"]
