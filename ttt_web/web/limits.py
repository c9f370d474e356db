"""Rate limits on newcomers, per client network, with the `limits` package: new sessions (so
that one network cannot fill the session store or spend everyone's budget) and a view's own
limit (`own_limit`: new rooms). A network is an IPv4 /24 or an IPv6 /64 (`client_network`):
250 addresses of one network share one budget, and newcomers from elsewhere keep theirs.
Players who already have a session are never limited but by a view's own limit, so a school
behind one address keeps playing however many games it starts.

Connections and the rate of requests per client address are bounded by the proxy in front
(deploy/nginx.conf); these limits are the ones it cannot see, since they count sessions and
rooms. Each app keeps its limiter in `app.extensions["ttt.limits"]`: with Redis (REDIS_URL),
`limits`' Redis storage on the store's own pool, shared by every process and host; otherwise
a SQLite database beside the embedded store's, shared by every worker (limit_storage.py).
A fixed window: one atomic increment per count. A store that fails lets players through.

The work runs only where a limit applies: a request that comes with a session costs a look
at the environ, one that cannot change its session a test of the method and path; only a
newcomer's request is counted after its view (`after_this_request`), and a view's own limit
runs in the view."""

from __future__ import annotations

import bisect
import functools
import ipaddress
import itertools
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import gevent
from flask import Flask, Request, Response, after_this_request, current_app, request, session
from gevent import monkey
from limits import parse_many
from limits.storage import RedisClusterStorage, RedisStorage, Storage
from limits.strategies import FixedWindowRateLimiter
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from .errors import replace_with
from .limit_storage import SQLiteStorage
from .sessions import STORE_ERROR, STORED, StoredSession

MESSAGE = (
    "Too many new players from your network in a short time. Please wait a minute and try "
    "again: games already under way are not affected."
)
BUSY_MESSAGE = (
    "Many new players are arriving at once right now. Please try again in a few seconds: games "
    "already under way are not affected."
)
ROOM_MESSAGE = "Too many new rooms from your network in a short time. Please wait a minute and try again."
CHANGING_GETS = ("/move",)  # GET routes that change the game; every POST may change it too


@dataclass
class Limits:
    """One app's limiter, and its config, where each limit is a setting (parsed when used:
    some 6 µs, on a newcomer's request or a new room only)."""

    limiter: FixedWindowRateLimiter
    config: dict

    def refusal(self, setting: str, message: str, count: bool) -> TooManyRequests | None:
        """Count one more for this client's network against every limit of `setting` (or,
        without `count`, test whether one more fits); the error to answer if it does not
        (None: it fits, or the storage failed: a limit never stops play)."""
        network = client_network()
        check = self.limiter.hit if count else self.limiter.test
        try:
            past = [item for item in parse_many(self.config[setting]) if not check(item, setting, network)]
            if not past:
                return None
            reset = max(self.limiter.get_window_stats(item, setting, network).reset_time for item in past)
        except Exception as exc:  # whatever the storage raises: a limit never stops play
            current_app.logger.warning("could not count %s: %s", setting, exc)
            return None
        return TooManyRequests(message, retry_after=max(1, int(reset - time.time())))


def client_network(address: str | None = None) -> str:
    """Who a limit counts: the /24 network of the client's IPv4 address (an IPv4 address
    written as IPv6 too), or the /64 of its IPv6 address. One subscriber is given a whole /64,
    and one provider's neighbours share a /24, so counting addresses one by one would let one
    client count as 256, or as millions."""
    if address is None:
        address = request.remote_addr or ""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 6 and ip.ipv4_mapped:
        ip = ip.ipv4_mapped
    return str(ipaddress.ip_network(f"{ip}/{24 if ip.version == 4 else 64}", strict=False))


def changes_session(request: Request) -> bool:
    """Whether a request may change its session: every POST, and the GET routes that change
    the game. Only these can create a session."""
    return request.method not in ("GET", "HEAD") or request.path in CHANGING_GETS


def has_session() -> bool:
    """True for a request the new-session limit does not count: one with a stored session
    (or whose store could not be read)."""
    environ = request.environ
    return STORED in environ or STORE_ERROR in environ


