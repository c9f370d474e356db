"""Where the game page's own time goes, run by hand: python bench/page_profile.py [--calls 1000]

The page (`GET /` with a game in the session, SQLite) through the test client under cProfile;
each function's own time is summed by where it lives (a built-in's, by where it was called
from), and printed as shares of the whole.
cProfile adds a cost per call, so the template's many small calls weigh a little more than
they do unprofiled; shares, not times, are what it is for."""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys
import tempfile
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttt_web.app import create_app

AREAS = [
    ("the template (Jinja, MarkupSafe)", ("jinja2", "markupsafe", "/templates/")),
    ("Flask-Limiter", ("flask_limiter", "/limits/", "web/limits.py")),
    ("the session: store read, JSON, session object", ("sessions.py", "store/", "flask_session", "json", "sqlite3")),
    ("security headers and checks", ("web/security.py", "datastructures/headers.py")),
    ("the game, its board's view, the score, links", ("ttt_web/web/", "ttt_web/core/", "ttt_web/play/")),
    ("the test client (a server's share in production)", ("werkzeug/test.py", "flask/testing.py")),
]
REST = "Flask, Werkzeug and the standard library"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1000)
    args = parser.parse_args()
    app = create_app({"SECRET_KEY": "profile", "DATABASE": tempfile.mkdtemp() + "/ttt.sqlite3"})
    client = app.test_client()
    link = client.get("/").text.split('href="/move?')[1].split('"')[0].replace("&amp;", "&")
    client.get("/move?" + link)
    for _ in range(50):
        client.get("/")
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.calls):
        client.get("/")
    profile.disable()
    shares = Counter()
    for (path, _line, _name), (_calls, _primitive, own, _cumulative, callers) in pstats.Stats(profile).stats.items():
        if path == "~" and callers:  # a built-in (str.join, dict.get): counted where it was called from
            path = max(callers.items(), key=lambda caller: caller[1][3])[0][0]
        shares[next((area for area, parts in AREAS if any(part in path for part in parts)), REST)] += own
    whole = sum(shares.values())
    print("| where | share of the page's time |\n| --- | --- |")
    for area, own in shares.most_common():
        print(f"| {area} | {own / whole:.0%} |")


if __name__ == "__main__":
    main()
