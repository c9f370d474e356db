"""Page and move throughput with wrk, run by hand: python bench/wrk.py [--seconds 10] [--rounds 3] [--pages]

wrk (Debian's package; `make bench` installs it) costs little CPU, so on this two-core
machine the server gets most of it. Each app is served as `make run` serves the game
(gunicorn.conf.py, 2 gevent workers), and each figure is taken against bench/bare_app.py
served the same way, in the same run, round after round:

- page: GET / with a game in the session (one move played), 16 connections;
- move: 16 connections, each its own player with its own session, alternating a move on the
  empty board (the AI replies) and the undo that takes both back: every request reads the
  session and its version, plays or undoes, and writes it back by compare-and-set. Against
  the bare app, the same requests get a plain redirect;
- move, one player: the same with one connection, so that nothing waits for another request:
  the move's p50 (which includes the AI's reply) is a request's own time, to compare with
  bare's (the "p50 x bare" column);
- waiting room: GET of a room's page by the player who waits for a friend's move, as its
  meta refresh asks for it every couple of seconds (the issue's "polling must be cheap"),
  16 connections; its ratio is to the bare app's page.

For the move only, bench/session_floor_app.py on each store: the session read, a change and
the compare-and-set write, and the redirect, with nothing of the game. For the page only,
bench/page_floor_app.py on each store: a stored session read, then the Jinja floor's page,
with nothing of the game.

Beside them, for the page only, bench/jinja_floor_app.py: the game's own page template
rendered from a fixed game with none of the game's work, to show what any page of this
content rendered by Jinja could reach.

Prints requests/s, p50 and p99 latency (medians over the rounds), the ratio to the bare
app and, for pages, to the Jinja floor (the medians of the rounds' ratios). The game is
served on both stores: SQLite (the embedded default) and Redis.
"""

from __future__ import annotations

import argparse
import contextlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402
from tests.conftest import Player  # noqa: E402
from tests.page import Page  # noqa: E402

CONNECTIONS = 16
MOVE_SCRIPT = """
local n = 0
function setup(thread)
  thread:set("id", n)
  n = n + 1
end
function init(args)
  local sid = args[id * 2 + 1]
  token = args[id * 2 + 2]
  headers = {["Cookie"] = "ttt=" .. sid, ["Content-Type"] = "application/x-www-form-urlencoded"}
  step = 0
end
function request()  -- wrk also calls this once to check the script, so the step moves on a response
  local shown = "game=" .. token .. "&v=" .. step  -- the game's version: one more per move or undo
  if step % 2 == 0 then return wrk.format("GET", "/move?" .. shown .. "&n=0&row=1&col=1", headers) end
  return wrk.format("POST", "/undo", headers, shown .. "&n=2")
end
function response(status, headers, body)
  step = step + 1
end
"""
ONE = "move, one player"  # one connection: a request's own time, the server otherwise idle
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}


def setup(base: str) -> tuple[str, list[str]]:
    """The session id of a reader whose game has one move, and for the move script, the
    session id and game token of each of CONNECTIONS + 1 players with a new game: the last
    one's for the run with one connection, as the script counts the game's version from 0."""
    reader = Player(servers.HttpClient(base))
    reader.move(0, 0)
    move_args = []
    for _ in range(CONNECTIONS + 1):
        player = Player(servers.HttpClient(base))
        player.submit("new-game")
        move_args += [player.client.cookies["ttt"], player.page().form("undo")["game"]]
    return reader.client.cookies["ttt"], move_args


def session_floor_setup(base: str) -> list[str]:
    """For the move script against the session floor: each player's stored session."""
    move_args = []
    for _ in range(CONNECTIONS):
        client = servers.HttpClient(base)
        assert client.get("/move").status_code == 303
        move_args += [client.cookies["ttt"], "none"]
    return move_args


def page_floor_setup(base: str) -> str:
    """For the page against the page floor: the session id of a stored session."""
    client = servers.HttpClient(base)
    assert client.get("/start").status_code == 200
    return client.cookies["ttt"]


def waiting_room(base: str) -> tuple[str, str]:
    """A room's path and the session id of its host, who has moved and waits for the guest."""
    host, guest = servers.HttpClient(base), servers.HttpClient(base)
    path = urlsplit(host.post("/room/new").headers["Location"]).path
    guest.post(f"{path}/join")
    first = next(iter(Page(host.get(path).text).links.values()))
    assert host.get(first).status_code == 303
    return path, host.cookies["ttt"]


def wrk(
    url: str, seconds: float, script: Path | None = None, args: list[str] = (), cookie: str = "", n: int = 0
) -> dict:
    n = n or CONNECTIONS
    command = [shutil.which("wrk") or "wrk", f"-t{n}", f"-c{n}", f"-d{seconds:.0f}s", "--latency"]
    if cookie:
        command += ["-H", f"Cookie: ttt={cookie}"]
    if script:
        command += ["-s", str(script)]
    out = subprocess.run([*command, url, "--", *args], capture_output=True, text=True, check=True).stdout
    errors = sum(int(n) for n in re.findall(r"(?:Non-2xx or 3xx responses|connect|read|write|timeout):? (\d+)", out))
    latency = {p: float(v) * UNITS[u] for p, v, u in re.findall(r"^\s+(50|99)%\s+([\d.]+)(us|ms|s)\s*$", out, re.M)}
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    return {"rps": rps, "p50": latency["50"], "p99": latency["99"], "errors": errors}


