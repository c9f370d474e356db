"""The store's own behaviour, on each store (SQLite and Redis) through its API: compare-and-set,
writes of several records all or none, expiry, caps and eviction, failures, and live events.
Everything above the store is tested on SQLite only (tests/conftest.py)."""

import contextlib
import logging
import sqlite3
import time

import pytest
import redis

from tests.conftest import STORES
from tests.servers import free_port
from ttt_web.store.base import STORE_ERRORS, Record, Table, Write, WriteConflict
from ttt_web.store.live import PollingWatch, PublishingWatch
from ttt_web.store.redis import RedisStore
from ttt_web.store.sqlite import SQLiteStore

GAMES = Table("games", lifetime=3600)
ROOMS = Table("rooms", lifetime=3600)
BRIEF = Table("brief", lifetime=1)  # a record lives a second
CAPPED = Table("capped", lifetime=3600, cap=10)
KEPT = Table("kept", lifetime=3600, cap=10, keep=60)  # none written in the last minute may go
TABLES = [GAMES, ROOMS, BRIEF, CAPPED, KEPT]


@pytest.fixture(params=STORES)
def store(request, tmp_path):
    if request.param == "redis":
        client = redis.Redis.from_url(request.getfixturevalue("redis_server").url)
        client.flushdb()
        return RedisStore(client)
    return SQLiteStore(tmp_path / "store.sqlite3", TABLES)


def test_a_write_names_the_version_it_read_and_loses_to_one_in_between(store):
    assert store.get(GAMES, "a") is None
    assert store.put(GAMES, "a", {"n": 1}, 0) == 1
    assert store.put(GAMES, "a", {"n": 2}, 0) is None  # "absent" when it is there
    assert store.put(GAMES, "a", {"n": 2}, 1) == 2
    assert store.put(GAMES, "a", {"n": 3}, 1) is None  # someone else wrote version 2
    assert store.put(GAMES, "a", {"n": 3}, 3) is None  # a version not reached yet
    assert store.get(GAMES, "a") == Record({"n": 2}, 2)
    assert store.get(ROOMS, "a") is None  # tables are apart


def test_a_delete_at_a_version_only_at_that_version(store):
    store.put(GAMES, "a", {"n": 1}, 0)
    store.put(GAMES, "a", {"n": 2}, 1)
    assert store.delete(GAMES, "a", 1) is False
    assert store.get(GAMES, "a") == Record({"n": 2}, 2)
    assert store.delete(GAMES, "a", 2) is True
    assert store.get(GAMES, "a") is None and store.count(GAMES) == 0
    store.put(GAMES, "b", {}, 0)
    assert store.delete(GAMES, "b") is True  # no version: whatever it is at
    assert store.delete(GAMES, "b") is False
    assert store.put(GAMES, "b", {"again": True}, 0) == 1


def test_a_write_of_several_records_is_made_whole(store):
    store.put(GAMES, "gone", {"n": 0}, 0)
    versions = store.write_all(
        [Write(ROOMS, "r", {"seats": 1}, 0), Write(GAMES, "s", {"n": 1}, 0), Write(GAMES, "gone", None, 1)]
    )
    assert versions == [1, 1, 0]
    assert store.get(ROOMS, "r") == Record({"seats": 1}, 1) and store.get(GAMES, "s") == Record({"n": 1}, 1)
    assert store.get(GAMES, "gone") is None
    assert store.count(ROOMS) == 1 and store.count(GAMES) == 1


@pytest.mark.parametrize("conflict", ["moved on", "not absent", "deleted at another version", "absent, kept absent"])
def test_a_write_of_several_records_that_meets_a_change_makes_none_of_them(store, conflict):
    store.put(ROOMS, "r", {"seats": 1}, 0)
    store.put(ROOMS, "r", {"seats": 2}, 1)  # now at version 2
    store.put(GAMES, "s", {"n": 1}, 0)
    stale = {
        "moved on": Write(ROOMS, "r", {"seats": 3}, 1),
        "not absent": Write(ROOMS, "r", {"seats": 3}, 0),
        "deleted at another version": Write(ROOMS, "r", None, 1),
        "absent, kept absent": Write(ROOMS, "r", None, 0),
    }[conflict]
    writes = [Write(GAMES, "s", {"n": 2}, 1), Write(GAMES, "new", {"n": 9}, 0), stale]
    with pytest.raises(WriteConflict) as refused:
        store.write_all(writes)
    assert refused.value.write is stale
    assert store.get(ROOMS, "r") == Record({"seats": 2}, 2)
    assert store.get(GAMES, "s") == Record({"n": 1}, 1) and store.get(GAMES, "new") is None
    assert store.count(GAMES) == 1 and store.count(ROOMS) == 1


