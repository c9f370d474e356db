"""What a stream flood costs, process by process: python bench/stream_flood_cost.py [--seconds 20] [--floods WORD]

`make run` (nginx in front of gunicorn's 2 gevent workers, SQLite) with nobody else on it,
and bench/attacks.py's stream floods (tests/attacks.StreamFlood: one selector loop in this
process, which does nothing else, so this process's CPU is the attacker's). For each, the CPU
seconds per second (user + system, /proc/PID/stat) of the attacker, nginx's workers and
gunicorn's workers, over `--seconds` once the flood's first round is answered; and what the
flood got meanwhile: answers by status, the streams it holds, the heartbeats read on them.
Figures of CPU, not of time, so they hold whatever else the machine does. Rows:

- idle: the server with nobody on it;
- held: 7 x 400 streams asked once, never again (the streams held and nothing else);
- 7 x 400, retry after 10 s; 20 x 50, retry after 1 s: bench/attacks.py's floods;
- the first round: 7 x 400 streams asked at once, until the flood's loop has read every answer.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.attacks import CpuShares  # noqa: E402
from tests import attacks, servers  # noqa: E402

ROLES = ("attacker", "nginx workers", "gunicorn workers")


def row(name: str, shares: CpuShares, seconds: float, flood: attacks.StreamFlood | None, before: dict) -> str:
    cpu = " | ".join(f"{shares.spent.get(role, 0.0) / seconds * 1000:.1f}" for role in ROLES)
    if flood is None:
        return f"| {name} | {cpu} | | |"
    answers = {status: count - before.get(status, 0) for status, count in sorted(flood.statuses.items())}
    answers = {status: count for status, count in answers.items() if count}
    return f"| {name} | {cpu} | {answers} | {flood.held} ({flood.reads} reads on them: heartbeats, events) |"


def measure(base: str, seconds: float, name: str, flood: attacks.StreamFlood | None = None) -> str:
    before = dict(flood.statuses) if flood else {}
    with CpuShares(base, {}, os.getpid()) as shares:
        time.sleep(seconds)
    return row(name, shares, seconds, flood, before)


def first_round(base: str, paths: list[str]) -> str:
    with CpuShares(base, {}, os.getpid()) as shares:
        start = time.monotonic()
        with attacks.StreamFlood(base, paths, addresses=7, per_address=400, pause=1e9) as flood:
            flood.settle(seconds=10)
            took = time.monotonic() - start
    return row(f"the first round of 7 x 400 (ms of CPU in all, in {took:.1f} s)", shares, 1, flood, {})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20, help="of each flood measured (20)")
    parser.add_argument("--floods", default="", help="only the floods whose name has this word (all)")
    args = parser.parse_args()
    env = servers.app_env(Path(tempfile.mkdtemp(prefix="ttt-stream-flood-")))
    print("| flood | attacker (ms of CPU a second) | nginx workers | gunicorn workers | answers | streams held |")
    print("| --- | --- | --- | --- | --- | --- |")
    floods = {
        "held: 7 x 400, asked once": dict(addresses=7, per_address=400, pause=1e9),
        "7 x 400, retry after 10 s": dict(addresses=7, per_address=400, pause=10),
        "20 x 50, retry after 1 s": dict(addresses=20, per_address=50, pause=1),
    }
    with servers.make_run(env) as base:
        host = servers.HttpClient(base, source="127.0.6.1")
        paths = [host.post("/room/new").headers["Location"] + "/events" for _ in range(3)]
        time.sleep(1)
        print(measure(base, args.seconds / 2, "idle"), flush=True)
        for name, shape in floods.items():
            if args.floods not in name:
                continue
            with attacks.StreamFlood(base, paths, **shape) as flood:
                flood.settle()
                print(measure(base, args.seconds, name, flood), flush=True)
            time.sleep(16)  # streams whose clients left end at their next heartbeat (15 s)
        if args.floods in "the first round":
            print(first_round(base, paths), flush=True)


if __name__ == "__main__":
    main()