def creates_session() -> bool:
    """True when this request is about to store a session that did not exist. (Asked in
    this order, so that a request that changed nothing does not mark its session read.)"""
    written = getattr(session, "written", False)  # a store that failed leaves a NullSession
    return (session.modified or written) and not getattr(session, "read_version", 0) and bool(session)


def own_limit(setting: str, message: str) -> Callable[[Callable], Callable]:
    """A view's own limit per client network (the config's `setting`), for players with a
    session too: each call counts one, and one past the limit gets 429 before the view runs."""

    def decorate(view: Callable) -> Callable:
        @functools.wraps(view)
        def limited(*args, **kwargs):
            refusal = current_app.extensions["ttt.limits"].refusal(setting, message, count=True)
            if refusal is not None:
                raise refusal
            return view(*args, **kwargs)

        return limited

    return decorate


def refuse_spent_newcomers() -> None:
    """Before the view: a newcomer whose network has spent its new sessions is refused at once
    (429), and costs nothing more; the others wait their turn among the newcomers of this
    process (`wait_for_newcomers_turn`) and are counted after the view (`count_new_session`)."""
    if has_session() or not changes_session(request):  # a player's request: one look at the environ
        return
    refusal = current_app.extensions["ttt.limits"].refusal("NEW_SESSION_LIMIT", MESSAGE, count=False)
    if refusal is not None:
        raise refusal
    request.form  # noqa: B018 - the body read first: a client trickling its body takes no turn
    wait_for_newcomers_turn()
    after_this_request(count_new_session)


@dataclass(order=True)
class Waiter:
    """A newcomer's request waiting for its turn: the fewer times its network has asked
    lately, then the sooner it came, the sooner it goes."""

    rank: tuple[int, int]
    called: threading.Event = field(compare=False, default_factory=threading.Event)
    served: bool = field(compare=False, default=False)


