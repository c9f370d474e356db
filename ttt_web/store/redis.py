"""The store for many hosts: Redis, one server or a Redis Cluster. A record is a hash (`v`, its
version; `d`, its JSON) that expires `lifetime` seconds after its last write; a table's index
(a sorted set by expiry) keeps its cap, and a second one holds the records written only once,
which a full table evicts first. Writes are compare-and-set scripts: one round trip, all or
nothing: Redis runs a script whole.

On a cluster, a script may only touch keys of one hash slot. Each table is cut into BUCKETS
buckets, each with a hash tag of its own (spread evenly over the slots), and a record, its
index and its written-once index share their bucket's tag: every script touches one slot, and
declares every key it touches in KEYS. A write of several records in different buckets (a
room and the session that takes its seat) is a small two-phase commit (`_write_across`):
each record is locked with its new data, then a transaction key decides, then each record
is finished; whoever next reads a record whose writer died finishes or undoes it.

Redis must never evict a record itself (maxmemory-policy noeviction; `eviction_risk` says
when it might). If it did, the index would count records that are gone: tidying finds them
and drops them from the index whenever Redis's count of evicted keys moved on."""

from __future__ import annotations

import json
import logging
import math
import secrets
import time
import zlib
from collections.abc import Callable, Iterable
from typing import Any, cast

import redis
from redis.cluster import RedisCluster
from redis.crc import key_slot

from .base import Record, Table, Write, WriteConflict, to_evict

BUCKETS = 64  # on a cluster: buckets per table (so ~21 per master of 3, ~6 per master of 10)
LOCK_SECONDS = 5  # a record locked by a write of several that died is undone after this
DECIDED_SECONDS = 600  # how long a transaction key says what became of its write
CHECKED = 1000  # index entries checked per script run when looking for evicted records

COMMON = """
local function apply(key, index, once, version, data, lifetime, expires)
    if data == '' then
        redis.call('zrem', index, key)
        redis.call('zrem', once, key)
        redis.call('del', key)
        return 0
    end
    redis.call('hset', key, 'v', version + 1, 'd', data)
    redis.call('expire', key, lifetime)
    redis.call('zadd', index, expires, key)
    if version == 0 then redis.call('zadd', once, expires, key) else redis.call('zrem', once, key) end
    return version + 1
end
local function at(key, version)
    if redis.call('hexists', key, 'x') == 1 then return false end
    return tonumber(redis.call('hget', key, 'v') or '0') == tonumber(version)
end
"""
WRITE = (
    COMMON
    + """
if not at(KEYS[1], ARGV[1]) then return 0 end
return apply(KEYS[1], KEYS[2], KEYS[3], tonumber(ARGV[1]), ARGV[2], ARGV[3], ARGV[4])
"""
)
WRITE_ALL = (
    COMMON
    + """
local n = #KEYS / 3
for i = 1, n do
    if not at(KEYS[3 * i - 2], ARGV[4 * i - 3]) then return -i end
end
local versions = {}
for i = 1, n do
    local k, a = 3 * i - 2, 4 * i - 3
    versions[i] = apply(KEYS[k], KEYS[k + 1], KEYS[k + 2], tonumber(ARGV[a]), ARGV[a + 1], ARGV[a + 2], ARGV[a + 3])
end
return versions
"""
)
DELETE = """
if redis.call('hexists', KEYS[1], 'x') == 1 then return 0 end
if ARGV[1] ~= '' and redis.call('hget', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('zrem', KEYS[2], KEYS[1])
redis.call('zrem', KEYS[3], KEYS[1])
return redis.call('del', KEYS[1])
"""
# a write of several, across slots: lock one record with its new data (1), or refuse (0)
PREPARE = (
    COMMON
    + """
if not at(KEYS[1], ARGV[1]) then return 0 end
local new = redis.call('exists', KEYS[1]) == 0
redis.call('hset', KEYS[1], 'x', ARGV[2], 'xd', ARGV[3], 'xl', ARGV[4], 'xe', ARGV[5], 'xt', ARGV[6])
if new then redis.call('expire', KEYS[1], ARGV[7]) end
return 1
"""
)
# ... and once its transaction key says so, finish it (its new version) or undo it
FINISH = (
    COMMON
    + """
local f = redis.call('hmget', KEYS[1], 'x', 'xd', 'xl', 'xe', 'v')
if f[1] ~= ARGV[1] then return tonumber(f[5] or '0') end
redis.call('hdel', KEYS[1], 'x', 'xd', 'xl', 'xe', 'xt')
if ARGV[2] == 'undo' then
    if not f[5] then redis.call('del', KEYS[1]) end
    return 0
end
return apply(KEYS[1], KEYS[2], KEYS[3], tonumber(f[5] or '0'), f[2], f[3], f[4])
"""
)
# KEYS: the index, the written-once index, then the records to evict if they still may go
# (written once, or their expiry no later than ARGV[1]); how many went
EVICT = """
local gone = 0
for i = 3, #KEYS do
    local key = KEYS[i]
    local score = redis.call('zscore', KEYS[1], key)
    local old = score and tonumber(score) <= tonumber(ARGV[1] == '+inf' and '1e999' or ARGV[1])
    if redis.call('hexists', key, 'x') == 0 and (redis.call('zscore', KEYS[2], key) or old) then
        redis.call('zrem', KEYS[1], key)
        redis.call('zrem', KEYS[2], key)
        redis.call('del', key)
        gone = gone + 1
    end
end
return gone
"""
# KEYS: the index, the written-once index, then records it lists; drop those that are gone
FORGET_GONE = """
local gone = 0
for i = 3, #KEYS do
    if redis.call('exists', KEYS[i]) == 0 then
        redis.call('zrem', KEYS[1], KEYS[i])
        redis.call('zrem', KEYS[2], KEYS[i])
        gone = gone + 1
    end
end
return gone
"""

