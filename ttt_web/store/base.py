"""What the session and room stores share: tables of JSON records, each with a version that
every write moves on. A write names the version it read and is refused if someone wrote in
between (compare-and-set): nothing is locked, so a client that is slow to send holds nobody.

Two stores keep them: SQLite, embedded (store.sqlite), and Redis, for many hosts (store.redis).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Protocol

import redis

KEEP_AFTER_EVICTION = 0.9  # an eviction makes room down to this share of a table's cap


STORE_ERRORS = (OSError, sqlite3.Error, redis.RedisError)  # the store could not be read or written


@dataclass(frozen=True)
class Table:
    """A kind of record: its name, how long a record lives after its last write (seconds),
    and how many records it may hold (0: no cap) before those written the longest ago go."""

    name: str
    lifetime: int
    cap: int = 0


@dataclass(frozen=True)
class Record:
    data: dict
    version: int  # 1 for a new record; 0 stands for "there was none" when writing


class Store(Protocol):
    def get(self, table: Table, key: str) -> Record | None:
        """The live record, or None."""

    def put(self, table: Table, key: str, data: dict, version: int) -> int | None:
        """Write `data` if the record is still at `version` (0: absent); its new version,
        or None if someone else wrote first."""

    def delete(self, table: Table, key: str, version: int | None = None) -> bool:
        """Remove the record (only at `version`, if given); whether it was there."""

    def count(self, table: Table) -> int:
        """How many records the table holds."""

    def tidy(self, tables: list[Table]) -> int:
        """Remove expired records and, past a table's cap, those written the longest ago,
        down to KEEP_AFTER_EVICTION of it; return how many went."""


def to_evict(table: Table, count: int) -> int:
    """How many records must go from a table that holds `count`."""
    if not table.cap or count <= table.cap:
        return 0
    return count - int(table.cap * KEEP_AFTER_EVICTION)
