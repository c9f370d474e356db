"""Load benchmark, run by hand: python bench/load.py [--players 32] [--seconds 10] [--rounds 3]

N simulated players each play whole games as a browser does (follow a random cell link,
follow its See Other to the new board, repeat; then start a new game) against gunicorn
with 2 workers on loopback, for the embedded SQLite store and for Redis. Beside them, served
the same way: the bare Flask app the ratios are taken to (bench/bare_app.py), and the
floor app (bench/floor_app.py), which sends the game's traffic with none of its work, to
show how much of the gap no app code could close. It prints moves/s, p50 and p99 latency
of the move request, errors and lost games (a move the next page does not show), and each
app's figures as ratios to the bare app's.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import re
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests import servers  # noqa: E402

LINK = re.compile(r'href="(/move\?[^"]+)"')
MARK = re.compile(r'data-mark="([XO]?)"')
MEDIANS = ("moves/s", "p50 ms", "p99 ms", "server ms", "players ms")


def player(base: str, seconds: float, seed: int, out) -> None:
    """One player, playing games back to back until time is up."""
    rng = random.Random(seed)
    client = servers.HttpClient(base)
    latencies, errors, lost, moves = [], 0, 0, 0
    deadline = time.monotonic() + seconds
    page = None
    while time.monotonic() < deadline:
        try:
            if page is None:
                page = client.get("/").text
            links = LINK.findall(page)
            if not links:
                client.post("/new", data={"game": _token(page)})
                page = None  # as a browser does, follow the See Other to the board
                continue
            marks = MARK.findall(page)
            start = time.perf_counter()
            response = client.get(rng.choice(links))  # HttpClient unescapes &amp;
            latencies.append(time.perf_counter() - start)
            moves += 1
            page = None
            if response.status_code != 303:
                errors += 1
                continue
            page = client.get("/").text  # the board the See Other leads to: shown, then played on
            if marks and MARK.findall(page).count("") >= marks.count(""):  # the bare app shows no marks
                lost += 1
        except OSError:
            errors += 1
            page = None
    out.put((latencies, errors, lost, moves))


def _token(page: str) -> str:
    found = re.search(r'name="game" value="([^"]*)"', page)
    return found.group(1) if found else ""


def run(base: str, players: int, seconds: float) -> dict:
    out = multiprocessing.Queue()
    procs = [multiprocessing.Process(target=player, args=(base, seconds, n, out)) for n in range(players)]
    port = urlsplit(base).port
    server_cpu, players_cpu = _server_cpu(port), _children_cpu()
    start = time.perf_counter()
    for p in procs:
        p.start()
    results = [out.get() for _ in procs]
    for p in procs:
        p.join()
    elapsed = time.perf_counter() - start
    server_cpu, players_cpu = _server_cpu(port) - server_cpu, _children_cpu() - players_cpu
    latencies = sorted(lat for r in results for lat in r[0])
    moves = sum(r[3] for r in results)
    return {
        "moves/s": moves / elapsed,
        "server ms": server_cpu / moves * 1e3,
        "players ms": players_cpu / moves * 1e3,
        "p50 ms": statistics.median(latencies) * 1e3,
        "p99 ms": latencies[int(len(latencies) * 0.99)] * 1e3,
        "errors": sum(r[1] for r in results),
        "lost": sum(r[2] for r in results),
    }


def _server_cpu(port: int) -> float:
    """CPU seconds used so far by the processes serving `port`: gunicorn and its workers."""
    total = 0
    for process in Path("/proc").glob("[0-9]*"):
        try:
            if f"127.0.0.1:{port}".encode() in (process / "cmdline").read_bytes():
                fields = (process / "stat").read_text().rsplit(")", 1)[1].split()
                total += int(fields[11]) + int(fields[12])  # utime and stime, in clock ticks
        except OSError:  # gone meanwhile
            continue
    return total / os.sysconf("SC_CLK_TCK")


def _children_cpu() -> float:
    """CPU seconds used by this process's finished children: the players."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list[dict]] = {"bare Flask": [], "floor": [], "SQLite": [], "Redis": []}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        tmp = Path(tmp)
        redis = servers.RedisServer(tmp / "redis", fsync="everysec").start()
        stack.callback(redis.stop)
        every_player_new = {
            "TTT_NEW_SESSION_LIMIT": "1000000 per minute",
        }  # they all share one address
        bases = {
            "bare Flask": stack.enter_context(servers.gunicorn({}, app="bench.bare_app:app")),
            "floor": stack.enter_context(servers.gunicorn({}, app="bench.floor_app:app")),
            "SQLite": stack.enter_context(servers.gunicorn(servers.app_env(tmp / "sqlite", **every_player_new))),
            "Redis": stack.enter_context(
                servers.gunicorn(servers.app_env(tmp / "redis-app", REDIS_URL=redis.url, **every_player_new))
            ),
        }
        for _ in range(args.rounds):  # interleaved, so that a busy spell on the machine hits every app
            for name, base in bases.items():
                runs[name].append(run(base, args.players, args.seconds))
    report(runs, args)


def report(runs: dict[str, list[dict]], args) -> None:
    """Medians over the rounds; each ratio is the median of the rounds' ratios to bare."""
    print(
        f"{args.players} players, {args.rounds} rounds of {args.seconds:.0f} s, gunicorn 2 workers on loopback;"
        " medians over the rounds; CPU in ms per move, for gunicorn and for the players"
    )
    columns = ("moves/s", "p50 ms", "p99 ms", "errors", "lost", "x bare", "p99 x bare", "server", "players")
    print(f"{'':12}" + "".join(f"{column:>11}" for column in columns))
    bare = runs["bare Flask"]
    for name, rounds in runs.items():
        median = {key: statistics.median(r[key] for r in rounds) for key in MEDIANS}
        speed = statistics.median(r["moves/s"] / b["moves/s"] for r, b in zip(rounds, bare, strict=True))
        tail = statistics.median(r["p99 ms"] / b["p99 ms"] for r, b in zip(rounds, bare, strict=True))
        errors, lost = sum(r["errors"] for r in rounds), sum(r["lost"] for r in rounds)
        print(
            f"{name:12}{median['moves/s']:11.0f}{median['p50 ms']:11.1f}{median['p99 ms']:11.1f}{errors:11d}{lost:11d}"
            f"{speed:11.2f}{tail:11.2f}{median['server ms']:11.2f}{median['players ms']:11.2f}"
        )


if __name__ == "__main__":
    main()