log = logging.getLogger(__name__)


def connect(url: str, connections: int, wait: float) -> redis.Redis | RedisCluster:
    """A client for the Redis at `url`: a RedisCluster if that server runs in cluster mode (any
    node of the cluster will do), else a plain client. Its pool (one per node on a cluster)
    holds at most `connections` and makes a command wait up to `wait` seconds for a free one. If the server cannot be
    asked, one Redis is assumed (as a client of a cluster node would fail, the log says so)."""
    options = {"socket_timeout": 2, "socket_connect_timeout": 2}
    try:
        with redis.Redis.from_url(url, **options) as probe:
            cluster = probe.info("cluster").get("cluster_enabled") == 1
    except redis.RedisError as exc:
        log.error("could not ask Redis whether it runs in cluster mode (%s): one Redis assumed", exc)
        cluster = False
    if cluster:
        return RedisCluster.from_url(  # a pool of each kind per node
            url,
            connection_pool_class=redis.BlockingConnectionPool,
            max_connections=connections,
            timeout=wait,
            require_full_coverage=False,  # slots of live masters stay served while another fails over
            **options,
        )
    pool = redis.BlockingConnectionPool.from_url(url, max_connections=connections, timeout=wait, **options)
    return redis.Redis(connection_pool=pool)


def bucket_tags(count: int) -> list[str]:
    """`count` hash tags, the n-th hashing to a slot in the n-th of `count` equal spans of the
    16384 slots: buckets spread evenly over the masters, whatever the tags' hashes."""
    tags = []
    for bucket in range(count):
        low, high, n = bucket * 16384 // count, (bucket + 1) * 16384 // count, 0
        while not low <= key_slot(f"{bucket}.{n}".encode()) < high:
            n += 1
        tags.append(f"{{{bucket}.{n}}}")
    return tags


