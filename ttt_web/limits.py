"""A limit on new sessions per client address (Flask-Limiter), so that one client cannot
fill the session store. Players who already have a session are never limited, so a
school behind one address keeps playing however many games it starts."""

from __future__ import annotations

from flask import Flask, Response, request, session
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address

from .sessions import changes_session

MESSAGE = (
    "Too many new players from your network in a short time. Please wait a minute and try "
    "again: games already under way are not affected."
)


def init_app(app: Flask) -> None:
    limit = ApplicationLimit(app.config["NEW_SESSION_LIMIT"], error_message=MESSAGE, deduct_when=creates_session)
    limiter = Limiter(
        get_remote_address,
        app=app,
        application_limits=[limit],
        storage_uri=app.config.get("REDIS_URL") or "memory://",
        storage_options={"socket_timeout": 2, "socket_connect_timeout": 2} if app.config.get("REDIS_URL") else {},
        key_prefix="ttt:limit",
        headers_enabled=True,  # Retry-After on a 429, and X-RateLimit-* where the limit applies
        swallow_errors=True,  # a limiter whose store is down lets players through
    )
    limiter.request_filter(cannot_create_session)  # checked first: most requests cost no more than this


def cannot_create_session() -> bool:
    """True for a request that has a stored session, or that changes none."""
    environ = request.environ
    return "ttt.stored_sid" in environ or "ttt.store_error" in environ or not changes_session(request)


def creates_session(_response: Response) -> bool:
    """True when this request is about to store a session that did not exist."""
    return bool(session) and session.modified
