"""A storage for the `limits` package in a SQLite database: the rate limits' counters shared by
every worker on the host, as the embedded store's records are.

`limits` ships a storage in the process's memory, and storages in Redis, Memcached and
MongoDB. In memory, each gunicorn worker would count on its own (a limit of 60 would let 60
through each worker); the others are servers that the embedded store exists to do without.
`limits` documents how to add a storage ("Custom storage backends": subclass
`limits.storage.Storage`, implement its abstract methods), and a fixed window needs only a
counter and its expiry per key: one atomic statement each.

Each statement is its own transaction; a process keeps one connection (under gevent, a
statement never yields). A statement that finds another worker writing is tried again after
a cooperative sleep, as in the store (ttt_web/store/sqlite.py), for up to BUSY_WAIT seconds.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable
from typing import Any, TypeVar

from limits.storage import Storage

BUSY_WAIT = 1.0
PAUSE = 0.0005
TIDY_EVERY = 256  # counts between two removals of expired counters, per process
T = TypeVar("T")

SCHEMA = "CREATE TABLE IF NOT EXISTS counters (key TEXT PRIMARY KEY, n INTEGER NOT NULL, expires REAL NOT NULL)"
INCR = """
INSERT INTO counters (key, n, expires) VALUES (:key, :amount, :expires)
ON CONFLICT (key) DO UPDATE SET
    n = CASE WHEN expires <= :now THEN :amount ELSE n + :amount END,
    expires = CASE WHEN expires <= :now THEN :expires ELSE expires END
RETURNING n
"""


class SQLiteStorage(Storage):
    """Counters in the SQLite database at `ttt+sqlite:///path`."""

    STORAGE_SCHEME = ["ttt+sqlite"]  # noqa: RUF012 - how limits' registry names it

    def __init__(self, uri: str, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.path = uri.removeprefix("ttt+sqlite://")
        self._connection: sqlite3.Connection | None = None
        self._pid = 0
        self._lock = threading.Lock()  # for threaded servers; uncontended under gevent
        self._counted = 0

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        self._counted += 1
        if self._counted % TIDY_EVERY == 0:
            self._run("DELETE FROM counters WHERE expires <= ?", (now,), lambda cursor: None)
        values = {"key": key, "amount": amount, "expires": now + expiry, "now": now}
        return self._run(INCR, values, lambda cursor: cursor.fetchone()[0])

    def get(self, key: str) -> int:
        row = self._run("SELECT n FROM counters WHERE key = ? AND expires > ?", (key, time.time()), _first)
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        row = self._run("SELECT expires FROM counters WHERE key = ? AND expires > ?", (key, now), _first)
        return row[0] if row else now

    def check(self) -> bool:
        try:
            return self._run("SELECT 1", (), _first) == (1,)
        except sqlite3.Error:
            return False

    def reset(self) -> int | None:
        return self._run("DELETE FROM counters", (), lambda cursor: cursor.rowcount)

    def clear(self, key: str) -> None:
        self._run("DELETE FROM counters WHERE key = ?", (key,), lambda cursor: None)

    def _run(self, sql: str, parameters: tuple | dict, result: Callable[[sqlite3.Cursor], T]) -> T:
        deadline = time.monotonic() + BUSY_WAIT
        while True:
            try:
                with self._lock:
                    return result(self._db().execute(sql, parameters))
            except sqlite3.OperationalError as exc:
                if exc.sqlite_errorcode & 0xFF not in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                    raise
                if time.monotonic() > deadline:
                    raise
            time.sleep(PAUSE)

    def _db(self) -> sqlite3.Connection:
        if self._connection is None or self._pid != os.getpid():  # a forked child opens its own
            os.makedirs(os.path.dirname(self.path) or ".", exist_ok=True)
            connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=0)
            connection.execute("PRAGMA journal_mode=WAL")
            connection.execute("PRAGMA synchronous=NORMAL")  # counters: losing the last second to a crash is fine
            connection.execute(SCHEMA)
            self._connection, self._pid = connection, os.getpid()
        return self._connection


def _first(cursor: sqlite3.Cursor) -> tuple | None:
    return cursor.fetchone()