class RedisStore:
    def __init__(self, client: redis.Redis | RedisCluster, prefix: str = "ttt:") -> None:
        self.client = client
        self.prefix = prefix
        self.cluster = isinstance(client, RedisCluster)
        self.tags = bucket_tags(BUCKETS) if self.cluster else [""]
        self._write, self._write_all, self._delete = map(client.register_script, (WRITE, WRITE_ALL, DELETE))
        self._prepare, self._finish = client.register_script(PREPARE), client.register_script(FINISH)
        self._evict_script, self._forget_gone = client.register_script(EVICT), client.register_script(FORGET_GONE)
        self.evicted_seen: dict[str, int] = {}  # each table's: Redis's evicted_keys when its index was checked

    def tag(self, key: str) -> str:
        """The hash tag of the bucket a record's key falls in ('' on one Redis)."""
        return self.tags[zlib.crc32(key.encode()) % len(self.tags)]

    def key(self, table: Table, key: str) -> str:
        tag = self.tag(key)
        return f"{self.prefix}{table.name}:{tag}:{key}" if tag else f"{self.prefix}{table.name}:{key}"

    def index(self, table: Table, tag: str = "") -> str:
        return f"{self.prefix}index:{table.name}{tag}"

    def once(self, table: Table, tag: str = "") -> str:
        """The index of the table's records written only once (in the bucket of `tag`)."""
        return f"{self.prefix}once:{table.name}{tag}"

    def keys(self, table: Table, key: str) -> list[str]:
        """A record's key and its bucket's indexes: what a script writing it touches."""
        tag = self.tag(key)
        return [self.key(table, key), self.index(table, tag), self.once(table, tag)]

    def get(self, table: Table, key: str) -> Record | None:
        version, text, txid, deadline = self.client.hmget(self.key(table, key), "v", "d", "x", "xt")
        if txid is not None and self._settle(table, key, _text(txid), float(deadline or 0)):
            version, text = self.client.hmget(self.key(table, key), "v", "d")
        return _record(version, text)

    def put(self, table: Table, key: str, data: dict[str, Any], version: int) -> int | None:
        text, expires = json.dumps(data, separators=(",", ":")), time.time() + table.lifetime
        return self._write(keys=self.keys(table, key), args=[version, text, table.lifetime, expires]) or None

    def write_all(self, writes: list[Write]) -> list[int]:
        if len({self.tag(write.key) for write in writes}) > 1:
            return self._write_across(writes)
        keys, args = [], []
        for write in writes:
            keys += self.keys(write.table, write.key)
            args += _arguments(write)
        result: int | list[int] = self._write_all(keys=keys, args=args)  # a refused write's -index, or the versions
        if isinstance(result, int):
            raise WriteConflict(writes[-result - 1])
        return result

    def _write_across(self, writes: list[Write]) -> list[int]:
        """write_all for records in different slots: lock each (in key order, so two such
        writes never wait on each other), then decide (the transaction key), then finish each.
        A reader that finds a record locked finishes it once it is decided, or decides to
        undo it LOCK_SECONDS after the lock (_settle)."""
        txid, deadline = secrets.token_hex(8), time.time() + LOCK_SECONDS
        locked: list[Write] = []
        try:
            for write in sorted(writes, key=lambda write: self.key(write.table, write.key)):
                arguments = [write.version, txid, *_arguments(write)[1:], deadline, LOCK_SECONDS * 4]
                if not self._prepare(keys=self.keys(write.table, write.key)[:1], args=arguments):
                    raise WriteConflict(write)
                locked.append(write)
            if not self.client.set(self._tx(txid), "done", nx=True, ex=DECIDED_SECONDS):
                raise WriteConflict(writes[0])  # a reader undid it: this writer was too slow
        except (WriteConflict, redis.RedisError):
            if self._decide_undo(txid):
                self._finish_each(locked, txid, "undo")
            raise
        return self._finish_each(writes, txid, "done")

    def _finish_each(self, writes: Iterable[Write], txid: str, how: str) -> list[int]:
        return [self._finish(keys=self.keys(write.table, write.key), args=[txid, how]) for write in writes]

    def _decide_undo(self, txid: str) -> bool:
        """Whether the write of several `txid` is (now) to be undone, not finished."""
        self.client.set(self._tx(txid), "undo", nx=True, ex=DECIDED_SECONDS)
        return self.client.get(self._tx(txid)) == b"undo"

    def _settle(self, table: Table, key: str, txid: str, deadline: float) -> bool:
        """Finish or undo the write of several that locked this record, if it is decided (or
        its writer is past its deadline: then it is undone); whether it was."""
        decided = self.client.get(self._tx(txid))
        if decided is None and time.time() > deadline:
            decided = b"undo" if self._decide_undo(txid) else b"done"
        if decided is None:
            return False  # still being written: this reads the record as it was
        self._finish(keys=self.keys(table, key), args=[txid, _text(decided)])
        return True

    def _tx(self, txid: str) -> str:
        return f"{self.prefix}tx:{txid}"

    def delete(self, table: Table, key: str, version: int | None = None) -> bool:
        return bool(self._delete(keys=self.keys(table, key), args=["" if version is None else version]))

    def count(self, table: Table) -> int:
        return sum(self._counts(table))

    def _counts(self, table: Table, command: Callable[..., str | tuple[str | float, ...]] | None = None) -> list[int]:
        """How many records each bucket of the table holds (one round trip per node), or
        what command(table, tag) counts in each bucket: a key to ZCARD (self.once: records
        written once), or a whole command."""
        command = command or self.index
        pipeline = self.client.pipeline(transaction=False)
        for tag in self.tags:
            asked = command(table, tag)
            pipeline.execute_command(*asked) if isinstance(asked, tuple) else pipeline.zcard(asked)
        return pipeline.execute()

    def tidy(self, tables: list[Table]) -> int:
        """Expired records are gone already (their keys expire); their index entries go here,
        and those of records Redis evicted. A full table then evicts, in each bucket its share:
        first the records written only once, the oldest first, then the oldest of the others
        last written longer than `keep` ago."""
        removed = self._forget_evicted(tables)
        for table in tables:
            pipeline = self.client.pipeline(transaction=False)
            for tag in self.tags:
                pipeline.zremrangebyscore(self.index(table, tag), "-inf", time.time())
                pipeline.zremrangebyscore(self.once(table, tag), "-inf", time.time())
            removed += sum(pipeline.execute()[::2])
            if excess := to_evict(table, self.count(table)):
                removed += self._evict(table, excess)
        return removed

    def _evict(self, table: Table, excess: int) -> int:
        """Evict `excess` records, each bucket its share: first of those written once (shared
        by how many each bucket holds), then of those older than `keep` (by bucket size)."""
        until = table.evictable_until(time.time())
        once = self._counts(table, self.once)
        gone = sum(
            self._evict_from(table, tag, share, 0, until)
            for tag, share in zip(self.tags, shares(min(excess, sum(once)), once), strict=True)
        )
        if gone < excess and until > time.time():
            old = self._counts(table, lambda table, tag="": ("zcount", self.index(table, tag), "-inf", until))
            gone += sum(
                self._evict_from(table, tag, 0, share, until)
                for tag, share in zip(self.tags, shares(min(excess - gone, sum(old)), old), strict=True)
            )
        return gone

    def _evict_from(self, table: Table, tag: str, once: int, old: int, until: float) -> int:
        """Evict from the bucket of `tag` its `once` oldest records written once, and its `old`
        oldest records that expire no later than `until`."""
        index, written_once = self.index(table, tag), self.once(table, tag)
        limit = "+inf" if until == math.inf else until
        # without withscores, members only (redis-py's types allow (member, score) pairs too)
        chosen = cast(list[bytes], self.client.zrange(written_once, 0, once - 1)) if once else []
        chosen += cast(list[bytes], self.client.zrangebyscore(index, "-inf", limit, start=0, num=old)) if old else []
        if not chosen:
            return 0
        return int(self._evict_script(keys=[index, written_once, *dict.fromkeys(chosen)], args=[limit]))

    def _forget_evicted(self, tables: list[Table]) -> int:
        """Drop the index entries of records that are gone though they had not expired (Redis
        evicted them), if Redis evicted anything since the last look (or this process never
        looked); how many went."""
        evicted = self._evicted_keys()
        gone = 0
        for table in tables:
            if self.evicted_seen.get(table.name) != evicted:
                gone += sum(self._forget_gone_from(table, tag) for tag in self.tags)
                self.evicted_seen[table.name] = evicted
        return gone

    def _evicted_keys(self) -> int:
        if not self.cluster:
            return int(self.client.info("stats").get("evicted_keys", 0))
        stats = self.client.info("stats", target_nodes=RedisCluster.PRIMARIES)
        return sum(node.get("evicted_keys", 0) for node in stats.values())

    def _forget_gone_from(self, table: Table, tag: str) -> int:
        index, once = self.index(table, tag), self.once(table, tag)
        gone = start = 0
        while members := self.client.zrange(index, start, start + CHECKED - 1):
            dropped = self._forget_gone(keys=[index, once, *members])
            gone, start = gone + dropped, start + len(members) - dropped
            time.sleep(0)  # under gevent: the worker's other clients go first
        return gone

    def eviction_risk(self) -> str | None:
        """Why Redis might evict players' records (its memory limit with a policy other than
        noeviction, on any master); None if it will not, or if its configuration cannot be read."""
        configs: list[dict[str | None, str | None]]
        try:
            if self.cluster:  # each master's, by node (redis-py's types say one node's)
                by_node = self.client.config_get("maxmemory*", target_nodes=RedisCluster.PRIMARIES)
                configs = list(cast(dict[str, dict[str | None, str | None]], by_node).values())
            else:
                configs = [self.client.config_get("maxmemory*")]
        except redis.RedisError:
            return None
        for config in configs:
            policy = config.get("maxmemory-policy")
            if int(config.get("maxmemory") or 0) and policy != "noeviction":
                return f"Redis has maxmemory {config['maxmemory']} with maxmemory-policy {policy}"
        return None


def shares(total: int, counts: list[int]) -> list[int]:
    """`total` shared out in proportion to `counts`, in whole numbers that add up to it
    (the largest remainders get the odd ones)."""
    whole = sum(counts) or 1
    exact = [total * count / whole for count in counts]
    parts = [int(part) for part in exact]
    by_remainder = sorted(range(len(counts)), key=lambda n: parts[n] - exact[n])
    for n in by_remainder[: total - sum(parts)]:
        parts[n] += 1
    return parts


def _arguments(write: Write) -> list[int | float | str]:
    """A write's version, its data ('' for a delete), its lifetime and its index score (expiry)."""
    text = "" if write.data is None else json.dumps(write.data, separators=(",", ":"))
    return [write.version, text, write.table.lifetime, time.time() + write.table.lifetime]


def _text(reply: bytes | str) -> str:
    """A reply as text: this client leaves replies as bytes, redis-py's types allow str too."""
    return reply.decode() if isinstance(reply, bytes) else reply


def _record(version: bytes | str | None, text: bytes | str | None) -> Record | None:
    if version is None or text is None:
        return None
    try:
        data = json.loads(text)
    except ValueError:  # a damaged record holds no game worth a 503
        return None
    return Record(data, int(version)) if isinstance(data, dict) else None
