"""The browser's own preferences, each in a cookie of its own, so that turning them on or off
stores nothing: teach mode, and whether a waiting room's page refreshes itself."""

from __future__ import annotations

from flask import current_app, request
from werkzeug.wrappers import Response  # Flask's and redirect()'s alike


def teach_on() -> bool:
    return cookie(current_app.config["TEACH_COOKIE_NAME"]) == "1"


def toggle_teach(response: Response) -> None:
    _toggle_cookie(response, current_app.config["TEACH_COOKIE_NAME"])


def auto_refresh_on() -> bool:
    """Whether a waiting player's page refreshes itself: on, unless the browser turned it off."""
    return cookie(current_app.config["REFRESH_COOKIE_NAME"]) != "1"


def toggle_auto_refresh(response: Response) -> None:
    _toggle_cookie(response, current_app.config["REFRESH_COOKIE_NAME"])


def cookie(name: str) -> str | None:
    """The request's cookie `name`, or None. (Werkzeug's MultiDict.get raises and catches a
    KeyError for a missing key: on a page without the cookie, that was most of teach_on's time.)"""
    cookies = request.cookies
    return cookies[name] if name in cookies else None  # noqa: SIM401 - get() raises on a miss


def _toggle_cookie(response: Response, name: str) -> None:
    """A browser preference, in a cookie of its own: "1", or no cookie at all."""
    options = {"secure": current_app.config["HTTPS"], "httponly": True, "samesite": "Lax"}
    if cookie(name) == "1":
        response.delete_cookie(name, **options)
    else:
        response.set_cookie(name, "1", max_age=current_app.permanent_session_lifetime, **options)
