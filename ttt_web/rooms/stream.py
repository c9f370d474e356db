"""A room's event stream (server-sent events): the parts of the room's page that changed,
sent as soon as the room changes, for the page to swap in (static/live.js).

Each stream is a greenlet of a gevent worker that sleeps until live.Watch wakes it. It reads
the visitor's seat from the session once and never writes a session. A comment every
HEARTBEAT_SECONDS keeps proxies from closing an idle stream (and re-reads the room, in case a
published change was missed); after STREAM_SECONDS the stream ends and the browser comes back
(`retry:`) with the last version it saw (Last-Event-ID). A room that is gone ends the stream
at once; a stream asked for a room that is not there answers 204, which tells EventSource to
stop for good.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable, Iterable, Iterator

from flask import Flask, Response, current_app, request, stream_with_context
from werkzeug.wsgi import ClosingIterator

from ..core.room import Room
from ..rooms import page as roompage
from ..store.base import STORE_ERRORS
from .budget import OverBudget, Slot, StreamBudget
from .store import rooms

EVENTS_PATH = re.compile(r"/room/([^/]+)/events")  # rooms.events
SLOT = "ttt.stream_slot"  # in the environ: the stream's place in the budget
RETRY_MS = 2000  # how long a browser waits before it reconnects a stream that ended
REFUSED_RETRY_SECONDS = 10  # what a refused stream is told to wait (its page reloads instead)


REFUSED = {
    True: (429, "Too many live pages are open from your network. The room's page reloads by itself instead."),
    False: (503, "The server follows as many live pages as it can. The room's page reloads by itself instead."),
}


def init_app(app: Flask) -> None:
    config = app.config
    budget = StreamBudget(config["STREAMS"], config["STREAMS_PER_ADDRESS"], config["STREAMS_PER_ROOM"])
    app.extensions["ttt.streams"] = budget
    app.wsgi_app = Gate(app.wsgi_app, budget)


class Gate:
    """WSGI middleware: a room's stream takes its place in the budget before Flask sees the
    request, and one with no place is refused here, in some microseconds, so that a flood of
    refused streams costs next to nothing. The place is given back when the response closes,
    however it ends."""

    def __init__(self, app: Callable, budget: StreamBudget) -> None:
        self.app, self.budget = app, budget

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        match = EVENTS_PATH.fullmatch(environ.get("PATH_INFO", ""))
        if match is None or environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        connection = environ.get("gunicorn.socket")
        try:
            slot = self.budget.take(environ.get("REMOTE_ADDR", ""), match[1], connection.fileno() if connection else -1)
        except OverBudget as over:
            close_after(start_response)
            return refused(over.mine)(environ, start_response)
        environ[SLOT] = slot
        try:
            body = self.app(environ, start_response)
        except BaseException:
            self.budget.give_back(slot)
            raise
        return ClosingIterator(body, lambda: self.budget.give_back(slot))


def close_after(start_response: Callable) -> None:
    """Have gunicorn close the connection after this response (it ignores an app's own
    `Connection: close`): a refused stream's client would otherwise keep it as keep-alive, and
    a flood of them would hold the worker's connections."""
    force_close = getattr(getattr(start_response, "__self__", None), "force_close", None)
    if force_close is not None:
        force_close()


def refused(mine: bool) -> Response:
    """A stream with no place: said in a line of text (EventSource reads only the status)."""
    status, text = REFUSED[mine]
    headers = {
        "Retry-After": str(REFUSED_RETRY_SECONDS),
        "Cache-Control": "no-store",
        "X-Content-Type-Options": "nosniff",
    }
    return Response(text, status, mimetype="text/plain", headers=headers)


def response(room_id: str, key: str | None) -> Response:
    """The stream of room `room_id` for the holder of seat key `key` (None: a visitor), in the
    place the Gate took for it."""
    if rooms().get(room_id) is None:  # read again once the stream follows it: no change falls between
        return Response(status=204)
    seen = request.headers.get("Last-Event-ID") or request.args.get("v", "")
    events = stream_with_context(_events(room_id, key, seen, request.environ[SLOT]))
    return Response(events, mimetype="text/event-stream", headers={"X-Accel-Buffering": "no"})


def _events(room_id: str, key: str | None, seen: str, slot: Slot) -> Iterator[str]:
    """Events from the version the page shows (`seen`) on; `sent` is what the page shows."""
    heartbeat = current_app.config["HEARTBEAT_SECONDS"]
    deadline = time.monotonic() + current_app.config["STREAM_SECONDS"]
    sent: dict[str, str] = {}
    yield f"retry: {RETRY_MS}\n\n"
    watch = rooms().watch
    with watch.follow(room_id, 0) as follower:
        slot.wake.append(follower.woken.set)
        while not watch.closing and not slot.dropped.is_set():
            try:
                room, version = watch.read(room_id, rooms().read)
            except STORE_ERRORS:
                return  # the browser tries again after RETRY_MS
            if room is None:
                yield message("gone", {}, "")
                return
            if str(version) != seen or not sent:
                events, sent = _update(room, version, room.seat_of(key), seen, sent)
                yield from events
                seen = str(version)
            follower.version = version
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if not follower.wait(min(heartbeat, remaining)):
                yield ": still here\n\n"


def _update(room: Room, version: int, you: int | None, seen: str, sent: dict[str, str]) -> tuple[list[str], dict]:
    """The event that brings a page showing version `seen` (whose parts are `sent`) to
    `version`, none if it shows it already; and the parts it then shows."""
    title, parts = roompage.parts(room, version, you)
    if str(version) == seen:
        return [], parts
    changed = {part: html for part, html in parts.items() if sent.get(part) != html}
    return [message("room", {"title": title, "parts": changed}, str(version))], parts


def message(event: str, data: dict, event_id: str) -> str:
    lines = [f"id: {event_id}"] if event_id else []
    return "\n".join([*lines, f"event: {event}", f"data: {json.dumps(data, separators=(',', ':'))}", "", ""])
