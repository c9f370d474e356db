"""Server-side sessions: Flask's session interface over our store (SQLite or Redis), with
Flask-Session's ServerSideSession as the session object.

A request reads its session with its version; if it changed the session, the write at the
end goes through only if nobody wrote in between (compare-and-set). A request that loses
that race changes nothing and is told that the board changed (409). Nothing is locked, so a
client that never finishes its request holds nobody but itself. A request that changes other
records with the session (a room's seat) writes them all at once (`write_with_session`).

The store's upkeep (expiry, and the cap on how many sessions and rooms it holds) runs after
a response has been sent, at most once a minute per process, and at once after a new record
takes a table over its cap.
"""

from __future__ import annotations

import logging
import secrets
import time
from collections.abc import Callable

from flask import Flask, Request, Response, current_app, request, session
from flask.sessions import SessionInterface, SessionMixin
from flask_session.base import ServerSideSession

from ..store.base import STORE_ERRORS, Store, Table, Write, WriteConflict
from ..store.redis import RedisStore, connect
from ..store.sqlite import SQLiteStore
from .errors import SessionChanged, StoreFull, StoreUnavailable, replace_with

STORE_ERROR = "ttt.store_error"  # in the environ: the store failed during this request
STORED = "ttt.stored"  # in the environ: the request came with a session the store holds


class StoredSession(ServerSideSession):
    """A session, the version of it that the request read (0: a new one) and the version it
    is at now; `written`: the request wrote it already (with other records)."""

    def __init__(self, initial: dict | None = None, sid: str = "", version: int = 0) -> None:
        super().__init__(initial, sid=sid, permanent=True)
        self.modified = self.accessed = self.written = False
        self.read_version = self.version = version


