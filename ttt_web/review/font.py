"""Text for the review's picture, drawn with the standard library only: the outlines of a
TrueType font (DejaVu Sans, Debian's fonts-dejavu-core) read from its file and filled
pixel by pixel. Each glyph is filled once per process and kept; a line of text is its
glyphs laid side by side, as coverage (0-255) per pixel. Without the font, or for a
character it lacks, there is no text: `Font.load` gives None, `Font.draws` says False."""

from __future__ import annotations

import functools
import itertools
import struct
import threading
from bisect import bisect_left
from collections import OrderedDict
from dataclasses import dataclass
from pathlib import Path

PLACES = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf")
SUBSAMPLES = 4  # rows sampled per pixel row, for smooth edges
CURVE_STEPS = 6  # straight pieces per quadratic curve
GLYPHS = 512  # glyphs kept filled, per process

Point = tuple[float, float]
Edge = tuple[float, float, float, float]  # x0, y0, x1, y1 in font units, y up


@dataclass(frozen=True)
class Glyph:
    advance: int  # pixels to the next glyph
    left: int  # pixels from the pen to the first column drawn
    top: int  # pixels from the line's top to the first row drawn
    rows: tuple[bytes, ...]  # coverage, 0-255 a pixel


class Font:
    def __init__(self, data: bytes) -> None:
        self.data = data
        tables = {}
        for n in range(struct.unpack_from(">H", data, 4)[0]):
            tag, _, offset, _ = struct.unpack_from(">4sIII", data, 12 + 16 * n)
            tables[tag.decode("latin-1")] = offset
        self.tables = tables
        self.units = self._u16("head", 18)
        self.long_loca = struct.unpack_from(">h", data, tables["head"] + 50)[0] == 1
        self.ascent = struct.unpack_from(">h", data, tables["hhea"] + 4)[0]
        self.metrics = self._u16("hhea", 34)
        self.segments = self._segments()
        self.kept: OrderedDict[tuple[str, int], Glyph] = OrderedDict()  # the last GLYPHS filled
        self.keeping = threading.Lock()  # captions are drawn in the hub's thread pool

    @classmethod
    @functools.cache
    def load(cls) -> Font | None:
        path = next((Path(p) for p in PLACES if Path(p).exists()), None)
        return cls(path.read_bytes()) if path else None

    def _u16(self, table: str, at: int) -> int:
        return struct.unpack_from(">H", self.data, self.tables[table] + at)[0]

    def _segments(self) -> tuple[list[int], int]:
        """The cmap's format 4 subtable (Unicode's basic plane): its segments' ends, and where it is."""
        cmap = self.tables["cmap"]
        for n in range(struct.unpack_from(">H", self.data, cmap + 2)[0]):
            platform, encoding, offset = struct.unpack_from(">HHI", self.data, cmap + 4 + 8 * n)
            at = cmap + offset
            if (platform, encoding) == (3, 1) and struct.unpack_from(">H", self.data, at)[0] == 4:
                count = struct.unpack_from(">H", self.data, at + 6)[0] // 2
                return list(struct.unpack_from(f">{count}H", self.data, at + 14)), at
        raise ValueError("no Unicode cmap")

    def index(self, char: str) -> int:
        """The glyph of `char`, or 0 (the font's missing glyph)."""
        code, (ends, at) = ord(char), self.segments
        n, count = bisect_left(ends, code), len(ends)
        if code > 0xFFFF or n == count:
            return 0
        start, delta, ranged = (
            struct.unpack_from(">H", self.data, at + 16 + 2 * (k * count + n))[0] for k in (1, 2, 3)
        )
        if code < start:
            return 0
        if not ranged:
            return (code + delta) & 0xFFFF
        where = at + 16 + 2 * (3 * count + n) + ranged + 2 * (code - start)
        found = struct.unpack_from(">H", self.data, where)[0]
        return (found + delta) & 0xFFFF if found else 0

    def draws(self, text: str) -> bool:
        return all(char == " " or self.index(char) for char in text)

    def advance(self, glyph: int) -> int:
        n = min(glyph, self.metrics - 1)
        return struct.unpack_from(">H", self.data, self.tables["hmtx"] + 4 * n)[0]

    def outline(self, glyph: int) -> list[list[tuple[int, int, bool]]]:
        """The glyph's contours: points in font units, each on the curve or a control point."""
        start, end = self._where(glyph), self._where(glyph + 1)
        if start == end:
            return []
        at = self.tables["glyf"] + start
        contours = struct.unpack_from(">h", self.data, at)[0]
        return _simple(self.data, at + 10, contours) if contours >= 0 else self._composite(at + 10)

    def _where(self, glyph: int) -> int:
        loca = self.tables["loca"]
        if self.long_loca:
            return struct.unpack_from(">I", self.data, loca + 4 * glyph)[0]
        return 2 * struct.unpack_from(">H", self.data, loca + 2 * glyph)[0]

    def _composite(self, at: int) -> list[list[tuple[int, int, bool]]]:
        """A glyph made of others (an accented letter), each moved by its offset."""
        contours, more = [], True
        while more:
            flags, part = struct.unpack_from(">HH", self.data, at)
            words = flags & 0x1
            dx, dy = struct.unpack_from(">hh" if words else ">bb", self.data, at + 4)
            at += 8 if words else 6
            at += {0x8: 2, 0x40: 4, 0x80: 8}.get(flags & 0xC8, 0)  # a scale: DejaVu's letters use none
            contours += [[(x + dx, y + dy, on) for x, y, on in c] for c in self.outline(part)]
            more = bool(flags & 0x20)
        return contours

    def unfilled(self, text: str, size: int) -> int:
        """How many of the letters of `text` are not kept filled at `size`."""
        with self.keeping:
            return sum((char, size) not in self.kept for char in set(text))

    def glyph(self, char: str, size: int) -> Glyph:
        """`char` filled at `size` pixels an em (kept: the last GLYPHS filled)."""
        key = (char, size)
        with self.keeping:
            if key in self.kept:
                self.kept.move_to_end(key)
                return self.kept[key]
        glyph = self.fill(char, size)
        with self.keeping:
            self.kept[key] = glyph
            while len(self.kept) > GLYPHS:
                self.kept.popitem(last=False)
        return glyph

    def fill(self, char: str, size: int) -> Glyph:
        """`char` filled at `size` pixels an em, in the box of the pixels it covers."""
        index, scale = self.index(char), size / self.units
        advance = round(self.advance(index) * scale)
        edges = [
            (x0 * scale, (self.ascent - y0) * scale, x1 * scale, (self.ascent - y1) * scale)
            for contour in self.outline(index)
            for x0, y0, x1, y1 in _edges(contour)
        ]
        if not edges:
            return Glyph(advance, 0, 0, ())
        xs, ys = [e[0] for e in edges], [e[1] for e in edges]
        left, top = int(min(xs)), int(min(ys))
        moved = [(x0 - left, y0 - top, x1 - left, y1 - top) for x0, y0, x1, y1 in edges]
        return Glyph(advance, left, top, fill(moved, int(max(xs)) - left + 2, int(max(ys)) - top + 2))


