"""Response headers and the same-origin rule for requests that change state."""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import Flask, Response, abort, current_app, request

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


def init_app(app: Flask) -> None:
    app.before_request(refuse_cross_site_writes)
    app.before_request(refuse_truncated_bodies)
    app.after_request(set_headers)


def refuse_cross_site_writes() -> None:
    """403 for a POST that another site's page sent (by Sec-Fetch-Site, else by Origin)."""
    if request.method in SAFE_METHODS:
        return
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        abort(403)
    origin = request.headers.get("Origin")
    if origin is not None and urlsplit(origin).netloc != request.host:
        abort(403)


def refuse_truncated_bodies() -> None:
    """400 for a body shorter than its Content-Length: a client that hung up half-way has
    not said what it meant, so nothing is done. (The server hands the app what arrived.)"""
    expected = request.content_length if request.method not in SAFE_METHODS else None
    if expected and len(request.get_data(cache=True)) < expected:
        abort(400)


def set_headers(response: Response) -> Response:
    headers = HTTPS_HEADERS if current_app.config["HTTPS"] else HEADERS
    present = {name.lower() for name, _ in response.headers}  # a view's own header wins
    response.headers.extend((name, value) for name, value in headers.items() if name.lower() not in present)
    if request.endpoint != "static" and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "no-store"  # unless a view says otherwise (a review)
    return response