def test_a_record_expires_its_lifetime_after_its_last_write_and_tidying_forgets_it(store):
    store.put(BRIEF, "old", {"n": 1}, 0)
    store.put(BRIEF, "renewed", {"n": 1}, 0)
    store.put(GAMES, "lasting", {"n": 1}, 0)
    time.sleep(0.6)
    store.put(BRIEF, "renewed", {"n": 2}, 1)  # a write gives it its lifetime again
    time.sleep(0.6)
    assert store.get(BRIEF, "old") is None
    assert store.get(BRIEF, "renewed") == Record({"n": 2}, 2)
    assert store.tidy([BRIEF, GAMES]) == 1
    assert store.count(BRIEF) == 1 and store.count(GAMES) == 1
    assert store.put(BRIEF, "old", {"n": 3}, 0) == 1  # an expired record counts as absent
    time.sleep(1.1)
    assert store.get(BRIEF, "renewed") is None and store.get(GAMES, "lasting") == Record({"n": 1}, 1)
    assert store.tidy([BRIEF]) == 2 and store.count(BRIEF) == 0


def test_a_full_table_loses_its_records_written_the_longest_ago(store):
    for n in range(9):
        store.put(CAPPED, f"r{n}", {"n": n}, 0)
        time.sleep(0.002)  # each written after the one before
    assert store.tidy([CAPPED]) == 0  # 9 of 10: not full
    store.put(CAPPED, "r0", {"n": 0, "again": True}, 1)  # written last now
    store.put(CAPPED, "r9", {"n": 9}, 0)
    assert store.count(CAPPED) == 10
    assert store.tidy([CAPPED]) == 1  # full: down to 90% of the cap
    assert store.count(CAPPED) == 9
    assert store.get(CAPPED, "r1") is None
    assert all(store.get(CAPPED, f"r{n}") for n in (0, *range(2, 10)))


def test_a_full_table_never_loses_records_played_within_their_keep(store):
    """Written twice (played on, not a newcomer's first request) within the keep: none goes."""
    for n in range(12):
        store.put(KEPT, f"r{n}", {"n": n + 1}, store.put(KEPT, f"r{n}", {"n": n}, 0))
    assert store.tidy([KEPT]) == 0
    assert store.count(KEPT) == 12


def test_a_full_table_evicts_records_written_once_even_within_their_keep(store):
    for n in range(12):
        store.put(KEPT, f"r{n}", {"n": n}, 0)
    assert store.tidy([KEPT]) == 3  # down to 90 % of the cap, newcomers' records first
    assert store.count(KEPT) == 9


def test_a_store_that_cannot_be_reached_raises_a_store_error(store, tmp_path):
    if isinstance(store, RedisStore):
        broken = RedisStore(redis.Redis(port=free_port(), socket_connect_timeout=1))
    else:
        (tmp_path / "file").write_text("")
        broken = SQLiteStore(tmp_path / "file" / "store.sqlite3", TABLES)  # its folder is a file
    for call in (lambda: broken.get(GAMES, "a"), lambda: broken.put(GAMES, "a", {}, 0), lambda: broken.count(GAMES)):
        with pytest.raises(STORE_ERRORS):
            call()


def test_a_damaged_record_reads_as_none(store):
    store.put(GAMES, "a", {"n": 1}, 0)
    if isinstance(store, RedisStore):
        store.client.hset(store.key(GAMES, "a"), "d", "{not json")
        store.client.hset(store.key(GAMES, "b"), mapping={"v": 1, "d": "[1, 2]"})
    else:
        with contextlib.closing(sqlite3.connect(store.database.path, isolation_level=None)) as db:
            db.execute("UPDATE games SET data = '{not json' WHERE id = 'a'")
            db.execute("INSERT INTO games VALUES ('b', 1, '[1, 2]', ?)", (time.time() + 60,))
    assert store.get(GAMES, "a") is None and store.get(GAMES, "b") is None


def test_a_change_wakes_the_streams_that_follow_the_room_and_no_others(store):
    """A change made in another process (another watch): on SQLite its write moves the room's
    version, which this process's watch reads; on Redis it is published. Only the changed
    room's followers wake."""
    if isinstance(store, RedisStore):
        here, there = (PublishingWatch(store.client, "ttt:test", logging.getLogger("test")) for _ in range(2))
    else:
        here, there = (PollingWatch(store, ROOMS, logging.getLogger("test")) for _ in range(2))
    version = store.put(ROOMS, "r", {"n": 1}, 0)
    store.put(ROOMS, "other", {"n": 1}, 0)
    with here.follow("r", version) as follower, here.follow("other", 1) as bystander:
        for stream in (follower, bystander):
            stream.wait(0.5)  # on Redis, a watch that (re)subscribes wakes every stream once
        assert not follower.wait(0.3)  # nothing changed
        store.put(ROOMS, "r", {"n": 2}, version)
        there.changed("r")
        assert follower.wait(5)
        assert not bystander.wait(0.3)
    assert here.rooms() == []
    here.close()
