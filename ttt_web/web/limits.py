"""Limits per client address (Flask-Limiter): on new sessions, so that one client cannot fill
the session store, and on new rooms; and a limit on new sessions for the whole site, so that
many addresses together cannot either. Players who already have a session are never limited
otherwise, so a school behind one address keeps playing however many games it starts.
Retry-After is sent on a 429 only. An IPv6 client counts by its /64 network (client_network):
one subscriber gets a whole /64, so counting its addresses one by one would count nothing.

One limiter for the process (Flask-Limiter's app-factory pattern), so that a view declares
its own limit with `@limiter.limit`; each app's `init_app` gives it that app's storage. A
request that cannot change its session (a page) is let through by the first check, before
any limit is resolved."""

from __future__ import annotations

import ipaddress
import time

from flask import Flask, Request, Response, current_app, request, session
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address

from .errors import http_error
from .sessions import STORE_ERROR, STORED

MESSAGE = (
    "Too many new players from your network in a short time. Please wait a minute and try "
    "again: games already under way are not affected."
)
SITE_MESSAGE = (
    "So many new players are arriving right now that we cannot start a game for you. Please try "
    "again in a minute: games already under way are not affected."
)
ROOM_MESSAGE = "Too many new rooms from your network in a short time. Please wait a minute and try again."
CHANGING_GETS = ("/move",)  # GET routes that change the game; every POST may change it too


def client_network() -> str:
    """Who a per-address limit counts: the client's IPv4 address (an IPv4 address written as
    IPv6 too), or the /64 network of its IPv6 address. Every per-address bound uses this."""
    address = get_remote_address()
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if ip.version == 4:
        return str(ip)
    if ip.ipv4_mapped:
        return str(ip.ipv4_mapped)
    return str(ipaddress.ip_network(f"{ip}/64", strict=False))


def changes_session(request: Request) -> bool:
    """Whether a request may change its session: every POST, and the GET routes that change
    the game. Only these can create a session."""
    return request.method not in ("GET", "HEAD") or request.path in CHANGING_GETS


def changes_nothing() -> bool:
    """True for a request no limit applies to: one that cannot change its session."""
    return not changes_session(request)


def has_session() -> bool:
    """True for a request the new-session limits do not count: one with a stored session
    (or whose store could not be read)."""
    environ = request.environ
    return STORED in environ or STORE_ERROR in environ


def creates_session(_response: Response) -> bool:
    """True when this request is about to store a session that did not exist."""
    return bool(session) and not session.read_version and (session.modified or session.written)


limiter = Limiter(
    client_network,
    application_limits=[
        ApplicationLimit(
            lambda: current_app.config["NEW_SESSION_LIMIT"],
            error_message=MESSAGE,
            exempt_when=has_session,
            deduct_when=creates_session,
        ),
        ApplicationLimit(
            lambda: current_app.config["NEW_SESSION_SITE_LIMIT"],
            key_function=lambda: "whole-site",
            error_message=SITE_MESSAGE,
            exempt_when=has_session,
            deduct_when=creates_session,
        ),
    ],
    key_prefix="ttt:limit",
    headers_enabled=False,  # Retry-After on a 429 only (below), never on a page or a 503
    swallow_errors=True,  # a limiter whose store is down lets players through
)
limiter.request_filter(changes_nothing)


def init_app(app: Flask) -> None:
    redis_url = app.config.get("REDIS_URL")
    app.config.setdefault("RATELIMIT_STORAGE_URI", redis_url or "memory://")
    if redis_url:
        app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", {"socket_timeout": 2, "socket_connect_timeout": 2})
    limiter.init_app(app)

    @app.errorhandler(429)
    def too_many(error):
        response = http_error(error)
        current = limiter.current_limit
        response.headers["Retry-After"] = str(max(1, int(current.reset_at - time.time())) if current else 60)
        return response
