"""The embedded store: one SQLite database in WAL mode, shared by every worker on the host.

Each statement is its own transaction (autocommit), so a write holds SQLite's lock for the
time of one small statement, and readers never wait for writers. A write of several records
(write_all: a room and a session) is one transaction of a few statements, all or nothing. A process keeps one
connection; under gevent a statement never yields, so greenlets take turns on it whole.

A statement that finds another process writing is tried again after a cooperative sleep
(SQLite's own busy handler would sleep 1 ms and more inside C, holding every greenlet of the
worker), for up to BUSY_WAIT seconds.
"""

from __future__ import annotations

import json
import math
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from .base import Record, Table, Write, WriteConflict, to_evict

BUSY_WAIT = 1.0  # seconds a statement waits for another process's write before it fails
PAUSE = 0.0005  # between two tries: a cooperative sleep, so gevent serves others meanwhile
BATCH = 500  # records removed per statement when tidying, so a worker is never held long

BUSY = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
T = TypeVar("T")

SCHEMA = """
CREATE TABLE IF NOT EXISTS {t} (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    data TEXT NOT NULL,
    expires REAL NOT NULL
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS {t}_expires ON {t} (expires);
CREATE INDEX IF NOT EXISTS {t}_written_once ON {t} (expires) WHERE version = 1;
INSERT OR IGNORE INTO counts VALUES ('{t}', (SELECT count(*) FROM {t}));
CREATE TRIGGER IF NOT EXISTS {t}_added AFTER INSERT ON {t}
    BEGIN UPDATE counts SET n = n + 1 WHERE name = '{t}'; END;
CREATE TRIGGER IF NOT EXISTS {t}_removed AFTER DELETE ON {t}
    BEGIN UPDATE counts SET n = n - 1 WHERE name = '{t}'; END;
"""


class Database:
    """A SQLite database at `path` in WAL mode, one connection per process (a forked child
    opens its own, running `setup` on it), each statement its own transaction, tried again
    while another process writes. The store and the rate limits' counters share it."""

    def __init__(self, path: str | Path, setup: Callable[[sqlite3.Connection], object]) -> None:
        self.path = Path(path)
        self.setup = setup
        self.lock = threading.Lock()  # for threaded servers; uncontended under gevent
        self._connection: sqlite3.Connection | None = None
        self._pid = 0

    def connection(self) -> sqlite3.Connection:
        if self._connection is None or self._pid != os.getpid():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=0)
            db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")  # a crash may lose the last second, never corrupt
            self.setup(db)
            self._connection, self._pid = db, os.getpid()
        return self._connection

    def execute(
        self, sql: str, parameters: Sequence[object] | dict[str, object], result: Callable[[sqlite3.Cursor], T]
    ) -> T:
        """result(cursor) of one statement run to its end."""
        deadline = time.monotonic() + BUSY_WAIT
        while True:
            try:
                with self.lock:
                    return result(self.connection().execute(sql, parameters))
            except sqlite3.OperationalError as exc:
                busy_until(exc, deadline)
            time.sleep(PAUSE)


def busy_until(exc: sqlite3.OperationalError, deadline: float) -> None:
    """Raise `exc` unless it says another process holds the lock and `deadline` is ahead."""
    if exc.sqlite_errorcode & 0xFF not in BUSY or time.monotonic() > deadline:
        raise exc


