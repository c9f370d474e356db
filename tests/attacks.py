"""Attacks on a real server and the players they must not stop, for tests/test_attacks.py and
bench/attacks.py: eight players moving as fast as they can, each from a loopback address of
its own; a flood of review pictures; a flood of event streams; a newcomer's first page; and a
replay of every stored game by the independent judge."""

from __future__ import annotations

import http.client
import random
import selectors
import socket
import threading
import time
from urllib.parse import urlencode, urlsplit

from tests import judge, servers
from tests.conftest import Player


class Background:
    """Threads that run `_work(n)` until `__exit__`; `done[n]` counts what each finished."""

    def __init__(self, count: int) -> None:
        self.stopping = threading.Event()
        self.done = [0] * count
        self.failures: dict[str, int] = {}  # what went wrong, and how often
        self.threads = [threading.Thread(target=self._run, args=(n,), daemon=True) for n in range(count)]

    def __enter__(self):
        for thread in self.threads:
            thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        for thread in self.threads:
            thread.join()

    def _run(self, n: int) -> None:
        while not self.stopping.is_set():
            try:
                self._work(n)
                self.done[n] += 1
            except (OSError, http.client.HTTPException, AssertionError) as exc:
                failure = f"{type(exc).__name__}: {str(exc)[:80]}"
                self.failures[failure] = self.failures.get(failure, 0) + 1

    def _work(self, n: int) -> None:
        raise NotImplementedError

    @property
    def total(self) -> int:
        return sum(self.done)


class Players(Background):
    """`count` players, each from 127.0.2.(n+1), playing the AI as fast as they can; `done`
    counts their moves (a new game counts as one)."""

    def __init__(self, base: str, count: int = 8) -> None:
        super().__init__(count)
        self.players = [Player(servers.HttpClient(base, timeout=5, source=f"127.0.2.{n + 1}")) for n in range(count)]
        self.rngs = [random.Random(n) for n in range(count)]

    def _work(self, n: int) -> None:
        player = self.players[n]
        page = player.page()
        if page.state == "over":
            player.new_game()
        else:
            player.follow(self.rngs[n].choice(sorted(page.links.values())))

    def __enter__(self):
        super().__enter__()
        deadline = time.monotonic() + 60  # the workers load the app after the port is open
        while not all(self.done) and time.monotonic() < deadline:
            time.sleep(0.05)
        return self

    def count_for(self, seconds: float) -> int:
        """How many moves they make in `seconds`, from now."""
        before = self.total
        time.sleep(seconds)
        return self.total - before


def random_game(rng: random.Random) -> list[int]:
    """The cells of a game played at random to its end, by the judge's rules."""
    position, cells = "." * 9, []
    while not judge.is_over(position):
        cell, position = rng.choice(sorted(judge.children(position).items()))
        cells.append(cell)
    return cells


# Letters DejaVu Sans draws (Latin, Greek, Cyrillic).
FRESH_LETTERS = [chr(c) for c in (*range(0xC0, 0x250), *range(0x391, 0x3CA), *range(0x410, 0x450)) if chr(c).isalpha()]


class PictureFlood(Background):
    """`count` clients (127.0.3.x), each fetching the review picture of one random game after
    another, as fast as the server answers, named by two players of 12 random letters each:
    the costliest picture, its caption's letters seldom drawn before."""

    def __init__(self, base: str, count: int = 2) -> None:
        super().__init__(count)
        parts = urlsplit(base)
        self.address = (parts.hostname, parts.port)
        self.rngs = [random.Random(100 + n) for n in range(count)]
        self.statuses: dict[int, int] = {}

    def _work(self, n: int) -> None:
        rng = self.rngs[n]
        moves = "-".join(map(str, random_game(rng)))
        names = urlencode({side: "".join(rng.choices(FRESH_LETTERS, k=12)) for side in "xo"})
        connection = http.client.HTTPConnection(*self.address, timeout=10, source_address=(f"127.0.3.{n + 1}", 0))
        try:
            connection.request("GET", f"/review/{moves}/board.png?{names}")
            response = connection.getresponse()
            response.read()
            status = response.status
        finally:
            connection.close()
        self.statuses[status] = self.statuses.get(status, 0) + 1


class StreamFlood:
    """`per_address` event streams from each of `addresses` addresses (127.0.4.x) over
    `paths` (rooms' events), held open and read; each one the server closes or refuses is
    opened again `pause` seconds later, so the flood never lets up. `refused` counts the
    answers that were not a stream (429, 503)."""

    def __init__(
        self, base: str, paths: list[str], addresses: int = 7, per_address: int = 400, pause: float = 1.0
    ) -> None:
        self.pause = pause
        self.again: list[tuple[float, int]] = []  # (when, which) to open again
        parts = urlsplit(base)
        self.address, self.netloc = (parts.hostname, parts.port), parts.netloc
        self.paths = paths
        self.plan = [
            (f"127.0.4.{a + 1}", paths[(a * per_address + n) % len(paths)])
            for a in range(addresses)
            for n in range(per_address)
        ]
        self.selector = selectors.DefaultSelector()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.opened = self.refused = 0

    def __enter__(self) -> StreamFlood:
        for n in range(len(self.plan)):
            self._open(n)
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join()
        for key in list(self.selector.get_map().values()):
            key.fileobj.close()
        self.selector.close()

    def settle(self, seconds: float = 15) -> None:
        """Until the server has answered the first round (no refusal for half a second): what
        is measured then is the streams held, not the burst of their first requests."""
        deadline, before = time.monotonic() + seconds, -1
        while self.refused != before and time.monotonic() < deadline:
            before = self.refused
            time.sleep(0.5)

    def _open(self, n: int) -> None:
        source, path = self.plan[n]
        try:
            sock = socket.create_connection(self.address, timeout=2, source_address=(source, 0))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {self.netloc}\r\nAccept: text/event-stream\r\n\r\n".encode())
        except OSError:
            return  # refused or timed out: tried again in the next round
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, n)
        self.opened += 1

    def _loop(self) -> None:
        while not self.stopping.is_set():
            closed = []
            for key, _ in self.selector.select(0.1):
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                if data.startswith((b"HTTP/1.1 429", b"HTTP/1.1 503")):
                    self.refused += 1
                if not data or data.startswith((b"HTTP/1.1 429", b"HTTP/1.1 503")):
                    closed.append(key)
            for key in closed:
                self.selector.unregister(key.fileobj)
                key.fileobj.close()
                self.again.append((time.monotonic() + self.pause, key.data))
            now, later = time.monotonic(), []
            for when, n in self.again:
                if when <= now:
                    self._open(n)
                else:
                    later.append((when, n))
            self.again = later


def newcomer_served(base: str, source: str, seconds: float = 5) -> bool:
    """Whether someone new (no cookie, an address of their own) gets the board in `seconds`."""
    try:
        return servers.HttpClient(base, timeout=seconds, source=source).get("/").status_code == 200
    except (OSError, http.client.HTTPException):
        return False


def legal(moves: list[int]) -> bool:
    """Whether `moves` (cells, X first) is a game by the rules, replayed by the judge."""
    position = "." * 9
    for cell in moves:
        after = judge.children(position).get(cell)
        if judge.is_over(position) or after is None:
            return False
        position = after
    return True
