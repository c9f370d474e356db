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
from werkzeug.exceptions import ServiceUnavailable, TooManyRequests

from . import roompage
from .roomstore import rooms
from .store import STORE_ERRORS
from .streambudget import OverBudget, Slot, StreamBudget

RETRY_MS = 2000  # how long a browser waits before it reconnects a stream that ended
REFUSED_RETRY_SECONDS = 10  # what a refused stream is told to wait (its page reloads instead)


class TooManyStreams(TooManyRequests):
    description = "Too many live pages are open from your network. This page reloads by itself instead."


class NoPlaceForStream(ServiceUnavailable):
    description = "The server follows as many live pages as it can. This page reloads by itself instead."


def init_app(app: Flask) -> None:
    config = app.config
    app.extensions["ttt.streams"] = StreamBudget(
        config["STREAMS"], config["STREAMS_PER_ADDRESS"], config["STREAMS_PER_ROOM"]
    )


def response(room_id: str, key: str | None) -> Response:
    """The stream of room `room_id` for the holder of seat key `key` (None: a visitor); 429 or
    503 at once if there is no place for it (streambudget)."""
    budget: StreamBudget = current_app.extensions["ttt.streams"]
    connection = request.environ.get("gunicorn.socket")
    try:
        slot = budget.take(request.remote_addr or "", room_id, connection.fileno() if connection else -1)
    except OverBudget as over:
        raise (TooManyStreams if over.mine else NoPlaceForStream)(retry_after=REFUSED_RETRY_SECONDS) from None
    if rooms().get(room_id) is None:  # read again once the stream follows it: no change falls between
        budget.give_back(slot)
        return Response(status=204)
    seen = request.headers.get("Last-Event-ID") or request.args.get("v", "")
    events = stream_with_context(_events(room_id, key, seen, slot))
    stream = Response(events, mimetype="text/event-stream", headers={"X-Accel-Buffering": "no"})
    stream.call_on_close(lambda: budget.give_back(slot))  # however the stream ends, even unread
    return stream


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
                title, parts = roompage.parts(room, version, room.player(key))
                if str(version) != seen:
                    changed = {part: html for part, html in parts.items() if sent.get(part) != html}
                    yield message("room", {"title": title, "parts": changed}, str(version))
                sent, seen = parts, str(version)
            follower.version = version
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return
            if not follower.wait(min(heartbeat, remaining)):
                yield ": still here\n\n"


def message(event: str, data: dict, event_id: str) -> str:
    lines = [f"id: {event_id}"] if event_id else []
    return "\n".join([*lines, f"event: {event}", f"data: {json.dumps(data, separators=(',', ':'))}", "", ""])
