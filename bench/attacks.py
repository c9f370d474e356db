"""Attacks against players: python bench/attacks.py [--seconds 6] [--stores sqlite redis] [--attacks WORD]

Eight players play the AI as fast as they can, each from a loopback address of its own
(tests/attacks.py), on what `make run` starts: `make run` itself (tests/servers.make_run), so
nginx (deploy/nginx.conf, filled in by deploy/front.py) in front of gunicorn with 2 gevent
workers on a unix socket; SQLite, or Redis with --stores redis. Each attack runs in a process
of its own (an attacker is a machine of its own: its threads do not take turns with the
players' for one interpreter's lock), on the same 2 cores. Each row ends with the machine's
load average (`uptime`'s first figure) when it was measured: others' work beside the run.

For each attack, the players' moves in `--seconds` alone, then in `--seconds` under the
attack, in the same run, and the ratio; then 10 newcomers (no cookie, each from a network of
its own) one after another while the attack goes on: how many loaded the board and played
their first move within 5 s, and their median time. Each row says too, in ms of CPU a second
(from /proc/PID/stat, so whatever else the machine does), the server's (nginx's and
gunicorn's processes, and Redis with --stores redis) that the players use alone, what the
attack adds to it, and the attacker's own. Each process's CPU seconds, and a stream flood's
answers by status, the streams it held and what was read on them, go to stderr. The attacks (issues #31, #43):

- nothing: no attack, the ratio's own spread (the machine's other work from one window to
  the next);
- pictures: 2 clients (one address each) fetch review pictures of random games, nonstop;
- streams 7 x 400: 7 addresses x 400 event streams over 3 rooms, each refused one asked
  again after its Retry-After (10 s);
- streams 20 x 50, at once: 20 addresses x 50 streams, each refused one asked again after 1 s;
- keep-alives 12 x 400: 12 addresses x 400 keep-alive connections, each asking for
  /robots.txt every 4 s;
- sessions from 250 networks: first moves with no cookie from 250 addresses, each on a
  network of its own, 16 at a time (and again 200 at a time), as fast as the server answers;
- chunked bodies: 20 addresses, each posting a 4 MB chunked body to /new every second;
- rooms from 15 networks: 15 addresses, each making rooms with no cookie as fast as the
  server answers (a refused one asked again 0.1 s later).

Pages worked out on demand (issue #43), each asked by 2 clients (127.0.7.x, one address each)
as fast as the server answers, beside the players, in turns (the players alone, then beside
the flood, four times): the depth-limited page's 27 (depth, evaluation) pairs in turn from
the server's start, on random positions; cold explorer pages (random positions, with and
without the way back to a game); explorer pages with a student's answer marked; drills on
random positions and random trees, graded; pasted boards in the explorer's, the trace's and
the depth-limited page's forms; and a kept page, the yardstick.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import random
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import redis as servers_redis  # noqa: E402

from tests import attacks, servers  # noqa: E402


def pictures(base: str):
    return attacks.PictureFlood(base, 2)


def streams(addresses: int, per_address: int, pause: float):
    def flood(base: str):
        host = servers.HttpClient(base, source="127.0.6.1")
        paths = [host.post("/room/new").headers["Location"] + "/events" for _ in range(3)]
        return attacks.StreamFlood(base, paths, addresses=addresses, per_address=per_address, pause=pause)

    return flood


ATTACKS = {
    "nothing (the ratio's spread with no attack)": lambda base: contextlib.nullcontext(),
    "pictures": pictures,
    "streams 7 x 400 (retry after 10 s)": streams(7, 400, 10),
    "streams 20 x 50 (retry after 1 s)": streams(20, 50, 1),
    "keep-alives 12 x 400": lambda base: attacks.KeepAliveFlood(base, addresses=12, per_address=400),
    "sessions from 250 networks": lambda base: attacks.SessionFlood(base, addresses=250, count=16),
    "sessions from 250 networks, 200 at a time": lambda base: attacks.SessionFlood(base, addresses=250, count=200),
    "4 MB chunked bodies": lambda base: attacks.ChunkedBodies(base, 20, pause=1),
    "rooms from 15 networks": lambda base: attacks.RoomFlood(base, addresses=15),
}


# Pages worked out on demand (issue #43).

LIVE = sorted(p for p in attacks.judge.reachable() if not attacks.judge.is_over(p))
EVERY = sorted(attacks.judge.reachable())


class PageFlood(attacks.Background):
    """`count` clients (127.0.7.x), each asking for one page after another that `path(rng)`
    names, as fast as the server answers; `statuses` counts the answers."""

    def __init__(self, base: str, path, count: int = 2) -> None:
        super().__init__(count)
        self.on = threading.Event()  # the flood asks only while it is set (see interleaved)
        self.clients = [servers.HttpClient(base, timeout=10, source=f"127.0.7.{n + 1}") for n in range(count)]
        self.rngs = [random.Random(700 + n) for n in range(count)]
        self.path = path
        self.statuses: dict[int, int] = {}

    def _work(self, n: int) -> None:
        if not self.on.wait(0.1):
            return
        status = self.clients[n].get(self.path(self.rngs[n])).status_code
        self.statuses[status] = self.statuses.get(status, 0) + 1

    def __exit__(self, *exc) -> None:
        super().__exit__(*exc)
        print(f"    (the flood's answers: {dict(sorted(self.statuses.items()))})", file=sys.stderr, flush=True)


PAIRS = [(depth, evaluation) for depth in range(1, 10) for evaluation in ("open-lines", "weighted", "zero")]


def limited_page(rng: random.Random) -> str:
    """The 27 (depth, evaluation) pairs in turn, from the server's start, each on a random position."""
    asked = rng.asked = getattr(rng, "asked", -1) + 1  # type: ignore[attr-defined]
    depth, evaluation = PAIRS[asked % len(PAIRS)]
    return f"/learn/limited/{rng.choice(LIVE)}?depth={depth}&evaluation={evaluation}"