class SQLiteStore:
    def __init__(self, path: str | Path, tables: list[Table]) -> None:
        self.tables = tables
        self.database = Database(path, self._create)

    def _run(self, sql: str, parameters: tuple[object, ...] = ()) -> list[tuple[Any, ...]]:
        """Run one statement to its end (its transaction closes with it); its rows."""
        return self.database.execute(sql, parameters, lambda cursor: cursor.fetchall())

    def _changed(self, sql: str, parameters: tuple[object, ...] = ()) -> int:
        """Run one statement; how many records it changed."""
        return self.database.execute(sql, parameters, lambda cursor: cursor.rowcount)

    def _create(self, db: sqlite3.Connection) -> None:
        db.execute("CREATE TABLE IF NOT EXISTS counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL) WITHOUT ROWID")
        for table in self.tables:
            db.executescript(SCHEMA.format(t=table.name))

    def get(self, table: Table, key: str) -> Record | None:
        rows = self._run(f"SELECT data, version FROM {table.name} WHERE id = ? AND expires > ?", (key, time.time()))
        if not rows:
            return None
        try:
            data = json.loads(rows[0][0])
        except ValueError:  # a damaged record holds no game worth a 503
            return None
        return Record(data, rows[0][1]) if isinstance(data, dict) else None

    def put(self, table: Table, key: str, data: dict[str, Any], version: int) -> int | None:
        rows = self._run(*_put(table, key, data, version))
        return rows[0][0] if rows else None

    def write_all(self, writes: list[Write]) -> list[int]:
        return self._transaction(lambda db: [_apply(db, write) for write in writes])

    def _transaction(self, body: Callable[[sqlite3.Connection], T]) -> T:
        """body(connection) in one transaction, committed if it returns, rolled back if it
        raises. It holds the write lock from its start (BEGIN IMMEDIATE), so it never fails
        half-way for another process's write; waiting for that lock is as in `Database.execute`."""
        deadline = time.monotonic() + BUSY_WAIT
        while True:
            with self.database.lock:
                db = self.database.connection()
                try:
                    db.execute("BEGIN IMMEDIATE")
                except sqlite3.OperationalError as exc:
                    busy_until(exc, deadline)
                else:
                    try:
                        result = body(db)
                    except BaseException:
                        db.execute("ROLLBACK")
                        raise
                    db.execute("COMMIT")
                    return result
            time.sleep(PAUSE)

    def delete(self, table: Table, key: str, version: int | None = None) -> bool:
        if version is None:
            return self._changed(f"DELETE FROM {table.name} WHERE id = ?", (key,)) > 0
        return self._changed(f"DELETE FROM {table.name} WHERE id = ? AND version = ?", (key, version)) > 0

    def versions(self, table: Table, keys: list[str]) -> dict[str, int]:
        """The version of each record of `keys` that is there (and not expired), in one query."""
        sql = f"SELECT id, version FROM {table.name} WHERE id IN (SELECT value FROM json_each(?)) AND expires > ?"
        return dict(self._run(sql, (json.dumps(keys), time.time())))

    def count(self, table: Table) -> int:
        return int(self._run("SELECT n FROM counts WHERE name = ?", (table.name,))[0][0])

    def tidy(self, tables: list[Table]) -> int:
        removed = 0
        for table in tables:
            expired = f"DELETE FROM {table.name} WHERE id IN (SELECT id FROM {table.name} WHERE expires <= ? LIMIT ?)"
            removed += self._in_batches(expired, (time.time(),))
            excess = to_evict(table, self.count(table))
            once = f"SELECT id FROM {table.name} WHERE version = 1 ORDER BY expires LIMIT ?"
            gone = self._in_batches(f"DELETE FROM {table.name} WHERE id IN ({once})", (), most=excess)
            oldest = f"SELECT id FROM {table.name} WHERE expires <= ? ORDER BY expires LIMIT ?"
            until = (table.evictable_until(time.time()),)
            gone += self._in_batches(f"DELETE FROM {table.name} WHERE id IN ({oldest})", until, most=excess - gone)
            removed += gone
        return removed

    def _in_batches(self, sql: str, parameters: tuple[object, ...], most: float = math.inf) -> int:
        """Run a DELETE whose last parameter is its LIMIT, BATCH records at a time, until it
        removes nothing or `most` are gone; how many went."""
        removed = 0
        while removed < most and (gone := self._changed(sql, (*parameters, min(BATCH, most - removed)))):
            removed += gone
            time.sleep(0)  # under gevent: the worker's other clients go first
        return removed


def _put(table: Table, key: str, data: dict[str, Any], version: int) -> tuple[str, tuple[object, ...]]:
    """The statement that writes `data` if the record is at `version`, returning its new version."""
    now = time.time()
    text, expires = json.dumps(data, separators=(",", ":")), now + table.lifetime
    if version:
        sql = f"UPDATE {table.name} SET version = version + 1, data = ?, expires = ? WHERE id = ? AND version = ?"
        return f"{sql} RETURNING version", (text, expires, key, version)
    # a new record; an expired one that nobody tidied yet counts as absent
    sql = f"""INSERT INTO {table.name} (id, version, data, expires) VALUES (?, 1, ?, ?)
        ON CONFLICT (id) DO UPDATE SET version = version + 1, data = excluded.data,
        expires = excluded.expires WHERE {table.name}.expires <= ?"""
    return f"{sql} RETURNING version", (key, text, expires, now)


def _apply(db: sqlite3.Connection, write: Write) -> int:
    """Make one write of a transaction; its new version (0: deleted). WriteConflict if the
    record is not at the version the write names."""
    if write.data is not None:
        rows = db.execute(*_put(write.table, write.key, write.data, write.version)).fetchall()
        if not rows:
            raise WriteConflict(write)
        return int(rows[0][0])
    if write.version:
        sql = f"DELETE FROM {write.table.name} WHERE id = ? AND version = ?"
        if not db.execute(sql, (write.key, write.version)).rowcount:
            raise WriteConflict(write)
    else:  # absent when read: still absent
        there = f"SELECT 1 FROM {write.table.name} WHERE id = ? AND expires > ?"
        if db.execute(there, (write.key, time.time())).fetchall():
            raise WriteConflict(write)
    return 0
