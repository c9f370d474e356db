"""Links, built once: the site's paths are the same on every request under one script root."""

from __future__ import annotations

import functools

from flask import Flask, current_app, request
from werkzeug.routing import Map


def init_app(app: Flask) -> None:
    app.add_template_global(url_for, "url_for")


def url_for(endpoint: str, **values: str) -> str:
    """The path of an endpoint, as Flask's url_for gives it, remembered. Built without the
    request's Host header, so that the error page for a malformed Host can still link home."""
    return _cached(current_app.url_map, request.script_root, endpoint, tuple(sorted(values.items())))


@functools.lru_cache(maxsize=256)
def _cached(url_map: Map, root: str, endpoint: str, values: tuple) -> str:
    return url_map.bind("localhost", script_name=root or "/").build(endpoint, dict(values))
