"""Limits per client address (Flask-Limiter): on new sessions, so that one client cannot fill
the session store, and on new rooms; and a limit on new sessions for the whole site, so that
many addresses together cannot either. Players who already have a session are never limited
otherwise, so a school behind one address keeps playing however many games it starts.
Retry-After is sent on a 429 only. An IPv6 client counts by its /64 network (client_network):
one subscriber gets a whole /64, so counting its addresses one by one would count nothing."""

from __future__ import annotations

import ipaddress
import time

from flask import Flask, Request, Response, request, session
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
LIMITED_ALWAYS = ("rooms.invite",)  # endpoints limited per address even for players with a session
CHANGING_GETS = ("/move",)  # GET routes that change the game; every POST may change it too


def init_app(app: Flask) -> None:
    per_address = ApplicationLimit(app.config["NEW_SESSION_LIMIT"], error_message=MESSAGE, deduct_when=creates_session)
    site = ApplicationLimit(
        app.config["NEW_SESSION_SITE_LIMIT"],
        key_function=lambda: "whole-site",
        error_message=SITE_MESSAGE,
        deduct_when=creates_session,
    )
    limiter = Limiter(
        client_network,
        app=app,
        application_limits=[per_address, site],
        storage_uri=app.config.get("REDIS_URL") or "memory://",
        storage_options={"socket_timeout": 2, "socket_connect_timeout": 2} if app.config.get("REDIS_URL") else {},
        key_prefix="ttt:limit",
        headers_enabled=False,  # Retry-After on a 429 only (below), never on a page or a 503
        swallow_errors=True,  # a limiter whose store is down lets players through
    )
    limiter.request_filter(unlimited)  # checked first: most requests cost no more than this
    invite = app.view_functions["rooms.invite"]
    app.view_functions["rooms.invite"] = limiter.limit(app.config["NEW_ROOM_LIMIT"], error_message=ROOM_MESSAGE)(invite)

    @app.errorhandler(429)
    def too_many(error):
        response = http_error(error)
        current = limiter.current_limit
        response.headers["Retry-After"] = str(max(1, int(current.reset_at - time.time())) if current else 60)
        return response


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


def unlimited() -> bool:
    """True for a request no limit applies to: one with a stored session or that changes
    none, unless its endpoint is limited for everyone."""
    if request.endpoint in LIMITED_ALWAYS:
        return False
    environ = request.environ
    return STORED in environ or STORE_ERROR in environ or not changes_session(request)


def creates_session(_response: Response) -> bool:
    """True when this request is about to store a session that did not exist."""
    return bool(session) and not session.read_version and (session.modified or session.written)