def explorer_page(rng: random.Random) -> str:
    return f"/explore/{rng.choice(EVERY)}" + rng.choice(("", "?back=game"))


def student_page(rng: random.Random) -> str:
    position = rng.choice(LIVE)
    cell = rng.choice([n for n, mark in enumerate(position) if mark == "."])
    return f"/explore/{position}?student={cell // 3},{cell % 3}"


def drill_page(rng: random.Random) -> str:
    mode = rng.choice(("backup", "prune"))
    if rng.random() < 0.5:
        leaves = ",".join(str(rng.randint(-9, 20)) for _ in range(3))
        return f"/learn/practice/{mode}?tree=(({leaves}),({leaves}),({leaves}))&check=1"
    small = [p for p in LIVE if p.count(".") == 3]
    return f"/learn/practice/{mode}?position={rng.choice(small)}&check=1"


def pasted_board(rng: random.Random) -> str:
    rows = [rng.choice(EVERY)[n : n + 3] for n in (0, 3, 6)]  # often a board no game reaches
    board = "\n".join(" ".join(row) for row in rows)
    form = rng.choice(("/explore/paste", "/learn/trace/", "/learn/limited/"))
    return f"{form}?" + urlencode({"board": board})


def pages(path):
    return lambda base: PageFlood(base, path)


def interleaved(env: dict, name: str, flood, seconds: float, turns: int = 4) -> str:
    """The players' moves alone and beside the flood, in turns of seconds / turns each, so that
    the machine's other work of the moment weighs on both alike."""
    alone = attacked = 0
    with (
        servers.make_run(env) as base,
        Apart(flood, base) as pages,
        attacks.Players(base) as players,
        pages.going(),
    ):
        quiet, loud = CpuShares(base, env, pages.process.pid), CpuShares(base, env, pages.process.pid)
        for _ in range(turns):
            pages.on.clear()
            time.sleep(0.3)  # the flood's requests under way end
            with quiet:
                alone += players.count_for(seconds / turns)
            pages.on.set()
            with loud:
                attacked += players.count_for(seconds / turns)
        served = attacks.newcomer_served(base, "127.0.5.1")
    ratio = attacked / alone if alone else 0
    cpu = cpu_figures(quiet, loud, alone, attacked, seconds)
    return f"| {name} | {alone} | {attacked} | {ratio:.2f} | {cpu} | {'1 of 1' if served else '0 of 1'} | | {load()} |"


