"""The store for many hosts: Redis. A record is a hash (`v`, its version; `d`, its JSON) that
expires `lifetime` seconds after its last write; a table's index (a sorted set by expiry)
keeps its cap. Writes are compare-and-set scripts: one round trip, all or nothing."""

from __future__ import annotations

import json
import time

import redis

from .base import Record, Table, to_evict

WRITE = """
local version = tonumber(redis.call('hget', KEYS[1], 'v') or '0')
if version ~= tonumber(ARGV[1]) then return 0 end
redis.call('hset', KEYS[1], 'v', version + 1, 'd', ARGV[2])
redis.call('expire', KEYS[1], ARGV[3])
redis.call('zadd', KEYS[2], ARGV[4], KEYS[1])
return version + 1
"""
DELETE = """
if ARGV[1] ~= '' and redis.call('hget', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('zrem', KEYS[2], KEYS[1])
return redis.call('del', KEYS[1])
"""
EVICT = """
local popped = redis.call('zpopmin', KEYS[1], ARGV[1])
for i = 1, #popped, 2 do redis.call('del', popped[i]) end
return #popped / 2
"""


class RedisStore:
    def __init__(self, client: redis.Redis, prefix: str = "ttt:") -> None:
        self.client = client
        self.prefix = prefix
        self._write = client.register_script(WRITE)
        self._delete = client.register_script(DELETE)
        self._evict = client.register_script(EVICT)

    def key(self, table: Table, key: str) -> str:
        return f"{self.prefix}{table.name}:{key}"

    def index(self, table: Table) -> str:
        return f"{self.prefix}index:{table.name}"

    def get(self, table: Table, key: str) -> Record | None:
        version, text = self.client.hmget(self.key(table, key), "v", "d")
        return _record(version, text)

    def put(self, table: Table, key: str, data: dict, version: int) -> int | None:
        text, expires = json.dumps(data, separators=(",", ":")), time.time() + table.lifetime
        keys = [self.key(table, key), self.index(table)]
        return self._write(keys=keys, args=[version, text, table.lifetime, expires]) or None

    def delete(self, table: Table, key: str, version: int | None = None) -> bool:
        keys = [self.key(table, key), self.index(table)]
        return bool(self._delete(keys=keys, args=["" if version is None else version]))

    def count(self, table: Table) -> int:
        return self.client.zcard(self.index(table))

    def tidy(self, tables: list[Table]) -> int:
        """Expired records are gone already (their keys expire); their index entries go here."""
        removed = 0
        for table in tables:
            removed += self.client.zremrangebyscore(self.index(table), "-inf", time.time())
            if excess := to_evict(table, self.count(table)):
                removed += self._evict(keys=[self.index(table)], args=[excess])
        return removed


def _record(version: bytes | None, text: bytes | None) -> Record | None:
    if version is None or text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:  # a damaged record holds no game worth a 503
        return None
    return Record(data, int(version)) if isinstance(data, dict) else None
