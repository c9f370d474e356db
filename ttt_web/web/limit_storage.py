"""A storage for the `limits` package in a SQLite database: the rate limits' counters shared by
every worker on the host, as the embedded store's records are.

`limits` ships a storage in the process's memory, and storages in Redis, Memcached and
MongoDB. In memory, each gunicorn worker would count on its own (a limit of 60 would let 60
through each worker); the others are servers that the embedded store exists to do without.
`limits` documents how to add a storage ("Custom storage backends": subclass
`limits.storage.Storage`, implement its abstract methods), and a fixed window needs only a
counter and its expiry per key: one atomic statement each, run as the store runs its own
(`store.sqlite.Database`).
"""

from __future__ import annotations

import sqlite3
import time
from typing import Any

from limits.storage import Storage

from ..store.sqlite import Database

TIDY_EVERY = 256  # counts between two removals of expired counters, per process

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
        self.database = Database(uri.removeprefix("ttt+sqlite://"), lambda db: db.execute(SCHEMA))
        self._counted = 0

    @property
    def base_exceptions(self) -> type[Exception]:
        return sqlite3.Error

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        self._counted += 1
        if self._counted % TIDY_EVERY == 0:
            self.database.execute("DELETE FROM counters WHERE expires <= ?", (now,), _nothing)
        values = {"key": key, "amount": amount, "expires": now + expiry, "now": now}
        return self.database.execute(INCR, values, lambda cursor: cursor.fetchone()[0])

    def get(self, key: str) -> int:
        sql = "SELECT n FROM counters WHERE key = ? AND expires > ?"
        row = self.database.execute(sql, (key, time.time()), _first)
        return row[0] if row else 0

    def get_expiry(self, key: str) -> float:
        now = time.time()
        row = self.database.execute("SELECT expires FROM counters WHERE key = ? AND expires > ?", (key, now), _first)
        return row[0] if row else now

    def check(self) -> bool:
        try:
            return self.database.execute("SELECT 1", (), _first) == (1,)
        except sqlite3.Error:
            return False

    def reset(self) -> int | None:
        return self.database.execute("DELETE FROM counters", (), lambda cursor: cursor.rowcount)

    def clear(self, key: str) -> None:
        self.database.execute("DELETE FROM counters WHERE key = ?", (key,), _nothing)


def _first(cursor: sqlite3.Cursor) -> tuple | None:
    return cursor.fetchone()


def _nothing(cursor: sqlite3.Cursor) -> None:
    return None