class NewcomersTurns:
    """When each of this process's newcomers' requests may be worked on: one every
    1 / NEWCOMERS_PER_SECOND seconds. Those that must wait go first by how few times their
    network (`client_network`) has asked for a turn in this minute and the last, then in the
    order they came, each for up to NEWCOMER_WAIT_SECONDS; as many wait as turns come within
    that wait, and one more sends the last in line away (or itself, if it would be last). So
    a flood from many networks, each within its budget of new sessions, waits behind a
    network that has hardly asked: a newcomer from elsewhere goes next. Written here because
    what it must do is wait on the event loop (gevent's), in an order; the `limits` package
    only counts and tests, and nginx cannot tell a stored session from a made-up cookie."""

    NETWORKS = 20_000  # counted a minute at most (some 2 MB); past it, a new network counts as none

    def __init__(self, per_second: float, wait: float) -> None:
        self.gap, self.wait = 1 / per_second, wait
        self.places = max(1, int(per_second * wait))
        self.waiting: list[Waiter] = []  # best first
        self.asked: Counter[str] = Counter()  # this minute's, per network
        self.asked_before: Counter[str] = Counter()  # the minute before's
        self.minute = 0
        self.next_turn = 0.0
        self.arrivals = itertools.count()
        self.calling = False
        self.lock = threading.Lock()  # gevent's under gunicorn: never held across a wait

    def take(self, network: str) -> bool:
        """Wait for this request's turn: False if it is sent away instead."""
        with self.lock:
            now = time.monotonic()
            asked = self._count(network, now)
            if not self.waiting and now >= self.next_turn:
                self.next_turn = max(now, self.next_turn) + self.gap
                return True
            waiter = Waiter((asked, next(self.arrivals)))
            if not self._queue(waiter):
                return False
        waiter.called.wait(self.wait)
        with self.lock:
            if not waiter.served and waiter in self.waiting:
                self.waiting.remove(waiter)
            return waiter.served

    def _count(self, network: str, now: float) -> int:
        """How often this network asked in this minute and the last, before now (and now counted)."""
        if int(now // 60) != self.minute:
            self.asked_before = self.asked if int(now // 60) == self.minute + 1 else Counter()
            self.minute, self.asked = int(now // 60), Counter()
        asked = self.asked[network] + self.asked_before[network]
        if network in self.asked or len(self.asked) < self.NETWORKS:
            self.asked[network] += 1
        return asked

    def _queue(self, waiter: Waiter) -> bool:
        if len(self.waiting) >= self.places:
            if self.waiting[-1] < waiter:
                return False
            self.waiting.pop().called.set()
        bisect.insort(self.waiting, waiter)
        if not self.calling:
            self.calling = True
            gevent.spawn(self._call_in_turn)
        return True

    def _call_in_turn(self) -> None:
        """Give each turn, as it comes, to the first in line, while any wait."""
        while True:
            with self.lock:
                now = time.monotonic()
                if not self.waiting:
                    self.calling = False
                    return
                if now >= self.next_turn:
                    waiter = self.waiting.pop(0)
                    waiter.served = True
                    self.next_turn = max(now, self.next_turn) + self.gap
                    waiter.called.set()
                pause = self.next_turn - now
            time.sleep(max(0.0, pause))


def wait_for_newcomers_turn() -> None:
    """Newcomers' requests (ones that may store a new session) are worked on at most
    NEWCOMERS_PER_SECOND a second per process; the next wait their turn (`NewcomersTurns`),
    up to NEWCOMER_WAIT_SECONDS, then get 503. Many networks, each within its own budget of
    new sessions, sending first moves as fast as the server answers would otherwise take the
    event loop from the players in proportion to their numbers, and the turns from newcomers
    (docs/hostile-traffic.md). Players with a session never wait here. Only under gevent
    (gunicorn's workers): in a process without an event loop (the test client, a threaded
    server), there are no turns of one to share."""
    turns: NewcomersTurns | None = current_app.extensions["ttt.newcomers"]
    if turns is not None and not turns.take(client_network()):
        wait = current_app.config["NEWCOMER_WAIT_SECONDS"]
        raise ServiceUnavailable(BUSY_MESSAGE, retry_after=max(1, round(wait)))


def count_new_session(response: Response) -> Response:
    """Count a session about to be stored for the first time, and refuse it (429, nothing
    stored) if that takes its network past the limit. The count and the check are one atomic
    step in the storage: a test before the view and a count after it would let newcomers
    arriving together all through. A session the view has written already (with a room) is
    counted, not refused."""
    if not creates_session():
        return response
    refusal = current_app.extensions["ttt.limits"].refusal("NEW_SESSION_LIMIT", MESSAGE, count=True)
    if refusal is not None and not (isinstance(session, StoredSession) and session.written):
        session.modified = False  # nothing stored, no cookie
        replace_with(response, refusal)
    return response


def storage(app: Flask) -> Storage:
    """Redis's, on the store's own pool (one bound on connections); on a Redis Cluster, limits'
    redis+cluster:// storage, with its own client and the same bound per node; else SQLite's,
    beside the embedded store's database."""
    url, store = app.config.get("REDIS_URL"), app.extensions["ttt.store"]
    if url and getattr(store, "cluster", False):
        cluster_url = url.replace("redis://", "redis+cluster://", 1)
        bound = app.config["REDIS_CONNECTIONS"]
        return RedisClusterStorage(
            cluster_url, key_prefix="ttt:limits", max_connections=bound, socket_timeout=2, socket_connect_timeout=2
        )
    if url:
        return RedisStorage(url, connection_pool=store.client.connection_pool, key_prefix="ttt:limits")
    return SQLiteStorage(f"ttt+sqlite://{Path(app.config['DATABASE']).with_name('limits.sqlite3')}")


def init_app(app: Flask) -> None:
    app.extensions["ttt.limits"] = Limits(FixedWindowRateLimiter(storage(app)), app.config)
    config = app.config
    on_event_loop = monkey.is_module_patched("time")
    turns = NewcomersTurns(config["NEWCOMERS_PER_SECOND"], config["NEWCOMER_WAIT_SECONDS"])
    app.extensions["ttt.newcomers"] = turns if on_event_loop else None
    app.before_request(refuse_spent_newcomers)
