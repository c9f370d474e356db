"""Real servers for the tests, on free loopback ports: gunicorn, redis-server and a Redis Cluster."""

from __future__ import annotations

import contextlib
import http.client
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlsplit

ROOT = Path(__file__).resolve().parent.parent


def app_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    """The environment of an app under test: its own instance folder, a shared secret."""
    return {"TTT_INSTANCE_DIR": str(tmp_path / "instance"), "SECRET_KEY": "shared-secret", **extra}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


REFUSING: str | None = None  # the unit test running now, if one is: it may start no server


def refuse_starts(test: str | None) -> None:
    """From now on, refuse to start a server for `test`, a unit test (None: start them)."""
    global REFUSING
    REFUSING = test


def may_start(what: str) -> None:
    if REFUSING:
        raise RuntimeError(
            f"{REFUSING} is a unit test but starts {what}: start it through a fixture that gives the test "
            "its kind (gunicorn, make_run, redis_servers, or one marked with @kind; tests/conftest.py)"
        )


def require(command: str, package: str) -> str:
    path = shutil.which(command)
    if path is None:
        raise RuntimeError(f"{command} is missing: install the Debian package {package} (make test does)")
    return path


def wait_for_port(port: int, process: subprocess.Popen, seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}: {process.args}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port} after {seconds} s")


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


MASTERS: dict[str, int] = {}  # the gunicorn master of each base URL being served


def worker_pids(base: str) -> list[int]:
    """The worker processes of the gunicorn that serves `base`."""
    master = MASTERS[base]
    children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    return [int(pid) for pid in children]


def all_pids(base: str) -> list[int]:
    """The master first, then its workers."""
    return [MASTERS[base], *worker_pids(base)]


@contextlib.contextmanager
def gunicorn(env: dict[str, str], workers: int = 2, app: str = "wsgi:app", log: Path | None = None, port: int = 0):
    """Serve `app` from the project root with the project's gunicorn.conf.py, as `make run`
    and docs/deploy.md's deployment do, on `port` (by default a free one); yields the base URL."""
    may_start("gunicorn")
    port = port or free_port()
    command = [sys.executable, "-m", "gunicorn", "-c", str(ROOT / "gunicorn.conf.py")]
    command += ["--workers", str(workers), "--bind", f"127.0.0.1:{port}", app]
    output = open(log, "ab") if log else subprocess.DEVNULL  # noqa: SIM115 - closed below
    process = subprocess.Popen(command, cwd=ROOT, env={**os.environ, **env}, stdout=output, stderr=output)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_for_port(port, process, seconds=90)  # the master listens once it has loaded the app (preload_app)
        MASTERS[base] = process.pid
        yield base
    finally:
        MASTERS.pop(base, None)
        stop(process)
        if log:
            output.close()


class LoggedServer:
    """A gunicorn whose output (its access log among it) goes to `log`, for tests that share it;
    its SQLite database is `database`."""

    def __init__(self, base: str, log: Path, database: Path) -> None:
        self.base = base
        self.log = log
        self.database = database
        self.marks = 0

    def mark(self) -> int:
        """Where the log is now: what a test reads from (log_since)."""
        return self.log.stat().st_size

    def log_since(self, mark: int, seconds: float = 30) -> str:
        """What the server logged since `mark`, up to and including the access log's line of a
        request sent now: a worker writes a request's line once it has answered it, and with one
        worker the lines come in the order of the requests."""
        self.marks += 1
        marker = f"log-mark-{self.marks}"
        HttpClient(self.base).get(f"/healthz?{marker}")  # a query field's name is logged, its value blanked
        deadline = time.monotonic() + seconds
        while (text := self.log.read_bytes()[mark:].decode()).find(marker) < 0:
            if time.monotonic() > deadline:
                raise AssertionError(f"no access log line for {marker} after {seconds} s")
            time.sleep(0.02)
        return text


