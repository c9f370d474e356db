"""Explorer pages of a position, rendered once per process and kept compressed, the most
recently asked first. Such a page depends only on its position and on whether its links lead
back to the visitor's game: 5,478 positions, twice. A page costs some 5-130 ms to render the
first time and well under a millisecond after; all of them would take some 50 MB
compressed (about 4.7 KB a page), so a process keeps the last KEPT_BYTES of them
(cachetools' LRU cache, sized by bytes): docs/performance.md, "Memory"."""

from __future__ import annotations

import zlib
from collections.abc import Callable

from cachetools import LRUCache

KEPT_BYTES = 16 * 2**20
KEPT: LRUCache[tuple[str, bool], bytes] = LRUCache(maxsize=KEPT_BYTES, getsizeof=len)


def kept(key: tuple[str, bool], render: Callable[[], str]) -> bytes:
    """The page `key` names, rendered by `render` the first time it is asked for (or again,
    once it is no longer kept)."""
    page = KEPT.get(key)
    if page is None:
        page = KEPT[key] = zlib.compress(render().encode(), 6)
    return zlib.decompress(page)
