"""The rate limits' SQLite storage: one count for every worker on the host, windows that end,
and `limits`' own strategy on it."""

import time

import pytest
from limits import parse
from limits.strategies import FixedWindowRateLimiter

from ttt_web.web.limit_storage import SQLiteStorage

pytestmark = pytest.mark.unit


def test_two_workers_count_in_one_window(tmp_path):
    uri = f"ttt+sqlite://{tmp_path / 'limits.sqlite3'}"
    first, second = (FixedWindowRateLimiter(SQLiteStorage(uri)) for _ in range(2))  # as two processes
    limit = parse("3 per minute")
    assert [first.hit(limit, "net"), second.hit(limit, "net"), first.hit(limit, "net")] == [True] * 3
    assert not second.hit(limit, "net") and not first.test(limit, "net")
    assert second.hit(limit, "another net")
    stats = first.get_window_stats(limit, "net")
    assert stats.remaining == 0 and 0 < stats.reset_time - time.time() <= 60


def test_a_window_that_ended_counts_from_one(tmp_path):
    storage = SQLiteStorage(f"ttt+sqlite://{tmp_path / 'limits.sqlite3'}")
    assert [storage.incr("k", 1), storage.incr("k", 1)] == [1, 2]
    assert storage.get("k") == 2 and storage.get_expiry("k") > time.time()
    time.sleep(1.05)
    assert storage.get("k") == 0
    assert storage.incr("k", 1) == 1
    storage.clear("k")
    assert storage.get("k") == 0 and storage.check()
    storage.incr("a", 60)
    storage.incr("b", 60)
    assert storage.reset() == 2 and storage.get("a") == 0  # "a" and "b"
