"""What each cache kept on the page's and the move's path saves, run by hand:
python bench/cache_gains.py [--rounds 7] [--redis]

In one process through Flask's test client: the page (`GET /` with a game of two moves in
the session) and a move with the undo that takes it back, each with every cache in place
and with one cache turned off (its function called through, its table never kept), taking
turns round after round so that a busy spell hits each alike. Each figure is the process's
own CPU per request (`time.process_time`), the median of the rounds; the gain is what the
request costs more with the cache off. docs/performance.md keeps a cache only where this
shows what it saves.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from request_cpu import cpu, requests  # bench/, the directory of this script

from tests import servers
from ttt_web.app import create_app
from ttt_web.web import board_view, stored_games, urls

CALLS = {"page": 1000, "move and undo": 300}  # per round


class Forgetful(dict):
    """A table that never keeps what it is given: its cache turned off."""

    def __setitem__(self, key, value) -> None:
        pass


@contextlib.contextmanager
def through(module, name: str) -> Iterator[None]:
    """The lru_cache'd function `module.name` called without its cache (its __wrapped__), for a while."""
    cached = getattr(module, name)
    setattr(module, name, cached.__wrapped__)
    try:
        yield
    finally:
        setattr(module, name, cached)


@contextlib.contextmanager
def forgetful(module, name: str) -> Iterator[None]:
    """The table `module.name` keeping nothing, for a while."""
    kept = getattr(module, name)
    setattr(module, name, Forgetful())
    try:
        yield
    finally:
        setattr(module, name, kept)


CACHES: dict[str, Callable[[], contextlib.AbstractContextManager]] = {
    "every cache in place": contextlib.nullcontext,
    "paths built (web/urls.py)": lambda: through(urls, "built"),
    "boards drawn (web/board_view.py)": lambda: forgetful(board_view, "_DRAWN"),
    "games decoded (web/stored_games.py)": lambda: through(stored_games, "decoded"),
}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--redis", action="store_true", help="on a Redis server of its own, not SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        config = {"SECRET_KEY": "gains", "DATABASE": tmp + "/ttt.sqlite3"}
        if args.redis:
            redis = servers.RedisServer(Path(tmp) / "redis", fsync="everysec").start()
            stack.callback(redis.stop)
            config["REDIS_URL"] = redis.url
        asked = requests(create_app(config).test_client())
        spent = {(cache, name): [] for cache in CACHES for name in asked}
        for _ in range(args.rounds):
            for cache, off in CACHES.items():
                with off():
                    for name, request in asked.items():
                        request()  # once uncounted: what a cache turned back on fills
                        spent[cache, name].append(cpu(request, CALLS[name]))
        base = {name: statistics.median(spent["every cache in place", name]) for name in asked}
        print("| cache turned off | " + " | ".join(f"{name}, µs of CPU | more" for name in asked) + " |")
        print("| --- |" + " --- | --- |" * len(asked))
        for cache in CACHES:
            cells = []
            for name in asked:
                median = statistics.median(spent[cache, name])
                cells.append(f"{median:.0f} | {median - base[name]:+.0f}")
            print(f"| {cache} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
