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
import time
from collections.abc import Iterator

from flask import Flask, Response, current_app, request, stream_with_context

from ..core.room import Room
from ..rooms import page as roompage
from ..store.base import STORE_ERRORS
from ..web.limits import client_network
from .budget import OverBudget, Slot, StreamBudget
from .store import rooms

RETRY_MS = 2000  # how long a browser waits before it reconnects a stream that ended
REFUSED_RETRY_SECONDS = 10  # what a refused stream is told to wait (its page reloads instead)
HEADERS = {"X-Accel-Buffering": "no"}  # a proxy passes each event on as it is written (nginx)

REFUSED = {
    True: (429, "Too many live pages are open from your network. The room's page reloads by itself instead."),
    False: (503, "The server follows as many live pages as it can. The room's page reloads by itself instead."),
}


def init_app(app: Flask) -> None:
    config = app.config
    budget = StreamBudget(config["STREAMS"], config["STREAMS_PER_NETWORK"], config["STREAMS_PER_ROOM"])
    app.extensions["ttt.streams"] = budget


def refused(mine: bool) -> Response:
    """A stream with no place: said in a line of text (EventSource reads only the status). The
    proxy closes the connection after it (deploy/nginx.conf)."""
    status, text = REFUSED[mine]
    headers = {"Retry-After": str(REFUSED_RETRY_SECONDS), "Cache-Control": "no-store"}
    return Response(text, status, mimetype="text/plain", headers=headers)


def response(room_id: str, key: str | None) -> Response:
    """The stream of room `room_id` for the holder of seat key `key` (None: a visitor), in a
    place of the process's budget, given back when the response closes however it ends. A
    HEAD asks for the headers only, and takes no place."""
    room = rooms().get(room_id)
    if room is None:
        return Response(status=204)
    if request.method == "HEAD":
        return Response(mimetype="text/event-stream", headers=HEADERS)
    budget: StreamBudget = current_app.extensions["ttt.streams"]
    try:
        slot = budget.take(client_network(), room_id, seated=room.seat_of(key) is not None)
    except OverBudget as over:
        return refused(over.mine)
    seen = request.headers.get("Last-Event-ID") or request.args.get("v", "")
    events = Response(stream_with_context(_events(room_id, key, seen, slot)), mimetype="text/event-stream")
    events.headers.update(HEADERS)
    events.call_on_close(lambda: budget.give_back(slot))
    return events


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
