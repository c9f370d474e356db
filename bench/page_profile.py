"""Where the game page's own time goes, run by hand:
python bench/page_profile.py [--calls 1000] [--redis] [--move]

The page (`GET /` with a game in the session, SQLite, or with --redis a Redis server of its
own), or with --move a move and the undo that takes it back (each reads the session and
writes it by compare-and-set), through the test client under cProfile;
each function's own time is summed by where it lives (a built-in's, by where it was called
from), and printed as shares of the whole.
cProfile adds a cost per call, so the template's many small calls weigh a little more than
they do unprofiled; shares, not times, are what it is for."""

from __future__ import annotations

import argparse
import contextlib
import cProfile
import itertools
import pstats
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import servers
from ttt_web.app import create_app

AREAS = [
    ("the template (Jinja, MarkupSafe)", ("jinja2", "markupsafe", "/templates/")),
    ("the rate limits", ("/limits/", "web/limits.py", "web/limit_storage.py")),
    (
        "the session: store read and write, JSON, session object, cookie",
        ("sessions.py", "store/", "flask_session", "json", "sqlite3", "/redis/", "http/cookies", "sansio/http.py"),
    ),
    ("security headers and checks", ("web/security.py", "datastructures/headers.py")),
    ("the game, its board's view, the score, links", ("ttt_web/web/", "ttt_web/core/", "ttt_web/play/")),
    ("the test client (a server's share in production)", ("werkzeug/test.py", "flask/testing.py")),
]
REST = "Flask, Werkzeug and the standard library"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--redis", action="store_true", help="on a Redis server of its own, not SQLite")
    parser.add_argument("--move", action="store_true", help="a move and its undo, not the page")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        config = {"SECRET_KEY": "profile", "DATABASE": tmp + "/ttt.sqlite3"}
        if args.redis:
            redis = servers.RedisServer(Path(tmp) / "redis", fsync="everysec").start()
            stack.callback(redis.stop)
            config["REDIS_URL"] = redis.url
        profile = profiled(create_app(config).test_client(), args.move, args.calls)
    report(profile, "a move and its undo" if args.move else "the page")


def profiled(client, move: bool, calls: int) -> cProfile.Profile:
    """The page with one move played, or (`move`) a move on a new game and its undo."""
    link = client.get("/").text.split('href="/move?')[1].split('"')[0].replace("&amp;", "&")
    client.get("/move?" + link)
    token = client.get("/").text.split('name="game" value="')[1].split('"')[0]
    if move:
        client.post("/new", data={"game": token})
        token = client.get("/").text.split('name="game" value="')[1].split('"')[0]
    versions = itertools.count()  # the new game's: one more per move or undo

    def one_move():
        assert client.get(f"/move?game={token}&v={next(versions)}&n=0&row=1&col=1").status_code == 303
        assert client.post("/undo", data={"game": token, "v": next(versions), "n": "2"}).status_code == 303

    request = one_move if move else lambda: client.get("/")
    for _ in range(50):
        request()
    profile = cProfile.Profile(time.process_time)  # CPU: not the wait for a store's answer
    profile.enable()
    for _ in range(calls):
        request()
    profile.disable()
    return profile


def report(profile: cProfile.Profile, what: str) -> None:
    shares = Counter()
    for (path, _line, _name), (_calls, _primitive, own, _cumulative, callers) in pstats.Stats(profile).stats.items():
        if path == "~" and callers:  # a built-in (str.join, dict.get): counted where it was called from
            path = max(callers.items(), key=lambda caller: caller[1][3])[0][0]
        shares[next((area for area, parts in AREAS if any(part in path for part in parts)), REST)] += own
    whole = sum(shares.values())
    print(f"| where | share of {what}'s time |\n| --- | --- |")
    for area, own in shares.most_common():
        print(f"| {area} | {own / whole:.0%} |")


if __name__ == "__main__":
    main()
