"""What the session and room stores share: tables of JSON records, each with a version that
every write moves on. A write names the version it read and is refused if someone wrote in
between (compare-and-set): nothing is locked, so a client that is slow to send holds nobody.

Two stores keep them: SQLite, embedded (store.sqlite), and Redis, for many hosts (store.redis).
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from typing import Any, Protocol

import redis
from redis.exceptions import RedisClusterException

KEEP_AFTER_EVICTION = 0.9  # an eviction makes room down to this share of a table's cap


# the store could not be read or written (on a cluster: a slot with no master, say)
STORE_ERRORS = (OSError, sqlite3.Error, redis.RedisError, RedisClusterException)


@dataclass(frozen=True)
class Table:
    """A kind of record: its name, how long a record lives after its last write (seconds),
    how many records it may hold (0: no cap) before some go, and for how long after its last
    write a record written more than once is never made to go (`keep`, seconds). A full table
    evicts first the records written only once (a session that never got past its first
    request, a room nobody joined), the oldest first, then those written the longest ago
    (and longer ago than `keep`); one whose records are all kept takes no new one."""

    name: str
    lifetime: int
    cap: int = 0
    keep: int = 0

    def evictable_until(self, now: float) -> float:
        """The latest expiry of a record that may be evicted (one last written `keep` ago)."""
        return now + self.lifetime - self.keep if self.keep else math.inf


@dataclass(frozen=True)
class Record:
    data: dict[str, Any]
    version: int  # 1 for a new record; 0 stands for "there was none" when writing


@dataclass(frozen=True, eq=False)
class Write:
    """One record's change in a write of several: its new data (None: delete it), made only if
    the record is still at `version` (0: absent)."""

    table: Table
    key: str
    data: dict[str, Any] | None
    version: int


class WriteConflict(Exception):
    """A write of several was refused whole: the record of `write` moved on since it was read."""

    def __init__(self, write: Write) -> None:
        super().__init__(f"{write.table.name} {write.key} changed since version {write.version}")
        self.write = write


class Store(Protocol):
    def get(self, table: Table, key: str) -> Record | None:
        """The live record, or None."""

    def put(self, table: Table, key: str, data: dict[str, Any], version: int) -> int | None:
        """Write `data` if the record is still at `version` (0: absent); its new version,
        or None if someone else wrote first."""

    def delete(self, table: Table, key: str, version: int | None = None) -> bool:
        """Remove the record (only at `version`, if given); whether it was there."""

    def write_all(self, writes: list[Write]) -> list[int]:
        """Make every write if each record is still at its version, else none of them (raises
        WriteConflict naming a record that moved on); the new versions (0 for a delete)."""

    def count(self, table: Table) -> int:
        """How many records the table holds."""

    def tidy(self, tables: list[Table]) -> int:
        """Remove expired records and, when a table is full, those written only once, then
        those written the longest ago (and longer ago than its `keep`), the oldest first, down
        to KEEP_AFTER_EVICTION of it; how many went."""


def to_evict(table: Table, count: int) -> int:
    """How many records must go from a table that holds `count` (one that is full, too, so
    that it can take a new one)."""
    if not table.cap or count < table.cap:
        return 0
    return count - int(table.cap * KEEP_AFTER_EVICTION)
