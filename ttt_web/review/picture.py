"""A game's final board as a PNG, for link previews: chat apps show PNG, not SVG. Drawn
with the standard library only (zlib and struct): strokes are capsules and rings, shaded
by their distance to each pixel, so the edges are smooth.

Drawing a board stroke by stroke takes 150-550 ms of pure Python, so it is done once per
process, at start-up, for the parts (the grid, each mark, each winning line); a picture is
those parts laid side by side (under 1 ms) and compressed off the event loop, and the last
PICTURES pictures are kept. Under the board, a band says who played and how it ended
(caption.py): a picture is kept by what it shows, the board and those words."""

from __future__ import annotations

import functools
import math
import struct
import zlib
from dataclasses import dataclass

import gevent
from gevent import monkey

from . import caption

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
        header = struct.pack(">IIBBBBB", SIZE, len(self.rows), 8, 2, 0, 0, 0)  # 8-bit RGB
        return b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + _chunk(b"IDAT", deflate(raw)) + _chunk(b"IEND", b"")


def deflate(raw: bytes) -> bytes:
    """zlib lets go of the GIL while it compresses (some 5 ms a picture)."""
    return off_the_loop(zlib.compress, raw, 6)


def off_the_loop(work, *args):
    """In a gevent worker, a thread of the hub's pool does the work, and the worker's other
    connections go on meanwhile (for pure Python, between the interpreter's switches)."""
    if monkey.is_module_patched("threading"):
        return gevent.get_hub().threadpool.apply(work, args)
    return work(*args)


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def draw(marks: str, line: tuple[int, ...]) -> Canvas:
    """The board `marks` (nine characters, "X", "O" or "." row by row), with the winning
    `line` (its cells) if there is one, drawn stroke by stroke: the reference that `png`
    composes from parts. Marks keep 16 units from their cell's edges, so nothing is clipped."""
    canvas = Canvas()
    _grid(canvas)
    for cell, mark in enumerate(marks):
        if mark != ".":
            _mark(canvas, mark, *_centre(cell))
    if line:
        canvas.segment(_centre(line[0]), _centre(line[-1]), 8, LINE)
    return canvas


def _centre(cell: int) -> tuple[int, int]:
    return 50 + 100 * (cell % 3), 50 + 100 * (cell // 3)


def _grid(canvas: Canvas) -> None:
    for at in (100, 200):
        canvas.segment((at, 20), (at, 280), 6, GRID)
        canvas.segment((20, at), (280, at), 6, GRID)


def _mark(canvas: Canvas, mark: str, x: int, y: int) -> None:
    if mark == "X":
        canvas.segment((x - 26, y - 26), (x + 26, y + 26), 12, X_COLOUR)
        canvas.segment((x + 26, y - 26), (x - 26, y + 26), 12, X_COLOUR)
    else:
        canvas.ring((x, y), 28, 12, O_COLOUR)


class Coverage(Canvas):
    """A canvas that keeps which pixels a stroke touches instead of painting them."""

    def __init__(self) -> None:  # no pixels of its own
        self.covers: dict[int, dict[int, float]] = {}

    def blend(self, x: int, y: int, colour: Colour, cover: float) -> None:
        if cover > 0 and 0 <= x < SIZE and 0 <= y < SIZE:
            self.covers.setdefault(y, {})[x] = cover

    def paint(self, canvas: Canvas, colour: Colour) -> Patch:
        """Paint the stroke on `canvas`; the rows it changed, as a patch."""
        for y, covers in self.covers.items():
            for x, cover in covers.items():
                canvas.blend(x, y, colour, cover)
        return tuple(
            (y, min(xs), bytes(canvas.rows[y][3 * min(xs) : 3 * max(xs) + 3])) for y, xs in sorted(self.covers.items())
        )


Patch = tuple[tuple[int, int, bytes], ...]  # per row: y, the first x, the pixels from there


@dataclass(frozen=True)
class Parts:
    """What every picture is made of, drawn once per process: the empty grid, a cell's box
    with each mark, and each winning line as the winner's three marks leave it. (A winning
    line touches only its own cells' boxes and the grid: its pixels depend on nothing else.)"""

    grid: tuple[bytes, ...]
    marks: dict[str, Patch]  # the box of cell 0; each cell's box is the same pixels, shifted
    lines: dict[tuple[tuple[int, ...], str], Patch]

    @classmethod
    def draw(cls) -> Parts:
        canvas = Canvas()
        _grid(canvas)
        grid = tuple(bytes(row) for row in canvas.rows)
        marks = {}
        for mark in "XO":
            box = Canvas()
            _mark(box, mark, 50, 50)
            marks[mark] = tuple((y, BOX[0], bytes(box.rows[y][3 * BOX[0] : 3 * BOX[1]])) for y in range(*BOX))
        parts = cls(grid, marks, {})
        for line in LINES:
            stroke = Coverage()
            stroke.segment(_centre(line[0]), _centre(line[-1]), 8, LINE)
            for mark in "XO":
                won = parts.compose("".join(mark if cell in line else "." for cell in range(9)), ())
                parts.lines[line, mark] = stroke.paint(won, LINE)
        return parts

    def compose(self, marks: str, line: tuple[int, ...]) -> Canvas:
        canvas = Canvas.__new__(Canvas)
        canvas.rows = [bytearray(row) for row in self.grid]
        for cell, mark in enumerate(marks):
            if mark != ".":
                _lay(canvas, self.marks[mark], CELL * (cell % 3), CELL * (cell // 3))
        if line:
            _lay(canvas, self.lines[line, marks[line[0]]], 0, 0)
        return canvas


def _lay(canvas: Canvas, patch: Patch, left: int, top: int) -> None:
    for y, x, pixels in patch:
        start = 3 * (left + x)
        canvas.rows[top + y][start : start + len(pixels)] = pixels


CELL = SIZE // 3  # pixels a cell
BOX = (int(12 * SCALE), int(88 * SCALE))  # the pixels of a cell (from its corner) a mark may touch
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
PICTURES = 1024  # encoded pictures kept per process (some 10 KB each); 5,478 boards in all


@functools.cache
def parts() -> Parts:
    """Drawn at start-up (create_app calls it), before any request waits on it; the
    caption's common letters too."""
    caption.warm()
    return Parts.draw()


HEIGHT = SIZE + caption.BAND  # pixels: the board, then its caption
# Each colour channel of the caption's pixels, by coverage: from the background to LINE.
INK = tuple(
    bytes(round(back + (ink - back) * c / 255) for c in range(256)) for back, ink in zip(BACKGROUND, LINE, strict=True)
)


@functools.lru_cache(maxsize=PICTURES)
def png(marks: str, line: tuple[int, ...], words: tuple[str, ...] = ()) -> bytes:
    """The board `marks` with its winning `line` (cells, ascending; () if none), and the
    caption's lines `words` under it, as a PNG."""
    canvas = parts().compose(marks, line)
    band = off_the_loop(caption.band, words, SIZE)  # a letter never drawn before: some 3 ms
    canvas.rows += [_inked(coverage) for coverage in band]
    return canvas.png()


def _inked(coverage: bytearray) -> bytearray:
    pixels = bytearray(3 * len(coverage))
    for channel, table in enumerate(INK):
        pixels[channel::3] = coverage.translate(table)
    return pixels
