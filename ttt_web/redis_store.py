"""The store for many hosts: Redis. A record is a hash (`v`, its version; `d`, its JSON) that
expires `lifetime` seconds after its last write; a table's index (a sorted set by expiry)
keeps its cap. Writes are compare-and-set scripts: one round trip, all or nothing, also
for a write of several records (a room and a session): Redis runs a script whole."""

from __future__ import annotations

import json
import time

import redis

from .store import Record, Table, Write, WriteConflict, to_evict

WRITE = """
local version = tonumber(redis.call('hget', KEYS[1], 'v') or '0')
if version ~= tonumber(ARGV[1]) then return 0 end
redis.call('hset', KEYS[1], 'v', version + 1, 'd', ARGV[2])
redis.call('expire', KEYS[1], ARGV[3])
redis.call('zadd', KEYS[2], ARGV[4], KEYS[1])
return version + 1
"""
WRITE_ALL = """
local n = #KEYS / 2
for i = 1, n do
    local version = tonumber(redis.call('hget', KEYS[2 * i - 1], 'v') or '0')
    if version ~= tonumber(ARGV[4 * i - 3]) then return -i end
end
local versions = {}
for i = 1, n do
    local key, index, version = KEYS[2 * i - 1], KEYS[2 * i], tonumber(ARGV[4 * i - 3])
    if ARGV[4 * i - 2] == '' then
        redis.call('zrem', index, key)
        redis.call('del', key)
        versions[i] = 0
    else
        redis.call('hset', key, 'v', version + 1, 'd', ARGV[4 * i - 2])
        redis.call('expire', key, ARGV[4 * i - 1])
        redis.call('zadd', index, ARGV[4 * i], key)
        versions[i] = version + 1
    end
end
return versions
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
        self._write_all = client.register_script(WRITE_ALL)
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

    def write_all(self, writes: list[Write]) -> list[int]:
        keys, args = [], []
        for write in writes:
            text = "" if write.data is None else json.dumps(write.data, separators=(",", ":"))
            keys += [self.key(write.table, write.key), self.index(write.table)]
            args += [write.version, text, write.table.lifetime, time.time() + write.table.lifetime]
        result = self._write_all(keys=keys, args=args)
        if isinstance(result, int):
            raise WriteConflict(writes[-result - 1])
        return result

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
