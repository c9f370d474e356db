"""The colours: the system's, light or dark, a browser preference in a cookie of its own. Every
page names the same stylesheet, /theme.css, whatever the cookie says, so that a page cached for
all stays one page for all; that small stylesheet, private to the browser, says the choice, to
the eye and to screen readers (static/theme.js marks the chosen button aria-pressed)."""

from __future__ import annotations

import re

from flask import Blueprint, Response, abort, current_app, redirect, request
from werkzeug.wrappers import Response as BaseResponse

from .urls import url_for

THEMES = ("system", "light", "dark")
LOCAL_PATH = re.compile(r"/(?![/\\])[A-Za-z0-9/_.~%?&=+,:;@!*'()-]*")  # a path of this site, nothing else

bp = Blueprint("theme", __name__)


def chosen() -> str:
    value = request.cookies.get(current_app.config["THEME_COOKIE_NAME"])
    return value if value in THEMES else "system"


@bp.get("/theme.css")
def stylesheet() -> Response:
    theme = chosen()
    css = "" if theme == "system" else f":root {{ color-scheme: {theme}; }}\n"
    css += f'#theme button[value="{theme}"] {{ font-weight: 800; border-width: 3px; }}\n'
    # Said to screen readers too: by the check's alternative text, and by static/theme.js
    # (aria-pressed), which reads the choice here, since the page itself is the same for all.
    css += f'#theme button[value="{theme}"]::after {{ content: " \\2713" / ", chosen"; }}\n'
    css += f":root {{ --theme: {theme}; }}\n"
    response = Response(css, mimetype="text/css")
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


@bp.post("/theme")
def choose() -> BaseResponse:
    """Remember the theme chosen, and go back to the page the switch was on."""
    theme = request.form.get("theme")
    if theme not in THEMES:
        abort(400)
    back = request.form.get("back", "")
    response = redirect(back if LOCAL_PATH.fullmatch(back) else url_for("play.index"), 303)
    name = current_app.config["THEME_COOKIE_NAME"]
    options = {"secure": current_app.config["HTTPS"], "httponly": True, "samesite": "Lax"}
    if theme == "system":
        response.delete_cookie(name, **options)
    else:
        response.set_cookie(name, theme, max_age=current_app.permanent_session_lifetime, **options)
    return response