def _simple(data: bytes, at: int, contours: int) -> list[list[tuple[int, int, bool]]]:
    ends = struct.unpack_from(f">{contours}H", data, at)
    count = ends[-1] + 1 if ends else 0
    at += 2 * contours
    at += 2 + struct.unpack_from(">H", data, at)[0]  # past the hinting instructions
    flags: list[int] = []
    while len(flags) < count:
        flag = data[at]
        repeat = data[at + 1] if flag & 0x8 else 0
        flags += [flag] * (repeat + 1)
        at += 2 if flag & 0x8 else 1
    xs, at = _coordinates(data, at, flags, 0x2, 0x10)
    ys, _ = _coordinates(data, at, flags, 0x4, 0x20)
    points = [(x, y, bool(f & 0x1)) for x, y, f in zip(xs, ys, flags, strict=True)]
    starts = (0, *(end + 1 for end in ends[:-1]))
    return [points[start : end + 1] for start, end in zip(starts, ends, strict=True)]


def _coordinates(data: bytes, at: int, flags: list[int], short: int, same: int) -> tuple[list[int], int]:
    """One axis of a simple glyph's points: each a byte, a word, or the same as the last."""
    values, value = [], 0
    for flag in flags:
        if flag & short:
            value += data[at] if flag & same else -data[at]
            at += 1
        elif not flag & same:
            value += struct.unpack_from(">h", data, at)[0]
            at += 2
        values.append(value)
    return values, at


def _edges(contour: list[tuple[int, int, bool]]) -> list[Edge]:
    """A closed contour as straight edges: each quadratic curve in CURVE_STEPS pieces (two
    control points in a row have an on-curve point between them)."""
    points: list[tuple[float, float, bool]] = []
    for n, (x, y, on) in enumerate(contour):
        px, py, pon = contour[n - 1]
        if not on and not pon:
            points.append(((x + px) / 2, (y + py) / 2, True))
        points.append((x, y, on))
    first = next((n for n, p in enumerate(points) if p[2]), 0)
    points = points[first:] + points[:first]
    path: list[Point] = []
    for n, (x, y, on) in enumerate(points):
        if on:
            path.append((x, y))
            continue
        (ax, ay, _), (bx, by, _) = points[n - 1], points[(n + 1) % len(points)]
        path += [_bezier((ax, ay), (x, y), (bx, by), k / CURVE_STEPS) for k in range(1, CURVE_STEPS)]
    return [(*path[n - 1], *path[n]) for n in range(len(path))]


def _bezier(a: Point, control: Point, b: Point, t: float) -> Point:
    u = 1 - t
    return (u * u * a[0] + 2 * u * t * control[0] + t * t * b[0], u * u * a[1] + 2 * u * t * control[1] + t * t * b[1])


def fill(edges: list[Edge], width: int, height: int) -> tuple[bytes, ...]:
    """The coverage of each pixel by the shape the edges enclose (non-zero winding), sampled
    on SUBSAMPLES rows a pixel, exact across each row."""
    rows = []
    for y in range(height):
        cover = [0.0] * (width + 1)
        for k in range(SUBSAMPLES):
            _span(cover, edges, y + (k + 0.5) / SUBSAMPLES)
        rows.append(bytes(min(255, round(255 * c / SUBSAMPLES)) for c in cover[:width]))
    return tuple(rows)


def _span(cover: list[float], edges: list[Edge], y: float) -> None:
    crossings = sorted(
        (x0 + (y - y0) * (x1 - x0) / (y1 - y0), 1 if y1 > y0 else -1)
        for x0, y0, x1, y1 in edges
        if min(y0, y1) <= y < max(y0, y1)
    )
    winding = 0
    for (x, turn), (after, _) in itertools.pairwise(crossings):
        winding += turn
        if winding:
            _add(cover, x, after)


def _add(cover: list[float], start: float, end: float) -> None:
    """Cover the row from `start` to `end` (pixels), each pixel by how much of it lies within."""
    for px in range(max(0, int(start)), min(len(cover), int(end) + 1)):
        cover[px] += max(0.0, min(end, px + 1) - max(start, px))
