"""Live rooms: each process knows which rooms its open event streams follow, and wakes those
streams when a room changes.

On SQLite, one background loop per process reads the versions of every followed room in one
query each POLL_SECONDS: one check per room per process, however many streams follow it, and
a change made by any process on the host is seen. With Redis, a change is published on one
channel and one subscriber per process hears it, so a move made on one host reaches streams
on another. Threads and locks here are greenlets and gevent's locks under gunicorn's gevent
workers (it patches the standard library before the app loads).
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TypeVar

import redis

from .base import STORE_ERRORS, Table
from .sqlite import SQLiteStore

POLL_SECONDS = 0.1  # on SQLite: how often a process reads the versions of the rooms it follows
FRESH_SECONDS = 1.0  # a room read for one stream serves the process's other streams this long
T = TypeVar("T")


class Follower:
    """One stream following one room: `version` is the room's version it last sent."""

    def __init__(self, version: int) -> None:
        self.version = version
        self.woken = threading.Event()

    def wait(self, timeout: float) -> bool:
        """Until the room may have changed (True) or `timeout` seconds pass (False)."""
        woken = self.woken.wait(timeout)
        self.woken.clear()
        return woken


class Watch:
    """The rooms this process's streams follow, and the one loop that notices their changes.
    `closing`: the process is shutting down, and its streams end (their browsers reconnect
    to another worker) rather than hold the shutdown up."""

    def __init__(self, logger: logging.Logger) -> None:
        self.logger = logger
        self.closing = False
        self._followers: dict[str, set[Follower]] = {}
        self._lock = threading.Lock()
        self._pid = 0
        self._changes: dict[str, int] = {}  # room: how many times it was woken
        self._latest: dict[str, tuple[int, float, object]] = {}  # room: (_changes then, when, what was read)
        self._reading: dict[str, threading.Lock] = {}
        WATCHES.add(self)

    @contextmanager
    def follow(self, room_id: str, version: int) -> Iterator[Follower]:
        follower = Follower(version)
        with self._lock:
            if self._pid != os.getpid():  # the first stream of this process starts its loop
                self._pid, self._followers = os.getpid(), {}
                threading.Thread(target=self._loop_forever, name="ttt-live", daemon=True).start()
            self._followers.setdefault(room_id, set()).add(follower)
        try:
            yield follower
        finally:
            with self._lock:
                followers = self._followers.get(room_id, set())
                followers.discard(follower)
                if not followers:
                    for per_room in (self._followers, self._changes, self._latest, self._reading):
                        per_room.pop(room_id, None)

    def read(self, room_id: str, read: Callable[[str], T]) -> T:
        """read(room_id), shared: when a change wakes a thousand streams of one room, the
        first reads the room and the others take what it read (until the next change, and
        for FRESH_SECONDS at most, so that a heartbeat still finds a change nobody announced)."""
        with self._lock:
            reading = self._reading.setdefault(room_id, threading.Lock())
        with reading:
            changes = self._changes.get(room_id, 0)
            then, when, value = self._latest.get(room_id, (-1, 0.0, None))
            if then != changes or time.monotonic() - when > FRESH_SECONDS:
                value = read(room_id)  # a wake meanwhile makes this out of date at once
                self._latest[room_id] = (changes, time.monotonic(), value)
            return value

    def wake(self, room_id: str, version: int | None = None) -> None:
        """Wake the streams of a room that changed; given its `version`, only those behind it."""
        with self._lock:
            followers = list(self._followers.get(room_id, ()))
            if version is None or any(follower.version != version for follower in followers):
                self._changes[room_id] = self._changes.get(room_id, 0) + 1
        for follower in followers:
            if version is None or follower.version != version:
                follower.woken.set()

    def rooms(self) -> list[str]:
        with self._lock:
            return list(self._followers)

    def close(self) -> None:
        self.closing = True
        for room_id in self.rooms():
            self.wake(room_id)

    def changed(self, room_id: str) -> None:
        """A request of this process changed the room."""
        self.wake(room_id)

    def _loop_forever(self) -> None:
        while True:
            try:
                self._loop()
            except STORE_ERRORS as exc:  # the streams check the room themselves at each heartbeat
                self.logger.warning("live rooms: %s", exc)
                time.sleep(1)

    def _loop(self) -> None:
        raise NotImplementedError


WATCHES: weakref.WeakSet[Watch] = weakref.WeakSet()


def end_streams() -> None:
    """End every stream of this process: it is shutting down (ttt_web.server.worker)."""
    for watch in list(WATCHES):
        watch.close()


class PollingWatch(Watch):
    """SQLite: the versions of all followed rooms, in one query, every POLL_SECONDS."""

    def __init__(self, store: SQLiteStore, table: Table, logger: logging.Logger) -> None:
        super().__init__(logger)
        self.store, self.table = store, table

    def _loop(self) -> None:
        while True:
            time.sleep(POLL_SECONDS)
            followed = self.rooms()
            if followed:
                versions = self.store.versions(self.table, followed)
                for room_id in followed:
                    self.wake(room_id, versions.get(room_id, 0))


class PublishingWatch(Watch):
    """Redis: each change is published (the room's id) on `channel`, and one subscriber per
    process wakes that process's streams."""

    def __init__(self, client: redis.Redis, channel: str, logger: logging.Logger) -> None:
        super().__init__(logger)
        self.client, self.channel = client, channel

    def changed(self, room_id: str) -> None:
        try:
            self.client.publish(self.channel, room_id)
        except redis.RedisError as exc:  # the change is stored: streams find it at their next heartbeat
            self.logger.warning("live rooms: could not publish a change: %s", exc)

    def _loop(self) -> None:
        subscriber = self.client.pubsub(ignore_subscribe_messages=True)
        try:
            subscriber.subscribe(self.channel)
            for room in self.rooms():  # changes missed while (re)connecting
                self.wake(room)
            for message in subscriber.listen():
                self.wake(message["data"].decode())
        finally:
            subscriber.close()
