"""What an operator watches: `/healthz`, `/readyz` and `/metrics` (Prometheus, through
prometheus-client), and a request id on every response and on every line the app logs
during its request.

All of it is one WSGI middleware around the whole app: these three paths are answered before
Flask opens a session or any limit is counted, and every response is counted, those refused
before Flask sees them (a room stream's Gate) too.

Under gunicorn the metrics are in prometheus-client's multiprocess mode: each worker writes
its own files in PROMETHEUS_MULTIPROC_DIR (gunicorn.conf.py makes and empties it), and
/metrics, in whichever worker answers, adds up every worker's. Without that folder (the
test client, `flask run`), they are the process's own.
"""

from __future__ import annotations

import hmac
import logging
import os
import re
import secrets
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as Late
from typing import Any, TypeVar

from flask import Flask, Request, has_request_context, request
from flask.logging import default_handler, wsgi_errors_stream
from prometheus_client import CONTENT_TYPE_LATEST, CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.metrics_core import GaugeMetricFamily
from prometheus_client.multiprocess import MultiProcessCollector
from werkzeug.exceptions import HTTPException
from werkzeug.wsgi import ClosingIterator

from ..store.base import STORE_ERRORS, Record, Store, Table, Write, WriteConflict
from .sessions import tables

T = TypeVar("T")
REQUEST_ID = "ttt.request_id"  # in the environ: this request's id
GIVEN_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")  # an X-Request-ID taken as it comes; any other is replaced
READY_SECONDS = 0.1  # /readyz: the store must answer within this
MULTIPROCESS = "PROMETHEUS_MULTIPROC_DIR" in os.environ  # as prometheus_client decided on import
REFUSALS = ("409", "429", "503")
EVENT_STREAM = ("Content-Type", "text/event-stream; charset=utf-8")  # a room's stream, as Flask says it

