"""Links, built once: the site's paths are the same on every request under one script root."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from flask import Flask, current_app, request
from werkzeug.exceptions import BadRequest
from werkzeug.routing import Map

LABEL = r"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
BUILT = 1024  # paths kept per process: an endpoint with the values a page passes it
HOST = re.compile(rf"(?:(?:{LABEL}\.)*{LABEL}|\[[0-9A-Fa-f:.]{{2,45}}\])(?::[0-9]{{1,5}})?")


def init_app(app: Flask) -> None:
    app.add_template_global(url_for, "url_for")
    app.context_processor(lambda: {"url_for": paths(app.url_map, request.script_root)})  # one lookup per page


def url_for(endpoint: str, **values: str | int) -> str:
    """The path of an endpoint, as Flask's url_for gives it. Built without the request's
    Host header, so that the error page for a malformed Host can still link home."""
    return built(current_app.url_map, request.script_root, endpoint, **values)


def paths(url_map: Map, root: str) -> Callable[..., str]:
    """url_for for one site under one script root: what a template calls, a dozen times a page."""
    return functools.partial(built, url_map, root)


@functools.lru_cache(maxsize=BUILT)
def built(url_map: Map, root: str, endpoint: str, **values: str | int) -> str:
    """A path, kept: a page's links are the same on every request, and Werkzeug's build
    (binding the map, converting the values) costs some 5-10 µs a link, a dozen a page
    (docs/performance.md, "What the kept parts save"). The query in one order."""
    return url_map.bind("localhost", script_name=root or "/").build(endpoint, dict(sorted(values.items())))


def public_base() -> str:
    """The site's address, for a link that leaves the site (to share, a QR code, a preview):
    PUBLIC_URL when it is set; else this request's scheme and host, if the host is a well-formed
    name of at most 253 characters (TTT_TRUSTED_HOSTS narrows that down to a list). A page
    that shows it varies by Host (`Vary`), unless PUBLIC_URL is set."""
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return configured.rstrip("/")
    host = request.host
    if len(host) > 253 + 6 or not HOST.fullmatch(host):
        raise BadRequest("This address's host name is not one the site can put in a link.")
    return f"{request.scheme}://{host}"


def varies_by_host(response):
    """Mark a response that names the request's host in a link (public_base), for caches."""
    if not current_app.config.get("PUBLIC_URL"):
        response.vary.add("Host")
    return response