PAGE_FLOODS = {
    "a kept page (the yardstick: the explorer's first)": pages(lambda rng: "/explore/"),
    "depth-limited pages, 27 pairs from the start": pages(limited_page),
    "cold explorer pages": pages(explorer_page),
    "student's answer pages": pages(student_page),
    "drills": pages(drill_page),
    "pasted boards": pages(pasted_board),
}
ATTACKS |= PAGE_FLOODS


TICK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """The CPU a process has spent (user + system, /proc/PID/stat), 0 if it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / TICK


def server_roles(base: str, env: dict) -> dict[int, str]:
    """The processes `make run` started for `base` (those in its session: tests/servers.make_run
    starts it in a session of its own), each by its role: nginx's and gunicorn's workers and
    masters, and front.py and make; and the redis-server of env's REDIS_URL, if any."""
    port = base.rsplit(":", 1)[1]
    pids = [int(entry.name) for entry in Path("/proc").iterdir() if entry.name.isdigit()]
    session = next(pid for pid in pids if Path(_cmdline(pid)[0]).name == "make" and f"PORT={port}" in _cmdline(pid))
    redis = f"redis-server 127.0.0.1:{urlsplit(env.get('REDIS_URL', '')).port}"  # its title, as ps shows it
    found = {}
    for pid in pids:
        with contextlib.suppress(OSError):
            command = _cmdline(pid)
            if os.getsid(pid) == session:
                found[pid] = _role(command, _cmdline(_parent(pid)))
            elif " ".join(command).strip().endswith(redis):
                found[pid] = "redis"
    return found


def _cmdline(pid: int) -> list[str]:
    try:
        return Path(f"/proc/{pid}/cmdline").read_text().split("\0")
    except OSError:
        return [""]


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])


def _role(command: list[str], parent: list[str]) -> str:
    line, parent_line = " ".join(command), " ".join(parent)
    if line.startswith("nginx: worker"):
        return "nginx workers"
    if "gunicorn" in line:
        return "gunicorn workers" if "gunicorn" in parent_line else "gunicorn master"
    return "nginx master, front.py, make"


class CpuShares:
    """The CPU seconds each role spends while entered (added up over each time it is): the
    server's processes (server_roles), the attacker's process and this one (the players'
    threads). Read from /proc, so that they do not depend on the machine's other work."""

    def __init__(self, base: str, env: dict, attacker: int) -> None:
        self.roles = server_roles(base, env) | {os.getpid(): "players", attacker: "attacker"}  # attacker: may be this
        self.before: dict[int, float] = {}
        self.spent = dict.fromkeys(self.roles.values(), 0.0)

    def __enter__(self) -> CpuShares:
        self.before = {pid: cpu_seconds(pid) for pid in self.roles}
        return self

    def __exit__(self, *exc) -> None:
        for pid, role in self.roles.items():
            self.spent[role] += cpu_seconds(pid) - self.before[pid]

    @property
    def server(self) -> float:
        return sum(seconds for role, seconds in self.spent.items() if role not in ("attacker", "players"))

    def __str__(self) -> str:
        return ", ".join(f"{role} {seconds:.2f}" for role, seconds in sorted(self.spent.items()))


def cpu_figures(quiet: CpuShares, loud: CpuShares, alone: int, attacked: int, seconds: float) -> str:
    """The server's CPU (nginx's, gunicorn's and Redis's processes) a second that the players use alone,
    and what the attack adds to it: the server's CPU under attack less what the players' moves
    then would take at their cost alone; and the attacker's own. Whatever else the machine
    does, these hold where the moves' count does not."""
    if not alone:
        return "-"
    per_move = quiet.server / alone
    players = quiet.server / seconds * 1000
    added = (loud.server - per_move * attacked) / seconds * 1000
    attacker = loud.spent["attacker"] / seconds * 1000
    print(f"    (CPU seconds alone: {quiet}; under attack: {loud})", file=sys.stderr, flush=True)
    return f"{players:.0f} ({per_move * 1000:.1f} a move) | {added:+.0f} | {attacker:.0f}"


def load() -> str:
    """The machine's load average over the last minute, as `uptime` says it: others' work beside the run."""
    return f"{os.getloadavg()[0]:.1f}"


