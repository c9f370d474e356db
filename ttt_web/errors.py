"""Error pages in the site's style that reveal nothing of the internals."""

from __future__ import annotations

from flask import Flask, make_response, render_template
from werkzeug.exceptions import HTTPException, InternalServerError

from .sessions import STORE_ERRORS, StoreUnavailable


def init_app(app: Flask) -> None:
    app.register_error_handler(HTTPException, http_error)
    app.register_error_handler(InternalServerError, server_error)


def http_error(error: HTTPException):
    """The error's own page, with the error's headers (Allow, Retry-After)."""
    response = make_response(render_template("error.html", error=error), error.code)
    response.headers.extend((name, value) for name, value in error.get_headers() if name.lower() != "content-type")
    return response


def server_error(error: InternalServerError):
    """A store that is down answers 503 (the move was not saved); anything else, 500."""
    if isinstance(error.original_exception, STORE_ERRORS):
        return http_error(StoreUnavailable())
    return http_error(InternalServerError())