OWN = CollectorRegistry()  # this process's metrics, when not in multiprocess mode
REQUESTS = Counter("ttt_requests", "Responses, by endpoint and status", ["endpoint", "status"], registry=OWN)
REFUSED = Counter(
    "ttt_refused", "Answers 409 (changed meanwhile), 429 (too many) and 503 (try again)", ["status"], registry=OWN
)
STORE_SECONDS = Histogram(
    "ttt_store_call_seconds",
    "Calls of the session and room store, by call, and how long each took",
    ["call"],
    buckets=(0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
    registry=OWN,
)
CONFLICTS = Counter(
    "ttt_write_conflicts", "Compare-and-set writes refused: the record moved on", ["table"], registry=OWN
)
STORE_CALLS = ("get", "put", "delete", "write_all", "count", "tidy")
STREAMS = Gauge("ttt_event_streams_open", "Rooms' event streams open now", multiprocess_mode="livesum", registry=OWN)


def init_app(app: Flask) -> None:
    """Put request ids in the log, and wrap the whole app (call it once every other
    middleware is in place, but ProxyFix, which must see every path first). The store's
    calls are measured by MeasuredStore, which sessions.init_app puts around the store
    before anyone holds it."""
    log_request_ids(app)
    app.wsgi_app = Observe(app, app.extensions["ttt.store"], tables(app))  # type: ignore[method-assign]  # Flask's documented middleware hook


class MeasuredStore:
    """A store whose calls of the Store protocol are timed, and whose refused compare-and-set
    writes are counted; anything else (a Redis store's client, say) is the store's own. The
    store layer knows nothing of metrics."""

    def __init__(self, store: Store) -> None:
        self.store = store
        # each call's histogram, found once: labels() takes a lock and checks its values, on
        # every call (docs/performance.md, "What the page does beyond its floor")
        self.seconds = {call: STORE_SECONDS.labels(call) for call in STORE_CALLS}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def _timed(self, call: str, function: Callable[..., T], *args: Any) -> T:
        """`function(*args)`, its time observed in `call`'s histogram (as its time() would,
        without a timer object per call)."""
        start = time.perf_counter()
        try:
            return function(*args)
        finally:
            self.seconds[call].observe(time.perf_counter() - start)

    def get(self, table: Table, key: str) -> Record | None:
        return self._timed("get", self.store.get, table, key)

    def put(self, table: Table, key: str, data: dict[str, Any], version: int) -> int | None:
        written = self._timed("put", self.store.put, table, key, data, version)
        if written is None:
            CONFLICTS.labels(table.name).inc()
        return written

    def delete(self, table: Table, key: str, version: int | None = None) -> bool:
        gone = self._timed("delete", self.store.delete, table, key, version)
        if not gone and version is not None:
            CONFLICTS.labels(table.name).inc()
        return gone

    def write_all(self, writes: list[Write]) -> list[int]:
        try:
            return self._timed("write_all", self.store.write_all, writes)
        except WriteConflict as conflict:
            CONFLICTS.labels(conflict.write.table.name).inc()
            raise

    def count(self, table: Table) -> int:
        return self._timed("count", self.store.count, table)

    def tidy(self, tables: list[Table]) -> int:
        return self._timed("tidy", self.store.tidy, tables)


class RequestId(logging.Filter):
    """Gives each log record the id of the request it was logged in ("-" outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request.environ.get(REQUEST_ID, "-") if has_request_context() else "-"
        return True


# where Flask's own handler writes: the server's error log (a LocalProxy of a TextIO, which typeshed does not take)
HANDLER = logging.StreamHandler(wsgi_errors_stream)  # type: ignore[call-overload]  # as Flask's own handler does
HANDLER.addFilter(RequestId())
HANDLER.setFormatter(logging.Formatter("[%(asctime)s] %(levelname)s in %(module)s [%(request_id)s]: %(message)s"))


def log_request_ids(app: Flask) -> None:
    """The app's log lines (every ttt_web logger's) through HANDLER, in place of Flask's default."""
    package = logging.getLogger(__name__.split(".")[0])
    if HANDLER not in package.handlers:
        package.addHandler(HANDLER)
    app.logger.removeHandler(default_handler)


def request_id(given: str | None) -> str:
    """The client's or proxy's X-Request-ID if it is a short, safe token; else a new one."""
    return given if given and GIVEN_ID.fullmatch(given) else secrets.token_hex(16)


