"""The store for many hosts: Redis. A record is a hash (`v`, its version; `d`, its JSON) that
expires `lifetime` seconds after its last write; a table's index (a sorted set by expiry)
keeps its cap. Writes are compare-and-set scripts: one round trip, all or nothing, also
for a write of several records (a room and a session): Redis runs a script whole.

Redis must never evict a record itself (maxmemory-policy noeviction; `eviction_risk` says
when it might). If it did, the index would count records that are gone: tidying finds them
and drops them from the index whenever Redis's count of evicted keys moved on."""

from __future__ import annotations

import json
import math
import time

import redis

from .base import Record, Table, Write, WriteConflict, to_evict

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
FORGET_GONE = """
local members = redis.call('zrange', KEYS[1], ARGV[1], ARGV[1] + ARGV[2] - 1)
local gone = 0
for _, key in ipairs(members) do
    if redis.call('exists', key) == 0 then
        redis.call('zrem', KEYS[1], key)
        gone = gone + 1
    end
end
return {#members, gone}
"""
CHECKED = 1000  # index entries checked per script run when looking for evicted records
DELETE = """
if ARGV[1] ~= '' and redis.call('hget', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('zrem', KEYS[2], KEYS[1])
return redis.call('del', KEYS[1])
"""
EVICT = """
local oldest = redis.call('zrangebyscore', KEYS[1], '-inf', ARGV[2], 'LIMIT', 0, ARGV[1])
for _, key in ipairs(oldest) do
    redis.call('zrem', KEYS[1], key)
    redis.call('del', key)
end
return #oldest
"""


class RedisStore:
    def __init__(self, client: redis.Redis, prefix: str = "ttt:") -> None:
        self.client = client
        self.prefix = prefix
        self._write = client.register_script(WRITE)
        self._write_all = client.register_script(WRITE_ALL)
        self._delete = client.register_script(DELETE)
        self._evict = client.register_script(EVICT)
        self._forget_gone = client.register_script(FORGET_GONE)
        self.evicted_seen: dict[str, int] = {}  # each table's: Redis's evicted_keys when its index was checked

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
        """Expired records are gone already (their keys expire); their index entries go here,
        and those of records Redis evicted."""
        removed = self._forget_evicted(tables)
        for table in tables:
            removed += self.client.zremrangebyscore(self.index(table), "-inf", time.time())
            if excess := to_evict(table, self.count(table)):
                until = table.evictable_until(time.time())
                removed += self._evict(keys=[self.index(table)], args=[excess, "+inf" if until == math.inf else until])
        return removed

    def _forget_evicted(self, tables: list[Table]) -> int:
        """Drop the index entries of records that are gone though they had not expired (Redis
        evicted them), if Redis evicted anything since the last look (or this process never
        looked); how many went."""
        evicted = self.client.info("stats").get("evicted_keys", 0)
        gone = 0
        for table in tables:
            if self.evicted_seen.get(table.name) != evicted:
                gone += self._forget_gone_from(table)
                self.evicted_seen[table.name] = evicted
        return gone

    def _forget_gone_from(self, table: Table) -> int:
        gone = start = 0
        while True:
            checked, dropped = self._forget_gone(keys=[self.index(table)], args=[start, CHECKED])
            gone, start = gone + dropped, start + checked - dropped
            if checked < CHECKED:
                return gone
            time.sleep(0)  # under gevent: the worker's other clients go first

    def eviction_risk(self) -> str | None:
        """Why Redis might evict players' records (its memory limit with a policy other than
        noeviction); None if it will not, or if its configuration cannot be read."""
        try:
            config = self.client.config_get("maxmemory*")
        except redis.RedisError:
            return None
        policy = config.get("maxmemory-policy")
        if int(config.get("maxmemory") or 0) and policy != "noeviction":
            return f"Redis has maxmemory {config['maxmemory']} with maxmemory-policy {policy}"
        return None


def _record(version: bytes | None, text: bytes | None) -> Record | None:
    if version is None or text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:  # a damaged record holds no game worth a 503
        return None
    return Record(data, int(version)) if isinstance(data, dict) else None