@contextlib.contextmanager
def make_run(env: dict[str, str]):
    """`make run` itself, as the README gives it, on a free port; yields the base URL."""
    may_start("make run")
    port = free_port()
    command = [require("make", "make"), "--no-print-directory", "run", f"PORT={port}"]
    process = subprocess.Popen(
        command, cwd=ROOT, env={**os.environ, **env}, stdout=subprocess.DEVNULL, start_new_session=True
    )
    try:
        wait_for_port(port, process, seconds=90)  # a loaded machine: the app warms its pages at start
        yield f"http://127.0.0.1:{port}"
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)  # make, and the gunicorn it started
        process.wait(40)  # front.py gives each of nginx and gunicorn 15 s to stop


def together(*calls):
    """What each call returns, all of them started at the same moment in threads of their own."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(n, call):
        barrier.wait()
        results[n] = call()

    threads = [threading.Thread(target=run, args=(n, call)) for n, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


class RedisServer:
    """A redis-server of our own with an append-only file, so it can stop and come back.

    `fsync` is Redis's appendfsync: "always" (the tests: every write is on disk before
    Redis answers) or "everysec" (Redis's default for the append-only file).
    """

    def __init__(self, directory: Path, fsync: str = "always") -> None:
        self.binary = require("redis-server", "redis-server")
        self.directory = directory
        self.fsync = fsync
        self.port = free_port()
        self.options: list[str] = []  # more of redis-server's options (cluster mode)
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        may_start("redis-server")
        self.directory.mkdir(parents=True, exist_ok=True)
        command = [self.binary, "--bind", "127.0.0.1", "--port", str(self.port), "--dir", str(self.directory)]
        command += ["--save", "", "--appendonly", "yes", "--appendfsync", self.fsync, "--protected-mode", "yes"]
        command += self.options
        self.process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port, self.process)
        return self

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


def free_cluster_port() -> int:
    """A free port whose cluster bus port (port + 10000) is free too."""
    while True:
        port = free_port()
        if port + 10000 < 65536:
            with contextlib.suppress(OSError), socket.socket() as bus:
                bus.bind(("127.0.0.1", port + 10000))
                return port


class RedisCluster:
    """A Redis Cluster of our own: `masters` masters with one replica each, every node a
    redis-server in cluster mode on free loopback ports, joined by `redis-cli --cluster create`.
    `kill(port)` SIGKILLs one node; `master_of(key)` is the port of the node serving a key."""

    def __init__(self, directory: Path, masters: int = 3) -> None:
        self.cli = require("redis-cli", "redis-tools")
        self.nodes = [RedisServer(directory / f"node{n}", fsync="everysec") for n in range(masters * 2)]
        for node in self.nodes:
            node.port = free_cluster_port()
            node.options = ["--cluster-enabled", "yes", "--cluster-node-timeout", "2000"]
            node.options += ["--cluster-config-file", "nodes.conf", "--cluster-require-full-coverage", "no"]
            node.options += ["--logfile", str(node.directory / "redis.log"), "--repl-diskless-sync-delay", "0"]

    @property
    def url(self) -> str:
        return self.nodes[0].url.removesuffix("/0")

    def urls(self) -> list[str]:
        return [node.url.removesuffix("/0") for node in self.nodes]

    def start(self) -> RedisCluster:
        for node in self.nodes:
            node.start()
        addresses = [f"127.0.0.1:{node.port}" for node in self.nodes]
        command = [self.cli, "--cluster", "create", *addresses, "--cluster-replicas", "1", "--cluster-yes"]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=60)
        self.wait_until_ok()
        return self

    def wait_until_ok(self, seconds: float = 60) -> None:
        """Until every live node says cluster_state:ok and sees each master with its replica,
        and every replica has had its master's data (master_link_status:up). cluster_state:ok
        comes seconds before that, and a replica that has not yet had its first copy cannot
        take over ("Currently unable to failover: Disconnected from master for longer than
        allowed"). A master sends it that copy repl-diskless-sync-delay after it asks (5 s by
        default, 0 here)."""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if all(self.ready(node.port) for node in self.live()):
                return
            time.sleep(0.1)
        raise RuntimeError(f"the cluster is not ok after {seconds} s")

    def ready(self, port: int) -> bool:
        """Whether the node at `port` says the cluster is ok, sees each master with its replica,
        and, if it is a replica, has its master's data."""
        if "cluster_state:ok" not in self.ask(port, "cluster", "info") or not self.paired(port):
            return False
        replication = self.ask(port, "info", "replication")
        return "role:master" in replication or "master_link_status:up" in replication

    def paired(self, port: int) -> bool:
        """Whether the node at `port` sees no node failing and each master serving slots
        with one replica."""
        nodes = [line.split() for line in self.ask(port, "cluster", "nodes").splitlines()]
        if any("fail" in fields[2] or "handshake" in fields[2] for fields in nodes):
            return False
        masters = sorted(fields[0] for fields in nodes if "master" in fields[2] and len(fields) > 8)
        return sorted(fields[3] for fields in nodes if "slave" in fields[2]) == masters

    def ask(self, port: int, *command: str) -> str:
        done = subprocess.run([self.cli, "-p", str(port), *command], capture_output=True, text=True, timeout=10)
        return done.stdout

    def live(self) -> list[RedisServer]:
        return [node for node in self.nodes if node.process is not None and node.process.poll() is None]

    def master_of(self, key: str) -> int:
        slot = int(self.ask(self.live()[0].port, "cluster", "keyslot", key))
        for line in self.ask(self.live()[0].port, "cluster", "nodes").splitlines():
            fields = line.split()
            if "master" in fields[2] and "fail" not in fields[2]:
                for span in fields[8:]:
                    low, _, high = span.partition("-")
                    if low.isdigit() and int(low) <= slot <= int(high or low):
                        return int(fields[1].split(":")[1].split("@")[0])
        raise RuntimeError(f"no master serves {key}")

    def kill(self, port: int) -> None:
        node = next(node for node in self.nodes if node.port == port)
        node.process.kill()
        node.process.wait()
        node.process = None

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


class HttpClient:
    """Speaks HTTP to a real server and keeps its cookies; redirects are not followed.

    Its requests and responses look like Flask's test client's, so the same Player
    helper drives both.
    """

    def __init__(self, base: str, timeout: float = 30, source: str | None = None) -> None:
        parts = urlsplit(base)
        self.host, self.port = parts.hostname, parts.port
        self.timeout = timeout
        self.source = (source, 0) if source else None  # a loopback address of its own
        self.cookies: dict[str, str] = {}

    def get(self, path: str, headers: dict | None = None) -> Response:
        return self.request("GET", path, headers=headers)

    def post(self, path: str, data: dict | None = None, headers: dict | None = None) -> Response:
        body = urlencode(data or {})
        headers = {"Content-Type": "application/x-www-form-urlencoded", **(headers or {})}
        return self.request("POST", path, body, headers)

    def request(self, method: str, path: str, body: str | None = None, headers: dict | None = None) -> Response:
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        connection = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout, source_address=self.source)
        try:
            connection.request(method, path.replace("&amp;", "&"), body, headers)
            raw = connection.getresponse()
            response = Response(raw.status, raw.headers, raw.read().decode())
        finally:
            connection.close()
        for cookie in raw.headers.get_all("Set-Cookie") or []:
            name, _, rest = cookie.partition("=")
            value = rest.split(";", 1)[0]
            if value and "max-age=0" not in cookie.lower() and "1970" not in cookie:
                self.cookies[name] = value
            else:
                self.cookies.pop(name, None)
        return response


