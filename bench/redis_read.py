"""What reading a session from Redis costs the worker, run by hand: python bench/redis_read.py

On a Redis server of its own: the session store's read (one HMGET of a stored session's
version and data, through redis-py and the pool the game configures) against the same
command written and read on a plain socket. CPU (`time.process_time`) and wall time per
read, median of 5 runs of 10,000. The gap is redis-py's own work per command (packing,
the pool, parsing, its bookkeeping), which every page of the game on Redis pays once."""

import socket
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import redis

from tests import servers

READS = 10_000


def per_read(read) -> tuple[float, float]:
    for _ in range(500):
        read()
    cpu, wall = [], []
    for _ in range(5):
        start_cpu, start_wall = time.process_time(), time.perf_counter()
        for _ in range(READS):
            read()
        cpu.append((time.process_time() - start_cpu) / READS * 1e6)
        wall.append((time.perf_counter() - start_wall) / READS * 1e6)
    return statistics.median(cpu), statistics.median(wall)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        server = servers.RedisServer(Path(tmp) / "redis", fsync="everysec").start()
        try:
            pool = redis.BlockingConnectionPool.from_url(server.url, max_connections=100, timeout=2, socket_timeout=2)
            client = redis.Redis(connection_pool=pool)
            client.hset("ttt:sessions:s", mapping={"v": 1, "d": '{"game": {"moves": [0, 4]}}' + " " * 120})
            host, port = server.url.removeprefix("redis://").split("/")[0].split(":")
            raw = socket.create_connection((host, int(port)))
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            command = b"*4\r\n$5\r\nHMGET\r\n$14\r\nttt:sessions:s\r\n$1\r\nv\r\n$1\r\nd\r\n"

            def plain():
                raw.sendall(command)
                raw.recv(65536)

            print("| one HMGET | CPU µs | wall µs |\n| --- | --- | --- |")
            for name, read in (("redis-py", lambda: client.hmget("ttt:sessions:s", "v", "d")), ("plain socket", plain)):
                cpu, wall = per_read(read)
                print(f"| {name} | {cpu:.0f} | {wall:.0f} |")
        finally:
            server.stop()


if __name__ == "__main__":
    main()
