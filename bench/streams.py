"""Live rooms under load, run by hand: python bench/streams.py [--streams 1000] [--moves 40]

`make run` (nginx in front of gevent workers, SQLite) holds N open event streams (one client
process, raw sockets each from a network of its own: the proxy and the app bound streams per
client and per network), while two
players play: each move's time from the request to its arrival on the other player's
stream, and a third player's page load and move. Then the same on docs/deploy.md's Redis setup
with two gunicorn instances: the move made on one, the streams held by the other. The
streams follow rooms of their own (one spectator per room) or, with --same-room, the
players' room. Prints medians and 95th percentiles, and the workers' memory per stream.
"""

from __future__ import annotations

import argparse
import contextlib
import selectors
import socket
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.slow_clients import samples  # noqa: E402
from tests import servers  # noqa: E402
from tests.test_live import events_path  # noqa: E402
from tests.test_rooms import Seat  # noqa: E402

# The bench makes its spectators' rooms from one address, faster than people would.
UNLIMITED = {
    "TTT_NEW_ROOM_LIMIT": "100000 per minute",
    "TTT_NEW_SESSION_LIMIT": "100000 per minute",
}


class Streams:
    """`paths` opened as event streams from one thread that only reads (and drops) them."""

    def __init__(self, base: str, paths: list[str]) -> None:
        parts = urlsplit(base)
        self.selector = selectors.DefaultSelector()
        self.open = 0
        for n, path in enumerate(paths):
            sock = servers.connect_from((parts.hostname, parts.port), n, f"127.{11 + n // 250}.{n % 250}.1")
            sock.sendall(f"GET {path} HTTP/1.0\r\nHost: {parts.netloc}\r\n\r\n".encode())
            sock.setblocking(False)
            self.selector.register(sock, selectors.EVENT_READ)
            self.open += 1
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._drain, daemon=True)
        self.thread.start()

    def _drain(self) -> None:
        while not self.stopping.is_set():
            for key, _ in self.selector.select(0.2):
                with contextlib.suppress(OSError):
                    if not key.fileobj.recv(65536):
                        self.selector.unregister(key.fileobj)
                        key.fileobj.close()
                        self.open -= 1

    def close(self) -> None:
        self.stopping.set()
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()


def cookie(seat: Seat) -> dict[str, str]:
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in seat.client.cookies.items())}


def pair(play_base: str, watch_base: str) -> tuple[Seat, Seat]:
    host = Seat(servers.HttpClient(play_base)).invite("Ann")
    guest = Seat(servers.HttpClient(watch_base), host.path)
    guest.join("Bob")
    return host, guest


def rss_kib(base: str) -> int:
    """The resident memory of the workers serving `base`, in KiB."""
    total = 0
    for pid in servers.worker_pids(base):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def measure(play_base: str, watch_base: str, streams: int, moves: int, same_room: bool, memory_of: str | None):
    host, guest = pair(play_base, watch_base)
    if same_room:
        paths = [f"{host.path}/events"] * streams
    else:
        paths = [f"{Seat(servers.HttpClient(play_base)).invite().path}/events" for _ in range(streams)]
    before = rss_kib(memory_of) if memory_of else 0
    crowd = Streams(watch_base, paths)
    time.sleep(2)
    per_stream = (rss_kib(memory_of) - before) / streams if memory_of else None
    arrivals, loads, third_moves = [], [], []
    try:
        cells = [(1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2)]
        for n in range(moves):
            if n % 9 == 0 and n:  # a drawn game is over: an offer, accepted
                guest.post("rematch")
                host.post("rematch")
            row, col = cells[n % 9]
            mover = host if host.page()["status"].attrs["data-state"] == "playing" else guest
            other = guest if mover is host else host
            with servers.EventStream(
                watch_base if other is guest else play_base, events_path(other.page()), cookie(other)
            ) as watching:
                watching.wait_for(1)
                link = mover.page().links[row, col]
                sent = time.monotonic()
                response = mover.client.get(link)
                assert response.status_code == 303, response.text
                event = watching.wait_for(2)[-1]
                if event.get("event") == "room":
                    arrivals.append(event["at"] - sent)
            load, third_move = samples(play_base, 1)  # a third player, against the AI
            loads += load
            third_moves += third_move
    finally:
        still_open = crowd.open
        crowd.close()
    return arrivals, loads, third_moves, per_stream, still_open


def figures(seconds: list[float]) -> str:
    ms = sorted(s * 1000 for s in seconds)
    p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
    return f"{statistics.median(ms):.0f} | {p95:.0f}"


def report(name: str, streams: int, result) -> None:
    arrivals, loads, third_moves, per_stream, still_open = result
    memory = f"{per_stream:.1f}" if per_stream is not None else "n/a"
    print(
        f"| {name} | {streams} ({still_open} open at the end) | {figures(arrivals)} | {figures(loads)} "
        f"| {figures(third_moves)} | {memory} |",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--same-room", action="store_true")
    args = parser.parse_args()
    print(
        "| setup | open streams | move to the other's stream, ms p50 | p95 | third player's page p50 | p95 "
        "| third player's move p50 | p95 | KiB per stream |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    with tempfile.TemporaryDirectory() as tmp:
        env = servers.app_env(Path(tmp) / "sqlite", **UNLIMITED)
        with servers.make_run(env) as base:
            time.sleep(1)
            master_of_make_run(base)
            report(
                "`make run` (SQLite)", args.streams, measure(base, base, args.streams, args.moves, args.same_room, base)
            )
        redis = servers.RedisServer(Path(tmp) / "redis", fsync="everysec").start()
        try:
            env = servers.app_env(Path(tmp) / "redis", REDIS_URL=redis.url, **UNLIMITED)
            with servers.gunicorn(env, workers=2) as first, servers.gunicorn(env, workers=2) as second:
                result = measure(first, second, args.streams, args.moves, args.same_room, second)
                report("Redis, two instances (move on one, streams on the other)", args.streams, result)
        finally:
            redis.stop()


def master_of_make_run(base: str) -> None:
    """`make run`'s gunicorn: the child of deploy/front.py serving this port, for the workers' memory."""
    port = str(urlsplit(base).port).encode()
    for status in Path("/proc").glob("[0-9]*/cmdline"):
        with contextlib.suppress(OSError):
            command = status.read_bytes().split(b"\0")
            if any(part.endswith(b"deploy/front.py") for part in command) and port in command:
                pid = status.parent.name
                for child in Path(f"/proc/{pid}/task/{pid}/children").read_text().split():
                    if b"gunicorn" in Path(f"/proc/{child}/cmdline").read_bytes():
                        servers.MASTERS[base] = int(child)
                        return
    raise RuntimeError("make run's gunicorn was not found")


if __name__ == "__main__":
    socket.setdefaulttimeout(30)
    main()