def answers(client: servers.HttpClient) -> bool:
    """Whether the app answers its page (a worker still starting on a busy machine may not, yet)."""
    try:
        return client.get("/").status_code == 200
    except TimeoutError:
        return False


def warm_up(base: str) -> None:
    """Wait until every worker answers (a worker that is still starting, under load, would
    leave the first run at 0 requests/s), then one short run that is not counted."""
    client = servers.HttpClient(base)
    deadline = time.monotonic() + 120
    while not answers(client) and time.monotonic() < deadline:
        time.sleep(0.5)
    wrk(base + "/", 2, cookie="none")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pages", action="store_true", help="only the page: the game's, its floors' and bare's")
    args = parser.parse_args()
    servers.require("wrk", "wrk")
    results: dict[tuple[str, str], list[dict]] = {}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        tmp = Path(tmp)
        script = tmp / "move.lua"
        script.write_text(MOVE_SCRIPT)
        bases = serve(stack, tmp)
        if args.pages:
            bases = {name: base for name, base in bases.items() if not name.endswith("session floor")}
        for base in bases.values():
            warm_up(base)
        for _ in range(args.rounds):  # interleaved, so that a busy spell hits every app
            for name, base in bases.items():
                for kind, run in measured(name, base, args.seconds, script, args.pages):
                    results.setdefault((name, kind), []).append(run)
    report(results, args)


def serve(stack: contextlib.ExitStack, tmp: Path) -> dict[str, str]:
    """Every app, served as `make run` serves the game: its name and address."""
    redis = servers.RedisServer(tmp / "redis", fsync="everysec").start()
    stack.callback(redis.stop)
    many = {
        "TTT_NEW_SESSION_LIMIT": "1000000 per minute",
    }  # every player comes from one address
    apps = {
        "bare Flask": ({}, "bench.bare_app:app"),
        "Jinja floor": ({}, "bench.jinja_floor_app:app"),
        "SQLite": (servers.app_env(tmp / "sqlite", **many), "wsgi:app"),
        "Redis": (servers.app_env(tmp / "redis", REDIS_URL=redis.url, **many), "wsgi:app"),
    }
    for store, extra in (("SQLite", {}), ("Redis", {"REDIS_URL": redis.url})):
        for floor in ("session", "page"):
            env = servers.app_env(tmp / f"{store}-{floor}", **extra)
            apps[f"{store} {floor} floor"] = (env, f"bench.{floor}_floor_app:app")
    return {name: stack.enter_context(servers.gunicorn(env, app=app)) for name, (env, app) in apps.items()}


def measured(name: str, base: str, seconds: float, script: Path, pages: bool = False) -> list[tuple[str, dict]]:
    """One round of the requests each app is measured on (only the page if `pages`): (kind,
    wrk's figures)."""
    if name.endswith("page floor"):
        return [("page", wrk(base + "/", seconds, cookie=page_floor_setup(base)))]
    if name.endswith("session floor"):
        move_args = session_floor_setup(base)
        return [("move", wrk(base, seconds, script, move_args)), (ONE, wrk(base, seconds, script, move_args, n=1))]
    game = name in ("SQLite", "Redis")
    cookie, move_args = setup(base) if game else ("none", ["none"] * 2 * (CONNECTIONS + 1))
    runs = [("page", wrk(base + "/", seconds, cookie=cookie))]
    if pages:
        return runs
    if name != "Jinja floor":
        many, one = move_args[: 2 * CONNECTIONS], move_args[2 * CONNECTIONS :]
        runs += [("move", wrk(base, seconds, script, many)), (ONE, wrk(base, seconds, script, one, n=1))]
    if game:
        path, host = waiting_room(base)
        runs.append(("waiting room", wrk(base + path, seconds, cookie=host)))
    return runs


def report(results: dict, args) -> None:
    print(f"wrk, {CONNECTIONS} connections, {args.rounds} rounds of {args.seconds:.0f} s, 2 gevent workers")
    print("| app | request | requests/s | p50 ms | p99 ms | errors | x bare | p50 x bare | x Jinja floor |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for (name, kind), runs in results.items():
        bare = results.get(("bare Flask", kind)) or results[("bare Flask", "page")]
        floor = results[("Jinja floor", "page")]
        rps, p50, p99 = (statistics.median(run[key] for run in runs) for key in ("rps", "p50", "p99"))
        errors = sum(run["errors"] for run in runs)
        to_floor = f"{ratio(runs, floor):.2f}" if kind == "page" else ""
        ratios = f"{ratio(runs, bare):.2f} | {ratio(runs, bare, 'p50'):.2f}"
        print(f"| {name} | {kind} | {rps:.0f} | {p50:.2f} | {p99:.2f} | {errors} | {ratios} | {to_floor} |")


def ratio(runs: list[dict], yardstick: list[dict], key: str = "rps") -> float:
    """The median over the rounds of each round's requests/s (or `key`) against the yardstick's."""
    return statistics.median(run[key] / other[key] for run, other in zip(runs, yardstick, strict=True))


if __name__ == "__main__":
    main()