class Response:
    def __init__(self, status: int, headers, text: str) -> None:
        self.status_code = status
        self.headers = headers
        self.text = text


class BackgroundConnections:
    """`count` connections to a server that a thread keeps busy every `interval` seconds
    (`_tick`) from `__enter__` to `__exit__`."""

    def __init__(self, base: str, count: int, interval: float) -> None:
        parts = urlsplit(base)
        self.address = (parts.hostname, parts.port)
        self.count = count
        self.interval = interval
        self.sockets: list[socket.socket | None] = [None] * count
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def __enter__(self):
        self._begin()
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join()
        for sock in self.sockets:
            if sock is not None:
                sock.close()

    def _loop(self) -> None:
        while not self.stopping.wait(self.interval):
            self._tick()

    def _begin(self) -> None:
        self._tick()

    def _tick(self) -> None:
        raise NotImplementedError


class SlowClients(BackgroundConnections):
    """`count` connections that hold a server's attention for as long as they are open:
    half trickle their headers, half send a POST's headers and never finish its body.
    Each sends one more byte every `interval` seconds; a connection the server drops is
    opened again, so `count` stay open."""

    HEADERS = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: "
    BODY = "POST /new HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
    BODY += "Content-Length: 4096\r\n\r\nmode="

    def __init__(self, base: str, count: int = 256, interval: float = 1.0) -> None:
        super().__init__(base, count, interval)
        self.reopened = 0

    def _begin(self) -> None:
        self.sockets = [self._open(n) for n in range(self.count)]

    def _open(self, n: int) -> socket.socket:
        sock = connect_from(self.address, n)
        sock.sendall((self.HEADERS if n % 2 == 0 else self.BODY).encode())
        return sock

    def _tick(self) -> None:
        for n, sock in enumerate(self.sockets):
            try:
                sock.sendall(b"a")
            except OSError:
                sock.close()
                self.reopened += 1
                with contextlib.suppress(OSError):
                    self.sockets[n] = self._open(n)