class Sessions(SessionInterface):
    def __init__(self, store: Store, table: Table, sid_length: int, upkeep: Upkeep) -> None:
        self.store = store
        self.table = table
        self.sid_length = sid_length
        self.upkeep = upkeep

    def open_session(self, app: Flask, request: Request) -> SessionMixin | None:
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

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Write a changed session, if nobody wrote it since it was read. If someone did, or
        the store fails, the response becomes a page that says so, and nothing is written."""
        if STORE_ERROR in request.environ or not isinstance(session, StoredSession):
            return  # the 503 page of a store that could not be read (its session is Flask's null one)
        if session.accessed:
            response.vary.add("Cookie")
        if session.modified:
            try:
                written = self._write(session) if self.has_room(session) else None
            except STORE_ERRORS as exc:
                app.logger.warning("session store unavailable on %s %s: %s", request.method, request.path, exc)
                return replace_with(response, StoreUnavailable())
            if written is None:
                return replace_with(response, StoreFull())
            if not written:
                return replace_with(response, SessionChanged())
        elif not session.written:
            return
        self._send_cookie(app, session, response)

    def _send_cookie(self, app: Flask, session: StoredSession, response: Response) -> None:
        if not session:
            response.delete_cookie(
                self.get_cookie_name(app), domain=self.get_cookie_domain(app), path=self.get_cookie_path(app)
            )
            return
        if not session.read_version and self.upkeep.over_cap(self.table):
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

    def write_with(self, session: StoredSession, writes: list[Write], data: dict) -> list[int]:
        """Write `writes` and the session as `data`, all or none; see write_with_session."""
        own = self._session_write(session, data)
        if not writes and own is None:
            return []
        try:
            versions = self.store.write_all([*writes, own] if own else writes)
        except WriteConflict as conflict:
            if conflict.write is own:
                session.modified = False  # nothing of this request is written, now or at its end
                raise SessionChanged() from conflict
            raise
        if own:
            session.clear()
            session.update(data)
            session.modified, session.written, session.version = False, True, versions[-1]
        return versions[: len(writes)]

    def _session_write(self, session: StoredSession, data: dict) -> Write | None:
        """The write that stores the session as `data` (None: it is unchanged). StoreFull if
        it would be a new session and the store has no room for one."""
        if not session.modified and data == dict(session):
            return None
        if data and not self.has_room(session):
            raise StoreFull()
        return Write(self.table, session.sid, data or None, session.version)

    def has_room(self, session: StoredSession) -> bool:
        """Whether the store may take this session: always, unless it is a new one and the
        store is full of games played too recently to make room (Table.keep)."""
        return bool(session.read_version) or not session or self.upkeep.room_for_one_more(self.table)

    def _write(self, session: StoredSession) -> bool:
        """Store the session, or delete it if it was emptied; False if someone wrote first."""
        if session:
            return self.store.put(self.table, session.sid, dict(session), session.version) is not None
        return not session.version or self.store.delete(self.table, session.sid, session.version)


def write_with_session(writes: list[Write], data: dict) -> list[int]:
    """Make `writes` (records of other tables) and store the session as `data`, in one write
    that changes all of them or none; the new versions of `writes`. The request's session
    becomes `data` only if it was written. SessionChanged (409) if another request wrote the
    session since this one read it; WriteConflict if one of `writes` moved on."""
    interface = current_app.session_interface
    if not isinstance(interface, Sessions) or not isinstance(session, StoredSession):
        raise RuntimeError("write_with_session needs the app's Sessions (sessions.init_app)")
    return interface.write_with(session, writes, data)


def init_app(app: Flask, wrap: Callable[[Store], Store] = lambda store: store) -> None:
    """Open the store the config asks for (Redis if REDIS_URL, else SQLite), `wrap` it (the
    metrics' MeasuredStore) for everyone who holds it, and install the session interface on it."""
    every_table = tables(app)
    opened: RedisStore | SQLiteStore
    if app.config.get("REDIS_URL"):
        client = connect(app.config["REDIS_URL"], app.config["REDIS_CONNECTIONS"], app.config["REDIS_WAIT_SECONDS"])
        opened = RedisStore(client)
        if risk := opened.eviction_risk():
            app.logger.error(
                "%s: Redis may evict players' games to make room. Set maxmemory-policy noeviction "
                "(docs/deploy.md), and maxmemory large enough for MAX_SESSIONS and MAX_ROOMS.",
                risk,
            )
    else:
        opened = SQLiteStore(app.config["DATABASE"], every_table)
    store = wrap(opened)
    upkeep = Upkeep(store, every_table, app.config["TIDY_SECONDS"], app.logger)
    app.extensions["ttt.store"] = store
    app.extensions["ttt.upkeep"] = upkeep
    app.session_interface = Sessions(store, every_table[0], app.config["SESSION_ID_LENGTH"], upkeep)
    app.before_request(_refuse_when_store_failed)
    app.after_request(upkeep.schedule)
    app.cli.command("tidy-store")(lambda: print(f"removed {store.tidy(every_table)} expired or evicted records"))


def tables(app: Flask) -> list[Table]:
    """The store's tables: sessions, then rooms. Each has its own cap, so a flood of rooms
    can never be what evicts a player's game; a room played in recently is kept as a session is."""
    lifetime, keep = int(app.permanent_session_lifetime.total_seconds()), int(app.config["KEEP_RECENT_HOURS"] * 3600)
    sessions = Table("sessions", lifetime, app.config["MAX_SESSIONS"], keep)
    room_lifetime = int(app.config["ROOM_IDLE_HOURS"] * 3600)
    rooms = Table("rooms", room_lifetime, app.config["MAX_ROOMS"], min(keep, room_lifetime))
    return [sessions, rooms]


def _refuse_when_store_failed() -> None:
    if STORE_ERROR in request.environ:
        raise StoreUnavailable()


class Upkeep:
    """Expiry and caps, run once a response has been sent: at most once per `interval`
    seconds in each process, and at once when a new record took a table over its cap."""

    def __init__(self, store: Store, tables: list[Table], interval: float, logger: logging.Logger) -> None:
        self.store, self.tables, self.interval, self.logger = store, tables, interval, logger
        self.next = self.next_room = 0.0

    def room_for_one_more(self, table: Table) -> bool:
        """Whether `table` may take a new record: it is under its cap, or it was once tidying
        made room. A full table is tidied at once, at most once a second in each process, so a
        flood of newcomers to a full store costs one tidying a second, not one each."""
        if not table.cap or self.store.count(table) < table.cap:
            return True
        if time.monotonic() < self.next_room:
            return False
        self.next_room = time.monotonic() + 1
        self.store.tidy([table])
        return self.store.count(table) < table.cap

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
