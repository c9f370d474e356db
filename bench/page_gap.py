"""What the game's page costs beyond its floor, run by hand: python bench/page_gap.py [--redis]

In one process through Flask's test client, taking turns: the game's page (`GET /` with a
game of two moves in the session) and bench/page_floor_app.py's (the same page's bytes,
rendered after reading a stored session on the same store, nothing else), and the game's
page again with no game kept decoded (web/stored_games.py), as on a worker that did not
store it. Each request's CPU time (`time.process_time`), median of 7 runs of 2,000; then
the wall time of the parts of the game's request that the floor does not have, each timed
where it is called, per request. A page at 0.8 of the Jinja floor may spend on the game's own work no more than
what the page floor leaves (docs/performance.md)."""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import servers
from tests.page import Page
from ttt_web.app import create_app
from ttt_web.play import page as game_page
from ttt_web.play import views as game_views
from ttt_web.web import cookies, score, session_data, stored_games

CALLS = 2000
spent: Counter = Counter()


def timed(function, name: str):
    @functools.wraps(function)
    def run(*args, **kwargs):
        start = time.perf_counter()
        try:
            return function(*args, **kwargs)
        finally:
            spent[name] += time.perf_counter() - start

    return run


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--redis", action="store_true", help="on a Redis server of its own, not SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        game, floor = clients(store_config(tmp, stack, args.redis, "gap"))
        cpu = {name: [] for name in ("game", "floor", "unkept")}
        for _ in range(7):
            for name, client, before in (("game", game, None), ("floor", floor, None), ("unkept", game, forget)):
                start = time.process_time()
                for _ in range(CALLS):
                    if before:
                        before()
                    client.get("/")
                cpu[name].append((time.process_time() - start) / CALLS * 1e6)
        page, bottom, unkept = (statistics.median(cpu[name]) for name in ("game", "floor", "unkept"))
        print(f"CPU per request: the game's page {page:.0f} µs, the page floor {bottom:.0f} µs")
        print(f"the game's own work: {page - bottom:.0f} µs a page")
        print(f"with no game kept decoded (as on a worker that did not store it): {unkept:.0f} µs,", end=" ")
        print(f"{unkept - bottom:.0f} µs more than the page floor")
        parts(game)


def forget() -> None:
    """Forget every game kept decoded and what the page worked out of it."""
    stored_games.decoded.cache_clear()


def store_config(tmp: str, stack: contextlib.ExitStack, redis: bool, secret: str) -> dict:
    """The app's config: SQLite in `tmp`, or with `redis` a Redis server of its own, stopped with `stack`."""
    config = {"SECRET_KEY": secret, "DATABASE": tmp + "/ttt.sqlite3"}
    if redis:
        server = servers.RedisServer(Path(tmp) / "redis", fsync="everysec").start()
        stack.callback(server.stop)
        config["REDIS_URL"] = server.url
    return config


def clients(config: dict):
    """A client of the game with a game of two moves, and one of the page floor (on the same
    kind of store) with its stored session."""
    os.environ["TTT_INSTANCE_DIR"] = str(Path(config["DATABASE"]).parent / "floor")
    if "REDIS_URL" in config:
        os.environ["REDIS_URL"] = config["REDIS_URL"]
    from bench import page_floor_app

    game = create_app(config).test_client()
    first = Page(game.get("/").text).links
    assert game.get(min(first.values())).status_code == 303
    floor = page_floor_app.app.test_client()
    assert floor.get("/start").status_code == 200
    return game, floor


def parts(game) -> None:
    """The wall time of the game's own parts of its page, per request."""
    app = game.application
    for hooks, kind in ((app.before_request_funcs, "before"), (app.after_request_funcs, "after")):
        hooks[None] = [
            timed(hook, f"{kind} request: {getattr(hook, '__name__', 'count_new_session')}") for hook in hooks[None]
        ]
    app.teardown_request_funcs[None] = [timed(hook, "teardown") for hook in app.teardown_request_funcs[None]]
    game_views.requested_start = timed(game_views.requested_start, "reading the address (?from, ?g)")
    session_data.current_game = timed(session_data.current_game, "decoding the stored game")
    game_page.about_the_game = timed(game_page.about_the_game, "the score, moves and players")
    game_page.shown_board = timed(game_page.shown_board, "the board's view (drawn kept per position)")
    cookies.teach_on = timed(cookies.teach_on, "the teach-mode cookie")
    score.preferences = timed(score.preferences, "the new-game form's choices")
    app.wsgi_app = timed(app.wsgi_app, "whole request (WSGI)")
    for _ in range(CALLS):
        game.get("/")
    print("| part of the game's page | µs per request |\n| --- | --- |")
    for name, seconds in spent.most_common():
        print(f"| {name} | {seconds / CALLS * 1e6:.1f} |")


if __name__ == "__main__":
    main()
