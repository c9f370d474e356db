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
import itertools
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import servers
from ttt_web.app import create_app
from ttt_web.web import board_view, stored_games, urls

CALLS = {"page": 1000, "move and undo": 300}


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


def requests(client) -> dict[str, Callable[[], None]]:
    """The page, and a move with its undo, for a client with a game in its session."""
    first = client.get("/").text.split('href="/move?')[1].split('"')[0].replace("&amp;", "&")
    assert client.get("/move?" + first).status_code == 303
    assert client.post("/new", data={"game": token(client)}).status_code == 303
    game, versions = token(client), itertools.count()
    assert client.get(f"/move?game={game}&v={next(versions)}&n=0&row=0&col=0").status_code == 303
    cell = client.get("/").text.split("&amp;n=2&amp;")[1].split('"')[0].replace("&amp;", "&")  # a free cell

    def move() -> None:
        assert client.get(f"/move?game={game}&v={next(versions)}&n=2&{cell}").status_code == 303
        assert client.post("/undo", data={"game": game, "v": next(versions), "n": "4"}).status_code == 303

    return {"page": lambda: client.get("/"), "move and undo": move}


def token(client) -> str:
    return client.get("/").text.split('name="game" value="')[1].split('"')[0]


def cpu(request: Callable[[], None], n: int) -> float:
    start = time.process_time()
    for _ in range(n):
        request()
    return (time.process_time() - start) / n * 1e6


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
