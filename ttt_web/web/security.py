"""Response headers and the same-origin rule for requests that change state."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from urllib.parse import urlsplit

from flask import Flask, abort, request

from .errors import Malformed

CSP = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "object-src 'none'",
        "base-uri 'none'",
    ]
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), interest-cohort=()",
}
HTTPS_HEADERS = {**HEADERS, "Strict-Transport-Security": "max-age=31536000"}
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
OWN_SITE = ("same-origin", "none")  # Sec-Fetch-Site of our own pages, and of an address typed or bookmarked


def init_app(app: Flask) -> None:
    headers = HTTPS_HEADERS if app.config["HTTPS"] else HEADERS
    app.wsgi_app = Guard(app.wsgi_app, [*headers.items(), ("Cache-Control", "no-store")])  # type: ignore[method-assign]  # Flask's documented middleware hook
    app.before_request(refuse_bad_writes)


def refuse_bad_writes() -> None:
    """For a request that may change something (a POST...; not GET, HEAD or OPTIONS): 403 if
    another site's page sent it, 400 if its body is cut short. One hook for both: Flask's
    call of a hook costs about what either check does."""
    if request.method not in SAFE_METHODS:
        refuse_cross_site_writes()
        refuse_truncated_bodies()


def refuse_cross_site_writes() -> None:
    """403 for a POST that another site's page sent (by Sec-Fetch-Site, else by Origin)."""
    if from_another_site():
        abort(403)
    origin = request.headers.get("Origin")
    if origin is not None and url_host(origin) != request.host:
        abort(403)


def from_another_site() -> bool:
    """Whether the browser says that another site (another origin, even a sibling subdomain)
    made this request. A browser that sends no Sec-Fetch-Site is taken at its word."""
    site = request.headers.get("Sec-Fetch-Site")
    return site is not None and site not in OWN_SITE


def own_navigation() -> bool:
    """Whether this is the player's browser following a link of ours in its own window, or an
    address typed or bookmarked: not another site's page, and not an image, a frame or a
    script's fetch. Headers an older browser does not send are not held against it."""
    mode, dest = request.headers.get("Sec-Fetch-Mode"), request.headers.get("Sec-Fetch-Dest")
    return not from_another_site() and mode in (None, "navigate") and dest in (None, "document")


def url_host(value: str) -> str:
    """The host (and port) of a URL a client sent; Malformed (400) if it is not a URL."""
    try:
        return urlsplit(value).netloc
    except ValueError as exc:  # "http://[::1": an unclosed IPv6 address
        raise Malformed() from exc


class Body:
    """The server's input stream, with its failures to read as Malformed."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def read(self, *size: int) -> bytes:
        return self._call(self.stream.read, *size)

    def readline(self, *size: int) -> bytes:
        return self._call(self.stream.readline, *size)

    def readlines(self, *hint: int) -> list[bytes]:
        return self._call(self.stream.readlines, *hint)

    def __iter__(self):
        return iter(self.readline, b"")

    @staticmethod
    def _call(method: Callable, *args):
        try:
            return method(*args)
        except Malformed:
            raise
        except Exception as exc:  # gunicorn's InvalidChunkSize, NoMoreData...: the server's own types
            raise Malformed() from exc


def refuse_truncated_bodies() -> None:
    """400 for a body shorter than its Content-Length: a client that hung up half-way has
    not said what it meant, so nothing is done. (The server hands the app what arrived.)"""
    expected = request.content_length
    if expected and len(request.get_data(cache=True)) < expected:
        abort(400)


class Guard:
    """WSGI middleware, the two guards of ours that must wrap the whole app, in one layer:

    - the request's body is read through `Body`: a body that breaks its own framing (a chunk
      size that is no number, chunks cut short) makes the server's input stream raise its
      own exceptions, which no view knows; they become Malformed, answered 400 like any
      other malformed input;
    - the security headers go on every response, and Cache-Control: no-store on every
      response that says nothing of caching (a review, a static file say otherwise). A
      response's own header wins. Built once, as plain (name, value) pairs: on every
      response, this is a list join, not a header object's checks."""

    def __init__(self, app: Callable, headers: list[tuple[str, str]]) -> None:
        self.app = app
        self.headers = [(name.lower(), (name, value)) for name, value in headers]

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        if "wsgi.input" in environ:
            environ["wsgi.input"] = Body(environ["wsgi.input"])

        def with_headers(status: str, headers: list[tuple[str, str]], *exc_info):
            present = {name.lower() for name, _ in headers}
            added = [header for name, header in self.headers if name not in present]
            return start_response(status, headers + added, *exc_info)

        return self.app(environ, with_headers)
