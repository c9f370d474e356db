"""Error pages in the site's style that reveal nothing of the internals."""

from __future__ import annotations

from flask import Flask, make_response, render_template
from werkzeug.exceptions import HTTPException, InternalServerError, default_exceptions

from .sessions import STORE_ERRORS, StoreUnavailable


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
    response.headers.extend((name, value) for name, value in error.get_headers() if name.lower() != "content-type")
    return response


def server_error(error: InternalServerError):
    """A store that is down answers 503 (the move was not saved); anything else, 500."""
    if isinstance(error.original_exception, STORE_ERRORS):
        return http_error(StoreUnavailable())
    return http_error(InternalServerError())
