"""Limits per client address (Flask-Limiter): on new sessions, so that one client cannot fill
the session store, and on new rooms; and a limit on new sessions for the whole site, so that
many addresses together cannot either. Players who already have a session are never limited
otherwise, so a school behind one address keeps playing however many games it starts.
Retry-After is sent on a 429 only. An IPv6 client counts by its /64 network (client_network):
one subscriber gets a whole /64, so counting its addresses one by one would count nothing.

One limiter for the process (Flask-Limiter's app-factory pattern), so that a view declares
its own limit with `@own_limit`; each app's `init_app` gives it that app's storage. A
request that no limit can apply to (a page; a player with a session, on a view with no limit
of its own) runs none of Flask-Limiter's hooks."""

from __future__ import annotations

import functools
import ipaddress
import time
from collections.abc import Callable

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
SITE_MESSAGE = (
    "So many new players are arriving right now that we cannot start a game for you. Please try "
    "again in a minute: games already under way are not affected."
)
SITE = "whole-site"  # the key of the limit for the whole site
KEY_PREFIX = "ttt:limit"
ROOM_MESSAGE = "Too many new rooms from your network in a short time. Please wait a minute and try again."
EXEMPT = "ttt.exempt"  # in the environ: whether no limit applies to this request (exempt)
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


def exempt() -> bool:
    """True for a request no limit applies to: one that cannot change its session, or one
    with a stored session (which the new-session limits never count) on a view without a
    limit of its own. Decided once per request, when first asked (by a hook, so once the
    session is read and the view known), and kept in its environ for the other hooks."""
    asked = request._get_current_object()  # the request itself, not its proxy: read thrice
    decided = asked.environ.get(EXEMPT)
    if decided is None:
        decided = asked.environ[EXEMPT] = not changes_session(asked) or (
            has_session() and current_app.view_functions.get(asked.endpoint) not in OWN_LIMITS
        )
    return decided


def has_session() -> bool:
    """True for a request the new-session limits do not count: one with a stored session
    (or whose store could not be read)."""
    environ = request.environ
    return STORED in environ or STORE_ERROR in environ


def creates_session(_response: Response) -> bool:
    """True when this request is about to store a session that did not exist. (Asked in
    this order, so that a request that changed nothing does not mark its session read.)"""
    written = getattr(session, "written", False)  # a store that failed leaves a NullSession
    return (session.modified or written) and not getattr(session, "read_version", 0) and bool(session)


def never(_response: Response) -> bool:
    return False


# Flask-Limiter only tests the new-session limits before the view (a newcomer past one costs
# nothing); a new session is counted by count_new_session, in one atomic step with the check.
limiter = Limiter(
    client_network,
    application_limits=[
        ApplicationLimit(
            lambda: current_app.config["NEW_SESSION_LIMIT"],
            error_message=MESSAGE,
            exempt_when=has_session,
            deduct_when=never,
        ),
        ApplicationLimit(
            lambda: current_app.config["NEW_SESSION_SITE_LIMIT"],
            key_function=lambda: SITE,
            error_message=SITE_MESSAGE,
            exempt_when=has_session,
            deduct_when=never,
        ),
    ],
    key_prefix=KEY_PREFIX,
    headers_enabled=False,  # Retry-After on a 429 only (below), never on a page or a 503
    swallow_errors=True,  # a limiter whose store is down lets players through
)
limiter.request_filter(exempt)
OWN_LIMITS: set[Callable] = set()  # the views that declared a limit with own_limit


def own_limit(value: Callable[[], str], error_message: str) -> Callable[[Callable], Callable]:
    """A view's own limit per address (Flask-Limiter's `limit`), for players with a session too."""

    def decorate(view: Callable) -> Callable:
        limited = limiter.limit(value, error_message=error_message)(view)
        OWN_LIMITS.add(limited)
        return limited

    return decorate


