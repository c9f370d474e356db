"""Attacks on a real server and the players they must not stop, for tests/test_attacks.py and
bench/attacks.py: eight players moving as fast as they can, each from a loopback address of
its own; floods of review pictures, of event streams, of idle keep-alive connections, of
new sessions and of rooms from many networks; a newcomer's first page and first move; and a replay of
every stored game by the independent judge."""

from __future__ import annotations

import contextlib
import http.client
import random
import selectors
import socket
import statistics
import threading
import time
from urllib.parse import urlencode, urlsplit

from tests import judge, servers
from tests.conftest import Player

RETRY_PAUSE = 0.1  # seconds a client waits after a failed request before its next: no spinning on 429s


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
                self.stopping.wait(RETRY_PAUSE)  # as a person would: not again at once (a 429 past the rate)

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
    """`per_address` event streams from each of `addresses` addresses (127.4.a.1: each a
    network of its own) over
    `paths` (rooms' events), held open and read; each one the server closes or refuses is
    opened again `pause` seconds later, so the flood never lets up. `refused` counts the
    answers that were not a stream (429, 503); `statuses` every answer's status, `held` the
    streams open now (answered 200), `most_held` the most at once, `reads` what came on
    them after their headers (heartbeats, events), `failed` the connections that could not
    be made or sent."""

    def __init__(
        self, base: str, paths: list[str], addresses: int = 7, per_address: int = 400, pause: float = 1.0
    ) -> None:
        self.pause = pause
        self.again: list[tuple[float, int]] = []  # (when, which) to open again
        parts = urlsplit(base)
        self.address, self.netloc = (parts.hostname, parts.port), parts.netloc
        self.paths = paths
        self.plan = [
            (f"127.4.{a}.1", paths[(a * per_address + n) % len(paths)])
            for a in range(addresses)
            for n in range(per_address)
        ]
        self.selector = selectors.DefaultSelector()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.opened = self.refused = self.failed = self.reads = self.most_held = 0
        self.statuses: dict[int, int] = {}
        self.streaming: set[int] = set()  # which are held: answered 200

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

    @property
    def held(self) -> int:
        return len(self.streaming)

    def summary(self) -> str:
        answers = dict(sorted(self.statuses.items()))
        return (
            f"streams asked for {self.opened} ({len(self.plan)} at first), answers {answers}, held now {self.held}, "
            f"at most {self.most_held}, reads on them {self.reads}, connections failed {self.failed}"
        )

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
            self.failed += 1
            self.again.append((time.monotonic() + self.pause, n))
            return
        sock.setblocking(False)
        self.selector.register(sock, selectors.EVENT_READ, n)
        self.opened += 1

    def _read(self, key: selectors.SelectorKey) -> bool:
        """Whether the stream goes on after what came on it."""
        try:
            data = key.fileobj.recv(65536)
        except OSError:
            data = b""
        if key.data in self.streaming:
            self.reads += bool(data)
            return bool(data)
        status = int(data[9:12]) if data.startswith(b"HTTP/1.1 ") and data[9:12].isdigit() else 0
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status != 200:
            self.refused += status in (429, 503)
            return False
        self.streaming.add(key.data)
        self.most_held = max(self.most_held, self.held)
        return True

    def _loop(self) -> None:
        while not self.stopping.is_set():
            for key, _ in self.selector.select(0.1):
                if not self._read(key):
                    self.selector.unregister(key.fileobj)
                    key.fileobj.close()
                    self.streaming.discard(key.data)
                    self.again.append((time.monotonic() + self.pause, key.data))
            now, later = time.monotonic(), []
            for when, n in self.again:
                if when <= now:
                    self._open(n)
                else:
                    later.append((when, n))
            self.again = later


class KeepAliveFlood:
    """`per_address` keep-alive connections from each of `addresses` addresses (127.7.a.1),
    each asking for /robots.txt every `interval` seconds and idle in between; a connection
    the server closes is opened again in the next round. One thread, one selector: the
    flood's own cost stays small beside the players' (same process)."""

    REQUEST = b"GET /robots.txt HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"

    def __init__(self, base: str, addresses: int = 12, per_address: int = 400, interval: float = 4.0) -> None:
        parts = urlsplit(base)
        self.address = (parts.hostname, parts.port)
        self.sources = [f"127.7.{a}.1" for a in range(addresses) for _ in range(per_address)]
        self.interval = interval
        self.sockets: list[socket.socket | None] = [None] * len(self.sources)
        self.selector = selectors.DefaultSelector()
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)
        self.answers = 0

    def __enter__(self) -> KeepAliveFlood:
        self._round()
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join()
        for n in range(len(self.sockets)):
            self._close(n)
        self.selector.close()

    @property
    def open(self) -> int:
        return sum(sock is not None for sock in self.sockets)

    def _round(self) -> None:
        """Each connection asks once (opened first if it is not open)."""
        for n, sock in enumerate(self.sockets):
            try:
                if sock is None:
                    sock = socket.create_connection(self.address, timeout=2, source_address=(self.sources[n], 0))
                    sock.setblocking(False)
                    self.sockets[n] = sock
                    self.selector.register(sock, selectors.EVENT_READ, n)
                sock.send(self.REQUEST)
            except OSError:
                self._close(n)

    def _close(self, n: int) -> None:
        sock, self.sockets[n] = self.sockets[n], None
        if sock is not None:
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(sock)
            sock.close()

    def _loop(self) -> None:
        next_round = time.monotonic() + self.interval
        while not self.stopping.is_set():
            for key, _ in self.selector.select(0.1):
                try:
                    data = key.fileobj.recv(65536)
                except OSError:
                    data = b""
                if data:
                    self.answers += 1
                else:
                    self._close(key.data)
            if time.monotonic() >= next_round:
                next_round += self.interval
                self._round()


