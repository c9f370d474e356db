"""Server-side sessions: Flask's session interface over our store (SQLite or Redis), with
Flask-Session's ServerSideSession as the session object.

A request reads its session with its version; if it changed the session, the write at the
end goes through only if nobody wrote in between (compare-and-set). A request that loses
that race changes nothing and is told that the board changed (409). Nothing is locked, so a
client that never finishes its request holds nobody but itself.

The store's upkeep (expiry, and the cap on how many sessions and rooms it holds) runs after
a response has been sent, at most once a minute per process, and at once after a new record
takes a table over its cap.
"""

from __future__ import annotations

import logging
import secrets
import time

import redis
from flask import Flask, Request, Response, request
from flask.sessions import SessionInterface
from flask_session.base import ServerSideSession

from ..store.base import STORE_ERRORS, Store, Table
from ..store.redis import RedisStore
from ..store.sqlite import SQLiteStore
from .errors import SessionChanged, StoreUnavailable, replace_with

STORE_ERROR = "ttt.store_error"  # in the environ: the store failed during this request
STORED = "ttt.stored"  # in the environ: the request came with a session the store holds


class StoredSession(ServerSideSession):
    """A session and the version of it that the request read (0: a new one)."""

    def __init__(self, initial: dict | None = None, sid: str = "", version: int = 0) -> None:
        super().__init__(initial, sid=sid, permanent=True)
        self.modified = self.accessed = False
        self.version = version


class Sessions(SessionInterface):
    def __init__(self, store: Store, table: Table, sid_length: int, upkeep: Upkeep) -> None:
        self.store = store
        self.table = table
        self.sid_length = sid_length
        self.upkeep = upkeep

    def open_session(self, app: Flask, request: Request) -> StoredSession | None:
        """The stored session the cookie names; else a new, empty one under a new id (an id
        a client made up is never adopted)."""
        sid = request.cookies.get(self.get_cookie_name(app), "")
        try:
            record = self.store.get(self.table, sid) if 0 < len(sid) <= 64 else None
        except STORE_ERRORS as exc:
            app.logger.warning("session store unavailable: %s", exc)
            request.environ[STORE_ERROR] = exc
            return self.make_null_session(app)
        if record is None:
            return StoredSession(sid=secrets.token_urlsafe(self.sid_length))
        request.environ[STORED] = True
        return StoredSession(record.data, sid=sid, version=record.version)

    def save_session(self, app: Flask, session: StoredSession, response: Response) -> None:
        """Write a changed session, if nobody wrote it since it was read. If someone did, or
        the store fails, the response becomes a page that says so, and nothing is written."""
        if STORE_ERROR in request.environ:
            return  # the 503 page of a store that could not be read
        if session.accessed:
            response.vary.add("Cookie")
        if not session.modified:
            return
        try:
            written = self._write(session)
        except STORE_ERRORS as exc:
            app.logger.warning("session store unavailable on %s %s: %s", request.method, request.path, exc)
            return replace_with(response, StoreUnavailable())
        if not written:
            return replace_with(response, SessionChanged())
        if not session:
            response.delete_cookie(
                self.get_cookie_name(app), domain=self.get_cookie_domain(app), path=self.get_cookie_path(app)
            )
            return
        if not session.version and self.upkeep.over_cap(self.table):
            response.call_on_close(self.upkeep.run)
        response.set_cookie(
            self.get_cookie_name(app),
            session.sid,
            expires=self.get_expiration_time(app, session),
            httponly=self.get_cookie_httponly(app),
            domain=self.get_cookie_domain(app),
            path=self.get_cookie_path(app),
            secure=self.get_cookie_secure(app),
            samesite=self.get_cookie_samesite(app),
        )
        response.vary.add("Cookie")

    def _write(self, session: StoredSession) -> bool:
        """Store the session, or delete it if it was emptied; False if someone wrote first."""
        if session:
            return self.store.put(self.table, session.sid, dict(session), session.version) is not None
        return not session.version or self.store.delete(self.table, session.sid, session.version)


def init_app(app: Flask) -> None:
    """Open the store the config asks for (Redis if REDIS_URL, else SQLite) and install the
    session interface on it."""
    every_table = tables(app)
    if app.config.get("REDIS_URL"):
        client = redis.Redis.from_url(app.config["REDIS_URL"], socket_timeout=2, socket_connect_timeout=2)
        store = RedisStore(client)
    else:
        store = SQLiteStore(app.config["DATABASE"], every_table)
    upkeep = Upkeep(store, every_table, app.config["TIDY_SECONDS"], app.logger)
    app.extensions["ttt.store"] = store
    app.extensions["ttt.upkeep"] = upkeep
    app.session_interface = Sessions(store, every_table[0], app.config["SESSION_ID_LENGTH"], upkeep)
    app.before_request(_refuse_when_store_failed)
    app.after_request(upkeep.schedule)
    app.cli.command("tidy-store")(lambda: print(f"removed {store.tidy(every_table)} expired or evicted records"))


def tables(app: Flask) -> list[Table]:
    """The store's tables: sessions, then rooms. Each has its own cap, so a flood of rooms
    can never be what evicts a player's game."""
    sessions = Table("sessions", int(app.permanent_session_lifetime.total_seconds()), app.config["MAX_SESSIONS"])
    rooms = Table("rooms", int(app.config["ROOM_IDLE_HOURS"] * 3600), app.config["MAX_ROOMS"])
    return [sessions, rooms]


def _refuse_when_store_failed() -> None:
    if STORE_ERROR in request.environ:
        raise StoreUnavailable()


class Upkeep:
    """Expiry and caps, run once a response has been sent: at most once per `interval`
    seconds in each process, and at once when a new record took a table over its cap."""

    def __init__(self, store: Store, tables: list[Table], interval: float, logger: logging.Logger) -> None:
        self.store, self.tables, self.interval, self.logger = store, tables, interval, logger
        self.next = 0.0

    def schedule(self, response: Response) -> Response:
        if time.monotonic() < self.next:
            return response
        self.next = time.monotonic() + self.interval
        return self.run_after(response)

    def over_cap(self, table: Table) -> bool:
        """Whether `table` holds more than its cap (asked after adding a record)."""
        return table.cap > 0 and self.store.count(table) > table.cap

    def run_after(self, response: Response) -> Response:
        """Run once `response` has been sent."""
        response.call_on_close(self.run)
        return response

    def run(self) -> None:
        try:
            self.store.tidy(self.tables)
        except STORE_ERRORS as exc:
            self.logger.warning("could not tidy the store: %s", exc)