class UnfinishedBodies(SlowClients):
    """`count` POSTs with made-up session cookies whose bodies never finish: to /new, and
    every fourth one to each of `paths` in turn (a room's resign, say), with no cookie."""

    def __init__(self, base: str, count: int, paths: list[str]) -> None:
        super().__init__(base, count)
        self.paths = paths

    def _open(self, n: int) -> socket.socket:
        path, cookie = "/new", f"Cookie: ttt=made-up-{n:04d}{'x' * 30}\r\n"
        if n % 4 == 3:
            path, cookie = self.paths[n // 4 % len(self.paths)], ""
        head = f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{cookie}"
        head += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 4096\r\n\r\ngame="
        sock = connect_from(self.address, n)
        sock.sendall(head.encode())
        return sock


def connect_from(address: tuple[str, int], n: int, source: str | None = None) -> socket.socket:
    """A connection to `address` from loopback address `source`, or by default from one of
    250 (127.0.1.x, by `n`): many clients, as on the internet, not one."""
    source = source or f"127.0.1.{n % 250 + 1}"
    return socket.create_connection(address, timeout=5, source_address=(source, 0))


class EventStream:
    """One event stream (server-sent events) read over a raw socket by a thread of its own:
    the status, the headers, and each event as a dict (its fields, with "at": when it came,
    time.monotonic) in `events`; `ended` is set when the server closes the stream. HTTP/1.0,
    so that the body is the stream itself, not chunks."""

    def __init__(self, base: str, path: str, headers: dict[str, str] | None = None) -> None:
        parts = urlsplit(base)
        self.sock = socket.create_connection((parts.hostname, parts.port), timeout=30)
        lines = [f"GET {path} HTTP/1.0", f"Host: {parts.netloc}", "Accept: text/event-stream"]
        lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
        self.sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self.file = self.sock.makefile("rb")
        self.status = int(self.file.readline().split()[1])
        self.headers = http.client.parse_headers(self.file)
        self.events: list[dict[str, str | float]] = []
        self.comments = 0
        self.ended = threading.Event()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        event: dict[str, str | float] = {}
        try:
            for raw in self.file:
                line = raw.decode().rstrip("\r\n")
                if not line:
                    if event:
                        self.events.append({**event, "at": time.monotonic()})
                    event = {}
                elif line.startswith(":"):
                    self.comments += 1
                else:
                    name, _, value = line.partition(":")
                    event[name] = value.removeprefix(" ")
        except OSError:
            pass
        self.ended.set()

    def wait_for(self, count: int, seconds: float = 5) -> list[dict]:
        """Until `count` events (retry: included) have come; the events."""
        deadline = time.monotonic() + seconds
        while len(self.events) < count and time.monotonic() < deadline and not self.ended.is_set():
            time.sleep(0.005)
        return self.events

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()

    def __enter__(self) -> EventStream:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
