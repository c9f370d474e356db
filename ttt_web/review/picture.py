"""A game's final board as a PNG, for link previews: chat apps show PNG, not SVG. Drawn
with the standard library only (zlib and struct): strokes are capsules and rings, shaded
by their distance to each pixel, so the edges are smooth."""

from __future__ import annotations

import functools
import math
import struct
import zlib

SIZE = 600  # pixels a side; the board is drawn on a 300-unit grid, twice over
SCALE = SIZE / 300
BACKGROUND = (246, 247, 251)
GRID, X_COLOUR, O_COLOUR, LINE = (74, 82, 99), (179, 38, 30), (11, 92, 173), (27, 31, 42)

Colour = tuple[int, int, int]


class Canvas:
    def __init__(self) -> None:
        self.rows = [bytearray(BACKGROUND * SIZE) for _ in range(SIZE)]

    def blend(self, x: int, y: int, colour: Colour, cover: float) -> None:
        if cover <= 0 or not (0 <= x < SIZE and 0 <= y < SIZE):
            return
        row, at = self.rows[y], 3 * x
        cover = min(cover, 1.0)
        mixed = zip(row[at : at + 3], colour, strict=True)
        row[at : at + 3] = bytes(round(old + (new - old) * cover) for old, new in mixed)

    def segment(self, a: tuple[float, float], b: tuple[float, float], width: float, colour: Colour) -> None:
        """A line from a to b (in units) with round ends."""
        (x1, y1), (x2, y2) = [(SCALE * x, SCALE * y) for x, y in (a, b)]
        r, dx, dy = SCALE * width / 2, x2 - x1, y2 - y1
        length2 = dx * dx + dy * dy
        for y in range(int(min(y1, y2) - r - 1), int(max(y1, y2) + r + 2)):
            for x in self._span(x1, y1, x2, y2, r, y):
                t = max(0.0, min(1.0, ((x - x1) * dx + (y - y1) * dy) / length2))
                self.blend(x, y, colour, r + 0.5 - math.hypot(x - x1 - t * dx, y - y1 - t * dy))

    @staticmethod
    def _span(x1: float, y1: float, x2: float, y2: float, r: float, y: int) -> range:
        """The columns of row `y` that may lie within `r` of the segment."""
        if abs(y2 - y1) < 1e-9:
            return range(int(min(x1, x2) - r - 1), int(max(x1, x2) + r + 2))
        t = max(0.0, min(1.0, (y - y1) / (y2 - y1)))
        centre = x1 + t * (x2 - x1)
        half = r * math.hypot(x2 - x1, y2 - y1) / abs(y2 - y1) + r + 1
        return range(int(centre - half), int(centre + half) + 2)

    def ring(self, centre: tuple[float, float], radius: float, width: float, colour: Colour) -> None:
        cx, cy = SCALE * centre[0], SCALE * centre[1]
        middle, half = SCALE * radius, SCALE * width / 2
        outer = middle + half + 1
        for y in range(int(cy - outer), int(cy + outer) + 2):
            dy = y - cy
            reach = math.sqrt(max(0.0, outer * outer - dy * dy))
            hole = math.sqrt(max(0.0, (middle - half - 1) ** 2 - dy * dy))
            for x in (*range(int(cx - reach), int(cx - hole) + 2), *range(int(cx + hole) - 1, int(cx + reach) + 2)):
                self.blend(x, y, colour, half + 0.5 - abs(math.hypot(x - cx, dy) - middle))

    def png(self) -> bytes:
        raw = b"".join(b"\0" + bytes(row) for row in self.rows)
        header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)  # 8-bit RGB
        return (
            b"\x89PNG\r\n\x1a\n"
            + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(raw, 6))
            + _chunk(b"IEND", b"")
        )


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


@functools.lru_cache(maxsize=256)
def png(moves: tuple[int, ...], line: tuple[int, ...]) -> bytes:
    """The board after `moves` (cells 0-8, X first), with the winning `line` (its cells) if
    there is one.
    Marks keep 16 units from their cell's edges, so nothing is clipped."""
    canvas = Canvas()
    for at in (100, 200):
        canvas.segment((at, 20), (at, 280), 6, GRID)
        canvas.segment((20, at), (280, at), 6, GRID)
    for n, cell in enumerate(moves):
        x, y = 50 + 100 * (cell % 3), 50 + 100 * (cell // 3)
        if n % 2 == 0:
            canvas.segment((x - 26, y - 26), (x + 26, y + 26), 12, X_COLOUR)
            canvas.segment((x + 26, y - 26), (x - 26, y + 26), 12, X_COLOUR)
        else:
            canvas.ring((x, y), 28, 12, O_COLOUR)
    if line:
        (a, b) = [(50 + 100 * (c % 3), 50 + 100 * (c // 3)) for c in (line[0], line[-1])]
        canvas.segment(a, b, 8, LINE)
    return canvas.png()