class Apart:
    """An attack in a process of its own, as an attacker is a machine of its own: its clients'
    threads do not take turns with the players' for one interpreter's lock. The process is
    forked at once, before any player's thread starts, and waits; `going()` runs the attack
    (`attack(base)`, entered) until it ends. `on`: a page flood asks only while it is set."""

    def __init__(self, attack, base: str) -> None:
        forking = multiprocessing.get_context("fork")
        self.go, self.started, self.stop, self.on = (forking.Event() for _ in range(4))
        self.on.set()
        self.process = forking.Process(target=self._attack, args=(attack, base), daemon=True)

    def __enter__(self) -> Apart:
        self.process.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.go.set()
        self.process.join(60)
        if self.process.is_alive():
            self.process.kill()

    @contextlib.contextmanager
    def going(self):
        self.go.set()
        if not self.started.wait(120):
            raise RuntimeError("the attack did not start")
        try:
            yield self
        finally:
            self.stop.set()

    def _attack(self, attack, base: str) -> None:
        self.go.wait()
        if self.stop.is_set():
            return
        flood = attack(base)
        if isinstance(flood, PageFlood):
            flood.on = self.on
        with flood:
            self.started.set()
            self.stop.wait()
        if isinstance(flood, attacks.StreamFlood):
            print(f"    ({flood.summary()})", file=sys.stderr, flush=True)
        elif not isinstance(flood, PageFlood) and getattr(flood, "statuses", None):
            print(f"    (the attack's answers: {dict(sorted(flood.statuses.items()))})", file=sys.stderr, flush=True)


def run(env: dict, name: str, attack, seconds: float) -> str:
    """The players' moves alone, then under the attack; then newcomers, under the attack still
    (after the players' count: what they cost is not the attack's)."""
    with servers.make_run(env) as base, Apart(attack, base) as flood, attacks.Players(base) as players:
        quiet, loud = CpuShares(base, env, flood.process.pid), CpuShares(base, env, flood.process.pid)
        with quiet:
            alone = players.count_for(seconds)
        with flood.going():
            time.sleep(1)
            with loud:
                attacked = players.count_for(seconds)
            newcomers = attacks.newcomers_playing(base, 10)
    ratio = attacked / alone if alone else 0
    share = attacks.served_share(newcomers)
    cpu = cpu_figures(quiet, loud, alone, attacked, seconds)
    served = f"{share:.0%} | {attacks.median_ms(newcomers)}"
    return f"| {name} | {alone} | {attacked} | {ratio:.2f} | {cpu} | {served} | {load()} |"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[1], epilog="attacks: " + "; ".join(ATTACKS))
    parser.add_argument("--seconds", type=float, default=6, help="of play alone, then under each attack (6)")
    parser.add_argument("--stores", nargs="+", default=["sqlite"], choices=["sqlite", "redis"])
    parser.add_argument("--attacks", default="", help="only the attacks whose name has this word (all)")
    args = parser.parse_args()
    chosen = {name: attack for name, attack in ATTACKS.items() if args.attacks in name}
    tmp = Path(tempfile.mkdtemp(prefix="ttt-attacks-"))
    redis = servers.RedisServer(tmp / "redis").start() if "redis" in args.stores else None
    print(f"8 players' moves in {args.seconds:.0f} s alone, then under each attack (same run); `make run`")
    columns = ["moves alone", "under attack", "ratio", "server's CPU, players alone (ms a second)"]
    columns += ["the attack's on the server", "the attacker's", "newcomers served", "newcomer's median", "load"]
    print("| store | attack | " + " | ".join(columns) + " |")
    print("|" + " --- |" * (len(columns) + 2))
    try:
        for store in args.stores:
            for n, (name, attack) in enumerate(chosen.items()):
                extra = {}
                if store == "redis":
                    servers_redis.Redis.from_url(redis.url).flushdb()
                    extra["REDIS_URL"] = redis.url
                env = servers.app_env(tmp / f"{store}-{n}", **extra)
                measure = interleaved if name in PAGE_FLOODS else run
                print(f"| {store} " + measure(env, name, attack, args.seconds), flush=True)
    finally:
        if redis is not None:
            redis.stop()


if __name__ == "__main__":
    main()