def init_app(app: Flask) -> None:
    app.config.setdefault("RATELIMIT_STORAGE_URI", storage_uri(app))
    app.config.setdefault("RATELIMIT_STORAGE_OPTIONS", storage_options(app))
    request_hooks = (app.before_request_funcs, app.after_request_funcs, app.teardown_request_funcs)
    ours = {id(hook) for hooks in request_hooks for hook in hooks.get(None, [])}
    limiter.init_app(app)  # adds its hooks (its check, its headers, its cleanup): the new ones
    for hooks in request_hooks:
        hooks[None] = [hook if id(hook) in ours else only_when_limited(hook) for hook in hooks.get(None, [])]
    counted = [(item, client_network, MESSAGE) for item in parse_many(app.config["NEW_SESSION_LIMIT"])]
    counted += [(item, lambda: SITE, SITE_MESSAGE) for item in parse_many(app.config["NEW_SESSION_SITE_LIMIT"])]
    app.after_request(functools.partial(count_new_session, limiter, counted))

    @app.errorhandler(429)
    def too_many(error):
        response = http_error(error)
        if "Retry-After" in response.headers:  # the error's own (a refused new session)
            return response
        current = limiter.current_limit
        response.headers["Retry-After"] = str(max(1, int(current.reset_at - time.time())) if current else 60)
        return response


def only_when_limited(hook: Callable) -> Callable:
    """Flask-Limiter's hook (its check, its headers, its cleanup), run only for a request that
    a limit may apply to: for the others, its filter decides nothing is to be done, after a
    tenth of a move's time spent on its bookkeeping."""

    def run(*args):  # before a request: none; after it: the response; at teardown: the error
        if not exempt():
            return hook(*args)
        return args[0] if args else None

    return run


def count_new_session(limiter: Limiter, counted: list[tuple[RateLimitItem, Callable, str]], response: Response):
    """Count a session about to be stored for the first time, and refuse it (429, nothing
    stored) if that takes its address, or the site, past a limit. The count and the check
    are one atomic step in the limiter's store: a test before the view and a count after it
    let newcomers arriving together all through (24 through a limit of 20 on Redis). A
    session the view has written already (with a room) is counted, not refused."""
    if exempt() or not creates_session(response):  # exempt: it cannot change its session, or has one stored
        return response
    try:
        past = [(item, key, words) for item, key, words in counted if not hit(limiter, item, key())]
        resets = [
            limiter.limiter.get_window_stats(item, KEY_PREFIX, key(), "global").reset_time for item, key, _ in past
        ]
    except Exception as exc:  # as swallow_errors: a limiter whose store is down lets players through
        current_app.logger.warning("could not count a new session: %s", exc)
        return response
    if past and not session.written:
        session.modified = False  # nothing stored, no cookie
        retry_after = max(1, int(max(resets) - time.time()))
        replace_with(response, TooManyRequests(past[0][2], retry_after=retry_after))
    return response


def hit(limiter: Limiter, item: RateLimitItem, key: str) -> bool:
    """One more under Flask-Limiter's own key for an application limit; False past it."""
    return limiter.limiter.hit(item, KEY_PREFIX, key, "global")


def reset_at(limiter: Limiter, item: RateLimitItem, key: str) -> float:
    return limiter.limiter.get_window_stats(item, KEY_PREFIX, key, "global").reset_time


def storage_uri(app: Flask) -> str:
    """The store's Redis (limits' redis+cluster:// for a cluster), or each process's memory."""
    store = app.extensions["ttt.store"]
    if getattr(store, "cluster", False):
        return app.config["REDIS_URL"].replace("redis://", "redis+cluster://", 1)
    return app.config.get("REDIS_URL") or "memory://"


def storage_options(app: Flask) -> dict:
    """On one Redis, the limiter shares the session store's pool: one bound on connections.
    On a cluster, limits makes its own RedisCluster client, with the same bound per node."""
    store = app.extensions["ttt.store"]
    if getattr(store, "cluster", False):
        return {"max_connections": app.config["REDIS_CONNECTIONS"], "socket_timeout": 2, "socket_connect_timeout": 2}
    return {"connection_pool": store.client.connection_pool} if app.config.get("REDIS_URL") else {}
