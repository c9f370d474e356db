"""How long shared caches may keep a page that depends on its URL alone (a review, a retry,
an explorer page, a picture): such a page never changes."""

from typing import TypeVar

from werkzeug.sansio.response import Response

PUBLIC_FOR_A_DAY = "public, max-age=86400"
R = TypeVar("R", bound=Response)


def public(response: R) -> R:
    """`response`, for shared caches to keep a day."""
    response.headers["Cache-Control"] = PUBLIC_FOR_A_DAY
    return response
