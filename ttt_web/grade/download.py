"""/learn/grader.pyz: the grader as one file, for a student with no clone of this project."""

from __future__ import annotations

from flask import Blueprint, Response

from ..web.urls import public_base
from .bundle import for_site

bp = Blueprint("grade", __name__)


@bp.get("/learn/grader.pyz")
def grader() -> Response:
    site = public_base()  # where its explore links point
    headers = {"Content-Disposition": "attachment; filename=grader.pyz", "Cache-Control": "private, max-age=3600"}
    return Response(for_site(site), mimetype="application/zip", headers=headers)
