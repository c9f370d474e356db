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


def lost_page(status: int, heading: str, said: str, links: list[tuple[str, str]]) -> Response:
    """An address that holds nothing (a trace's step past its last, a board no game reaches):
    what is wrong, and the links that help from there (text, address)."""
    page = render_template("lost.html", status=status, heading=heading, description=said, links=links)
    return Response(page, status=status)


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
    app.add_template_filter(headline, "headline")
    app.add_template_filter(first_sentence, "first_sentence")


# Our words for what werkzeug would say in its own; a view's own description is kept.
OUR_WORDS: dict[int | None, str] = {
    400: "That request was not one the game understands. Nothing has changed.",
    403: "That is not allowed from here. Your game is unchanged.",
    404: "There is no page at this address. Perhaps the link was mistyped or cut short.",
    405: "That address does not take this kind of request. Nothing has changed.",
    413: "That request was too large. Nothing has changed.",
    500: "Something went wrong on our side. Your game is unchanged.",
}


# What an error page's title and heading call the error, when the view gave no words of its own.
HEADINGS: dict[int | None, str] = {
    400: "Request not understood",
    403: "Not allowed",
    404: "Page not found",
    405: "Wrong kind of request",
    409: "Changed meanwhile",
    413: "Request too large",
    429: "Too many requests",
    500: "Something went wrong",
    503: "Try again in a moment",
}


SHORT_HEADING = 60  # characters: a longer first clause is said below the heading only


def headline(message: str) -> str:
    """A message's first clause, to name the error in a title or heading: "That link is not
    from your game. Here is..." -> "That link is not from your game"."""
    for end in (". ", ": "):
        message = message.split(end, 1)[0]
    return message.removesuffix(".")


def error_title(message: str, status: int) -> str:
    """An error page's title, naming the error: "That move link is not valid (error 400)"."""
    return f"{headline(message)} (error {status})"


def first_sentence(message: str) -> tuple[str, str]:
    """A message's first sentence, and the rest: "That link is not from your game.", "Here is..."."""
    first, _, rest = message.partition(". ")
    return (f"{first}." if rest else first), rest


def heading(error: HTTPException) -> str:
    """The error named: by the view's own words if they begin with a short clause, else by its kind."""
    own = headline(description(error)) if description(error) != OUR_WORDS.get(error.code) else ""
    return own if 0 < len(own) <= SHORT_HEADING else HEADINGS.get(error.code, error.name)


def description(error: HTTPException) -> str:
    default = default_exceptions.get(error.code) if error.code is not None else None
    if default is not None and error.description != default.description:
        return error.description or ""  # a view's own words
    return OUR_WORDS.get(error.code, error.description or "")


def http_error(error: HTTPException):
    """The error's own page, with the error's headers (Allow, Retry-After)."""
    page = render_template("error.html", error=error, heading=heading(error), description=description(error))
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