class Observe:
    """WSGI middleware: the request id, the count of every response, the open streams, and
    the three operator's paths."""

    def __init__(self, app: Flask, store: Store, kept: list[Table]) -> None:
        self.flask, self.app = app, app.wsgi_app
        self.token = app.config["METRICS_TOKEN"]
        self.ready = Readiness(store, kept[0])
        self.stored = StoredRecords(store, kept)
        self.paths = {"/healthz": self.healthz, "/readyz": self.readyz, "/metrics": self.metrics}

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        environ[REQUEST_ID] = rid = request_id(environ.get("HTTP_X_REQUEST_ID"))
        streams: list[bool] = []

        def start(status: str, headers: list[tuple[str, str]], *exc_info) -> Callable:
            self.count(environ, status[:3])
            if EVENT_STREAM in headers and status.startswith("200"):
                STREAMS.inc()
                streams.append(True)
            return start_response(status, [*headers, ("X-Request-ID", rid)], *exc_info)

        own = self.paths.get(environ.get("PATH_INFO", ""))
        if own is not None and environ.get("REQUEST_METHOD") in ("GET", "HEAD"):
            body: Iterable[bytes] = plain(start, *own(environ))
            return [] if environ["REQUEST_METHOD"] == "HEAD" else body
        body = self.app(environ, start)
        return ClosingIterator(body, STREAMS.dec) if streams else body

    def count(self, environ: dict, status: str) -> None:
        REQUESTS.labels(self.endpoint(environ), status).inc()
        if status in REFUSALS:
            REFUSED.labels(status).inc()

    def endpoint(self, environ: dict) -> str:
        """The view's endpoint ("none": no route); for a response made before Flask saw the
        request, the endpoint its path would have had."""
        path = environ.get("PATH_INFO", "")
        if path in self.paths:
            return path.removeprefix("/")
        asked = environ.get("werkzeug.request")  # the request Flask made, if it made one
        if isinstance(asked, Request):
            return asked.url_rule.endpoint if asked.url_rule is not None else "none"
        try:
            return self.flask.url_map.bind_to_environ(environ).match()[0]
        except HTTPException:
            return "none"

    def healthz(self, environ: dict) -> Answer:
        return "200 OK", b"ok\n", TEXT

    def readyz(self, environ: dict) -> Answer:
        if self.ready():
            return "200 OK", b"ready\n", TEXT
        return "503 Service Unavailable", b"the store did not answer within 100 ms\n", [*TEXT, ("Retry-After", "5")]

    def metrics(self, environ: dict) -> Answer:
        """Every metric, for whoever holds METRICS_TOKEN; no such page when it is not set."""
        if not self.token:
            return "404 Not Found", b"not found\n", TEXT
        given = environ.get("HTTP_AUTHORIZATION", "").encode("latin-1")
        if not hmac.compare_digest(given, f"Bearer {self.token}".encode()):
            return "401 Unauthorized", b"a bearer token is needed\n", [*TEXT, ("WWW-Authenticate", "Bearer")]
        return "200 OK", exposition(self.stored), [("Content-Type", CONTENT_TYPE_LATEST)]


Answer = tuple[str, bytes, list[tuple[str, str]]]  # status, body, headers
TEXT = [("Content-Type", "text/plain; charset=utf-8")]


def plain(start: Callable, status: str, body: bytes, headers: list[tuple[str, str]]) -> list[bytes]:
    """An answer of our own, that no cache keeps and no browser sniffs."""
    start(status, [*headers, ("Content-Length", str(len(body))), *NOT_KEPT])
    return [body]


NOT_KEPT = [("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")]


class Readiness:
    """Whether the store answers a read within READY_SECONDS. One probe at a time per process,
    however many ask at once: a caller waits on the probe already under way."""

    def __init__(self, store: Store, table: Table) -> None:
        self.store, self.table = store, table
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="readyz")
        self.lock = threading.Lock()
        self.probe: Future | None = None

    def __call__(self) -> bool:
        with self.lock:
            if self.probe is None or self.probe.done():
                self.probe = self.pool.submit(self._read)
            probe = self.probe
        try:
            return probe.result(timeout=READY_SECONDS) <= READY_SECONDS
        except (Late, *STORE_ERRORS):
            return False

    def _read(self) -> float:
        """How long the store took to read a record (one that is never there)."""
        start = time.perf_counter()
        self.store.get(self.table, "-")
        return time.perf_counter() - start


class StoredRecords:
    """How many sessions and rooms the store holds, asked of it when /metrics is read (one
    count per table; the store is shared, so no worker's figure is added to another's)."""

    def __init__(self, store: Store, kept: list[Table]) -> None:
        self.store, self.kept = store, kept

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily("ttt_stored_records", "Records the store holds, by table", labels=["table"])
        try:
            for table in self.kept:
                family.add_metric([table.name], self.store.count(table))
        except STORE_ERRORS:
            return  # the store is down: /readyz says so, and the rest of the metrics still come
        yield family


def exposition(stored: StoredRecords) -> bytes:
    """Every metric in Prometheus's text format: every worker's (multiprocess mode) or this
    process's, and the store's counts."""
    counted = CollectorRegistry()
    if MULTIPROCESS:
        MultiProcessCollector(counted)
    counts = CollectorRegistry()
    counts.register(stored)
    return generate_latest(counted if MULTIPROCESS else OWN) + generate_latest(counts)
