"""Error pages in the site's style that reveal nothing of the internals."""

from __future__ import annotations

from flask import Flask, Response, make_response, render_template
from werkzeug.exceptions import (
    BadRequest,
    Conflict,
    HTTPException,
    InternalServerError,
    ServiceUnavailable,
    default_exceptions,
)

from ..store.base import STORE_ERRORS

RETRY_SECONDS = 5  # what a 503 tells the client to wait


class StoreUnavailable(ServiceUnavailable):
    description = "Your game is safe, but we cannot reach it right now. Please try again in a moment."

    def __init__(self) -> None:
        super().__init__(retry_after=RETRY_SECONDS)


class Malformed(BadRequest):
    """A request that breaks the rules of HTTP or of a header (400 with our page)."""


class StoreFull(ServiceUnavailable):
    description = (
        "So many games were played here today that there is no room for a new one right now. "
        "Please try again in a minute: games already under way are not affected."
    )

    def __init__(self) -> None:
        super().__init__(retry_after=60)


class SessionChanged(Conflict):
    description = (
        "Your game changed in another tab or click at the same moment, so this request was not "
        "saved. Nothing is lost: your game is as that other click left it."
    )


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(InternalServerError, server_error)


# Our words for what werkzeug would say in its own; a view's own description is kept.
OUR_WORDS = {
    400: "That request was not one the game understands. Nothing has changed.",
    403: "That is not allowed from here. Your game is unchanged.",
    404: "There is no page at this address. Perhaps the link was mistyped or cut short.",
    405: "That address does not take this kind of request. Nothing has changed.",
    413: "That request was too large. Nothing has changed.",
    500: "Something went wrong on our side. Your game is unchanged.",
}


def description(error: HTTPException) -> str:
    default = default_exceptions.get(error.code)
    if default is not None and error.description != default.description:
        return error.description  # a view's own words
    return OUR_WORDS.get(error.code, error.description)


def http_error(error: HTTPException):
    """The error's own page, with the error's headers (Allow, Retry-After)."""
    page = render_template("error.html", error=error, description=description(error))
    response = make_response(page, error.code)
    response.headers.extend(own_headers(error))
    return response


def own_headers(error: HTTPException) -> list[tuple[str, str]]:
    """The error's headers (Allow, Retry-After), without werkzeug's Content-Type."""
    return [(name, value) for name, value in error.get_headers() if name.lower() != "content-type"]


def replace_with(response: Response, error: HTTPException) -> None:
    """Make a response the view already gave into the error's page: for a failure found only
    when the session is saved, after the view has answered."""
    page = http_error(error)
    response.status_code = page.status_code
    response.set_data(page.get_data())
    response.headers.pop("Location", None)
    for name, value in own_headers(error):
        response.headers[name] = value


def server_error(error: InternalServerError):
    """A store that is down answers 503 (the move was not saved); anything else, 500."""
    if isinstance(error.original_exception, STORE_ERRORS):
        return http_error(StoreUnavailable())
    return http_error(InternalServerError())
