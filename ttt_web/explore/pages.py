"""Every explorer page of a position, rendered once per process and kept compressed. Such a
page depends only on its position and on whether its links lead back to the visitor's game,
so what strangers can make a process render is bounded by the 5,478 positions, twice: a
page costs some 5-130 ms to render the first time and well under a millisecond after. All
of them kept take some 26 MB (4.7 KB a page, compressed)."""

from __future__ import annotations

import zlib
from collections.abc import Callable

KEPT: dict[tuple[str, bool], bytes] = {}


def kept(key: tuple[str, bool], render: Callable[[], str]) -> bytes:
    """The page `key` names, rendered by `render` the first time it is asked for."""
    if key not in KEPT:
        KEPT[key] = zlib.compress(render().encode(), 6)
    return zlib.decompress(KEPT[key])