class SessionFlood(Background):
    """First moves with no cookie, each making a session, from `addresses` addresses (127.10.a.1,
    each a network of its own) in turn, `count` at a time, as fast as the server answers;
    `statuses` counts the answers."""

    def __init__(self, base: str, addresses: int = 250, count: int = 16) -> None:
        super().__init__(count)
        parts = urlsplit(base)
        self.address = (parts.hostname, parts.port)
        self.addresses = addresses
        self.statuses: dict[int, int] = {}

    def _work(self, n: int) -> None:
        source = f"127.10.{(self.done[n] * len(self.done) + n) % self.addresses}.1"
        connection = http.client.HTTPConnection(*self.address, timeout=10, source_address=(source, 0))
        try:
            connection.request("GET", f"/move?n=0&row={n % 3}&col={self.done[n] % 3}")
            response = connection.getresponse()
            response.read()
        finally:
            connection.close()
        self.statuses[response.status] = self.statuses.get(response.status, 0) + 1


class RoomFlood(Background):
    """`addresses` clients (127.11.a.1, each a network of its own), each making one room after
    another with no cookie (a new session each time), as fast as the server answers; `statuses`
    counts the answers (303: a room made; 429: past its network's limit)."""

    def __init__(self, base: str, addresses: int = 15) -> None:
        super().__init__(addresses)
        self.base = base
        self.statuses: dict[int, int] = {}

    def _work(self, n: int) -> None:
        status = servers.HttpClient(self.base, timeout=10, source=f"127.11.{n}.1").post("/room/new").status_code
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if status != 303:
            self.stopping.wait(RETRY_PAUSE)


def newcomers_playing(base: str, count: int, seconds: float = 5) -> list[float | None]:
    """`count` newcomers one after another, each from a network of its own (127.5.n.1): how
    long each took to load the board and play its first move (None: refused or too slow)."""
    took: list[float | None] = []
    for n in range(count):
        start = time.monotonic()
        try:
            player = Player(servers.HttpClient(base, timeout=seconds, source=f"127.5.{n}.1"))
            page = player.move(1, 1)
            played = page.marks.count(".") <= 8 and time.monotonic() - start <= seconds
        except (OSError, http.client.HTTPException, AssertionError):
            played = False
        took.append(time.monotonic() - start if played else None)
    return took


def served_share(took: list[float | None]) -> float:
    return sum(t is not None for t in took) / len(took)


def median_ms(took: list[float | None]) -> str:
    served = [t for t in took if t is not None]
    return f"{statistics.median(served) * 1000:.0f} ms" if served else "-"


def chunked_body(size: int) -> list[bytes]:
    """A form of `size` bytes in 64 KiB chunks."""
    body = b"mode=ai&x=" + b"x" * (size - 10)
    return [body[i : i + 65536] for i in range(0, size, 65536)]


def chunked_post(base: str, chunks: list[bytes], source: str = "127.8.0.1") -> int:
    """The status of a POST to /new whose body is sent in `chunks` (Transfer-Encoding: chunked)."""
    parts = urlsplit(base)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=10, source_address=(source, 0))
    try:
        connection.request("POST", "/new", body=iter(chunks), encode_chunked=True, headers={"Content-Type": FORM})
        return connection.getresponse().status
    except (BrokenPipeError, ConnectionResetError):  # refused before the whole body was sent
        return connection.getresponse().status
    finally:
        connection.close()


FORM = "application/x-www-form-urlencoded"


class ChunkedBodies(Background):
    """`count` clients (127.8.n.1), each posting a 4 MB chunked body to /new every `pause`
    seconds; `statuses` counts the answers."""

    def __init__(self, base: str, count: int = 20, size: int = 4_000_000, pause: float = 1.0) -> None:
        super().__init__(count)
        self.base, self.chunks, self.pause = base, chunked_body(size), pause
        self.statuses: dict[int, int] = {}

    def _work(self, n: int) -> None:
        status = chunked_post(self.base, self.chunks, source=f"127.8.{n}.1")
        self.statuses[status] = self.statuses.get(status, 0) + 1
        self.stopping.wait(self.pause)


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
