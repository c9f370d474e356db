"""What a gunicorn costs to start and stop, run by hand:
python bench/server_start.py [--workers 1 --workers 2] [--times 3] [--root DIR]

gunicorn with the project's gunicorn.conf.py on a free port, waited for as tests/servers.py
waits (a connection tried every 50 ms), `GET /` once, then SIGTERM: the CPU of gunicorn's
processes (the master and its workers, reaped: RUSAGE_CHILDREN), per server, and the seconds
until the first page. With --root, another checkout (say, an older commit exported with git
archive, its .venv beside it or this one's) is measured too, taking turns with this one, so
that a busy spell hits both.
"""

from __future__ import annotations

import argparse
import http.client
import os
import resource
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def start_and_stop(root: Path, workers: int) -> tuple[float, float]:
    """One gunicorn of `root`: its CPU, and the seconds until its first page."""
    port, before = free_port(), children_cpu()
    env = {**os.environ, "TTT_INSTANCE_DIR": tempfile.mkdtemp(prefix="ttt-bench-"), "SECRET_KEY": "bench"}
    command = [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py", "--workers", str(workers)]
    command += ["--bind", f"127.0.0.1:{port}", "wsgi:app"]
    started = time.monotonic()
    process = subprocess.Popen(command, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            break
        except OSError:
            if process.poll() is not None:
                raise RuntimeError(f"gunicorn of {root} exited with {process.returncode}") from None
            time.sleep(0.05)
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    connection.request("GET", "/")
    status = connection.getresponse().status
    connection.close()
    first_page = time.monotonic() - started
    process.send_signal(signal.SIGTERM)
    process.wait()
    if status != 200:
        raise RuntimeError(f"gunicorn of {root} answered {status}")
    return children_cpu() - before, first_page


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, action="append", default=[])
    parser.add_argument("--times", type=int, default=3)
    parser.add_argument("--root", type=Path, action="append", default=[])
    args = parser.parse_args()
    roots = [ROOT, *args.root]
    for workers in args.workers or [1, 2]:
        runs: dict[Path, list[tuple[float, float]]] = {root: [] for root in roots}
        for _ in range(args.times):
            for root in roots:
                runs[root].append(start_and_stop(root, workers))
        for root, figures in runs.items():
            cpu = sum(figure[0] for figure in figures) / len(figures)
            wall = sum(figure[1] for figure in figures) / len(figures)
            print(f"{root}: {workers} worker(s): {cpu:.2f} s of CPU a server, first page after {wall:.1f} s")
    print(f"load average: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
