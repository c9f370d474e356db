"""Limits per client address (Flask-Limiter): on new sessions, so that one client cannot fill
the session store, and on new rooms. Players who already have a session are never limited
otherwise, so a school behind one address keeps playing however many games it starts.
Retry-After is sent on a 429 only."""

from __future__ import annotations

import functools
import time

from flask import Flask, Request, Response, current_app, request, session
from flask_limiter import ApplicationLimit, Limiter
from flask_limiter.util import get_remote_address
from limits import RateLimitItem, parse_many
from werkzeug.exceptions import TooManyRequests

from .errors import http_error, replace_with
from .sessions import STORE_ERROR, STORED

MESSAGE = (
    "Too many new players from your network in a short time. Please wait a minute and try "
    "again: games already under way are not affected."
)
ROOM_MESSAGE = "Too many new rooms from your network in a short time. Please wait a minute and try again."
KEY_PREFIX = "ttt:limit"
LIMITED_ALWAYS = ("rooms.invite",)  # endpoints limited per address even for players with a session
CHANGING_GETS = ("/move",)  # GET routes that change the game; every POST may change it too


def init_app(app: Flask) -> None:
    # Flask-Limiter only tests this limit before the view (a newcomer past it costs nothing);
    # the new session is counted by count_new_session, in one atomic step with the check.
    limit = ApplicationLimit(app.config["NEW_SESSION_LIMIT"], error_message=MESSAGE, deduct_when=lambda _: False)
    limiter = Limiter(
        get_remote_address,
        app=app,
        application_limits=[limit],
        storage_uri=app.config.get("REDIS_URL") or "memory://",
        storage_options=storage_options(app),
        key_prefix=KEY_PREFIX,
        headers_enabled=False,  # Retry-After on a 429 only (below), never on a page or a 503
        swallow_errors=True,  # a limiter whose store is down lets players through
    )
    limiter.request_filter(unlimited)  # checked first: most requests cost no more than this
    invite = app.view_functions["rooms.invite"]
    app.view_functions["rooms.invite"] = limiter.limit(app.config["NEW_ROOM_LIMIT"], error_message=ROOM_MESSAGE)(invite)

    app.after_request(functools.partial(count_new_session, limiter, parse_many(app.config["NEW_SESSION_LIMIT"])))

    @app.errorhandler(429)
    def too_many(error):
        response = http_error(error)
        if "Retry-After" in response.headers:  # the error's own (a refused event stream)
            return response
        current = limiter.current_limit
        response.headers["Retry-After"] = str(max(1, int(current.reset_at - time.time())) if current else 60)
        return response


def count_new_session(limiter: Limiter, limits: list[RateLimitItem], response: Response) -> Response:
    """Count a session about to be stored for the first time, and refuse it (429, nothing
    stored) if that takes its address past a limit. The count and the check are one atomic
    step in the limiter's store (a test before the view and a count after it let two
    newcomers at 59 of 60 both through)."""
    if not changes_session(request) or not creates_session(response):
        return response
    key = (KEY_PREFIX, get_remote_address(), "global")  # Flask-Limiter's own key for an application limit
    try:
        past = [item for item in limits if not limiter.limiter.hit(item, *key)]
        reset = min((limiter.limiter.get_window_stats(item, *key).reset_time for item in past), default=0)
    except Exception as exc:
        current_app.logger.warning("could not count a new session: %s", exc)
        return response
    if past:
        session.modified = False  # nothing stored, no cookie
        replace_with(response, TooManyRequests(MESSAGE, retry_after=max(1, int(reset - time.time()))))
    return response


def storage_options(app: Flask) -> dict:
    """On Redis, the limiter shares the session store's pool: one bound on connections."""
    store = app.extensions["ttt.store"]
    return {"connection_pool": store.client.connection_pool} if app.config.get("REDIS_URL") else {}


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
    """True when this request is about to store a session that did not exist. (Asked in
    this order, so that a request that changed nothing does not mark its session read.)"""
    return session.modified and not session.version and bool(session)
