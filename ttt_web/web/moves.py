"""The move a link names: `/move?n=&row=&col=` on the game page and in rooms alike."""

from __future__ import annotations

from collections.abc import Callable

from flask import request
from werkzeug.exceptions import MethodNotAllowed

from ..core.position import cell_of
from .security import from_another_site, own_navigation

NOT_FROM_HERE = "A move can only be made by following its link on the game's own page. Nothing has changed."
SCRIPT_HEADER = "X-Move"  # set to "followed" by static/play.js, which follows a move link with fetch
PREFETCH_HEADERS = {"Sec-Purpose": "prefetch", "Purpose": "prefetch", "X-Moz": "prefetch", "X-Purpose": "preview"}


def requested_move(refuse: Callable[[str, int], Exception]) -> tuple[int, int]:
    """The move number and the cell (0-8) that a move link names. A link checker's HEAD, a
    prefetch, a request that another site's page made (an image, a frame, a link) or a
    malformed link must not play: `refuse(message, status)` is raised."""
    refuse_unless_followed(refuse)
    values = [request.args.get(name, "") for name in ("n", "row", "col")]
    if not all(value.isascii() and value.isdigit() and len(value) <= 3 for value in values):
        raise refuse("That move link is not valid.", 400)
    number, row, col = map(int, values)
    if not (0 <= row <= 2 and 0 <= col <= 2):
        raise refuse("There is no such cell on the board.", 400)
    return number, cell_of((row, col))


def refuse_unless_followed(refuse: Callable[[str, int], Exception]) -> None:
    """Refuse a move link that the player did not follow: a HEAD, a prefetch, or a request
    that another site's page (or a script, an image, a frame) made."""
    if request.method == "HEAD":
        raise MethodNotAllowed(["GET"], "A move is played by following its link.")
    if any(request.headers.get(h, "").lower().startswith(v) for h, v in PREFETCH_HEADERS.items()):
        raise refuse("Moves are not prefetched.", 403)
    if not (own_navigation() or followed_by_our_script()):
        raise refuse(NOT_FROM_HERE, 403)


def followed_by_our_script() -> bool:
    """The game page's own script following a move link: a fetch that only a page of our origin
    can make (mode same-origin), carrying the header that script sets. Any other script's fetch
    of a move link does not play."""
    headers = request.headers
    same_origin_only = headers.get("Sec-Fetch-Mode") == "same-origin" and headers.get("Sec-Fetch-Dest") == "empty"
    return not from_another_site() and same_origin_only and headers.get(SCRIPT_HEADER) == "followed"
