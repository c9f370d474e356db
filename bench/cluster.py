"""A move on a Redis Cluster against one Redis, run by hand:
python bench/cluster.py [--players 16] [--seconds 5] [--rounds 3]

In the same run: one redis-server, and a cluster of 3 masters and 3 replicas (tests/servers.py),
both with appendfsync everysec; one gunicorn of 2 workers on each. Players play whole games as
bench/load.py's do, in rounds interleaved between the two, so that a busy spell on the machine
hits both. It prints moves/s and the move request's p50 and p99 (the medians of the rounds),
and the cluster's figures as ratios to one Redis's. Goal: the cluster's p50 within 1.5x."""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.load import run  # noqa: E402
from tests import servers  # noqa: E402

FIGURES = ("moves/s", "p50 ms", "p99 ms")
EVERY_PLAYER_NEW = {"TTT_NEW_SESSION_LIMIT": "1000000 per minute"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=16)
    parser.add_argument("--seconds", type=float, default=5)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    runs: dict[str, list[dict]] = {"one Redis": [], "cluster": []}
    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        tmp = Path(tmp)
        one = servers.RedisServer(tmp / "redis", fsync="everysec").start()
        stack.callback(one.stop)
        cluster = servers.RedisCluster(tmp / "cluster").start()
        stack.callback(cluster.stop)
        bases = {
            name: stack.enter_context(servers.gunicorn(servers.app_env(tmp / name, REDIS_URL=url, **EVERY_PLAYER_NEW)))
            for name, url in (("one Redis", one.url), ("cluster", cluster.url))
        }
        for base in bases.values():  # the workers have loaded the app
            servers.HttpClient(base, timeout=120).get("/robots.txt")
        for _ in range(args.rounds):
            for name, base in bases.items():
                runs[name].append(run(base, args.players, args.seconds))
    medians = {name: {f: statistics.median(r[f] for r in rounds) for f in FIGURES} for name, rounds in runs.items()}
    print(f"{args.players} players, {args.rounds} rounds of {args.seconds:g} s (medians of the rounds)\n")
    print("| store | moves/s | p50 ms | p99 ms | errors |\n| --- | --- | --- | --- | --- |")
    for name, figures in medians.items():
        errors = sum(r["errors"] for r in runs[name])
        print(f"| {name} | " + " | ".join(f"{figures[f]:.1f}" for f in FIGURES) + f" | {errors} |")
    ratios = {f: medians["cluster"][f] / medians["one Redis"][f] for f in FIGURES}
    print("| cluster / one Redis | " + " | ".join(f"{ratios[f]:.2f}x" for f in FIGURES) + " | |")
    print(f"\ncluster p50 within 1.5x of one Redis: {'yes' if ratios['p50 ms'] <= 1.5 else 'NO'}")


if __name__ == "__main__":
    main()
