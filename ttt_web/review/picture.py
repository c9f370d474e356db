"""A game's final board as a PNG, for link previews (chat apps show PNG, not SVG), drawn with
Pillow. Under the board, a band says who played and how it ended (caption.py).

Pillow's shapes have no smooth edges, so the grid, each mark and each winning line (over the
winner's marks) are drawn once per process (create_app calls `parts`) OVER times larger,
scaled down and written in the palette's colours; a picture is those parts pasted together
and its caption written under it, all as palette indices (an 8-bit PNG encodes in a quarter
of an RGB one's time). Built off the event loop, in the gevent hub's thread pool."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gevent import monkey
from gevent.threadpool import ThreadPool
from PIL import Image, ImageDraw

from ..core.endings import Ending
from ..core.game import Game
from ..core.players import Players
from ..core.position import position_of
from . import caption, font

SIZE = 600  # pixels a side; the board is drawn on a 300-unit grid
SCALE = SIZE / 300  # pixels a unit
OVER = 4  # times larger the parts are drawn, before they are scaled down
CELL = SIZE // 3  # pixels a cell
BOX = 20  # pixels from a cell's edges to its mark, which keeps 16 units (32 pixels) clear
HEIGHT = SIZE + caption.BAND  # pixels: the board, then its caption
BACKGROUND = (246, 247, 251)
GRID, LINE = (74, 82, 99), (27, 31, 42)
COLOURS = {"X": (179, 38, 30), "O": (11, 92, 173)}
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
STEP = 10  # the least difference, in some channel, between two colours of the palette
PICTURES = 256  # encoded pictures kept per process (some 18 KB each): docs/performance.md

Point = tuple[float, float]
Stroke = Callable[[ImageDraw.ImageDraw, float], None]  # draws on a mask, given its pixels a unit


@dataclass(frozen=True)
class Parts:
    blank: Image.Image  # the grid, and an empty band for the caption
    marks: dict[str, Image.Image]  # each mark on the background, in the box BOX of a cell
    lines: dict[tuple[tuple[int, ...], str], tuple[Image.Image, Image.Image, tuple[int, int]]]
    # each winning line over the winner's marks: its pixels, which of them it covers, and where
    ink: list[int]  # the palette's index for text of each coverage, 0-255, over the background
    palette: Image.Image


@functools.cache
def parts() -> Parts:
    """Drawn at start-up (some 0.2 s), with the fonts' character maps read (font.py)."""
    font.faces()
    colours = palette_colours()
    written = Image.new("P", (1, 1))
    written.putpalette([channel for colour in colours for channel in colour])
    blank = Image.new("RGB", (SIZE, HEIGHT), BACKGROUND)
    blank.paste(GRID, (0, 0), mask((SIZE, SIZE), grid))
    marks = {}
    for mark, colour in COLOURS.items():
        cell = Image.new("RGB", (CELL, CELL), BACKGROUND)
        cell.paste(colour, (0, 0), mask((CELL, CELL), functools.partial(draw_mark, mark)))
        marks[mark] = cell.crop((BOX, BOX, CELL - BOX, CELL - BOX))
    lines = winning_lines(blank, marks, written)
    steps = len(blend(BACKGROUND, LINE)) - 1
    ink = [colours.index(blend(BACKGROUND, LINE)[round(cover * steps / 255)]) for cover in range(256)]
    marks = {mark: indexed(tile, written) for mark, tile in marks.items()}
    return Parts(indexed(blank, written), marks, lines, ink, written)


def winning_lines(blank: Image.Image, marks: dict[str, Image.Image], written: Image.Image) -> dict:
    """Each winning line over the grid and the winner's three marks, in the palette, with
    the pixels it covers: the only pixels it changes, whatever else is on the board."""
    lines = {}
    for line in LINES:
        ends = centre(line[0]), centre(line[-1])
        stroke = mask((SIZE, SIZE), functools.partial(across, ends))
        box = stroke.getbbox()
        assert box is not None  # a line always covers some pixels
        covered = stroke.crop(box).point(lambda cover: 255 if cover else 0, "1")
        for mark in COLOURS:
            won = blank.copy()
            for cell in line:
                won.paste(marks[mark], (CELL * (cell % 3) + BOX, CELL * (cell // 3) + BOX))
            won.paste(LINE, (0, 0), stroke)
            lines[line, mark] = (indexed(won.crop(box), written), covered, box[:2])
    return lines


def indexed(image: Image.Image, palette: Image.Image) -> Image.Image:
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def palette_colours() -> list[tuple[int, ...]]:
    """The colours a picture is written in: the parts' own, and steps STEP apart between two
    that meet (edges, the line over the grid or a mark, text). Pillow maps a pixel to a colour
    near it, not always the nearest (it looks colours up in a coarser grid): far enough apart,
    the parts' own colours stay themselves, and no pixel moves more than 10 in a channel."""
    x, o = COLOURS.values()
    meet = [
        (BACKGROUND, GRID),
        (BACKGROUND, x),
        (BACKGROUND, o),
        (BACKGROUND, LINE),
        (GRID, LINE),
        (x, LINE),
        (o, LINE),
    ]
    return list(dict.fromkeys(colour for one, two in meet for colour in blend(one, two)))


def blend(one: tuple[int, ...], two: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The colours from `one` to `two`, STEP apart in the channel that changes most."""
    steps = max(abs(a - b) for a, b in zip(one, two, strict=True)) // STEP
    return [tuple(round(a + (b - a) * n / steps) for a, b in zip(one, two, strict=True)) for n in range(steps + 1)]


GRID_LINES = tuple(pair for at in (100, 200) for pair in (((at, 20), (at, 280)), ((20, at), (280, at))))


def mask(size: tuple[int, int], stroke: Stroke) -> Image.Image:
    """Coverage (0-255 a pixel) of what `stroke` draws, drawn OVER times larger and scaled down."""
    large = Image.new("L", (OVER * size[0], OVER * size[1]))
    stroke(ImageDraw.Draw(large), OVER * SCALE)
    return large.resize(size, Image.Resampling.BOX)


def across(ends: tuple[Point, Point], draw: ImageDraw.ImageDraw, unit: float) -> None:
    """A winning line, from the centre of its first cell to the centre of its last."""
    segment(draw, unit, *ends, 8)


def grid(draw: ImageDraw.ImageDraw, unit: float) -> None:
    for ends in GRID_LINES:
        segment(draw, unit, *ends, 6)


def segment(draw: ImageDraw.ImageDraw, unit: float, a: Point, b: Point, width: float) -> None:
    """A line from a to b (in units), `width` units wide, with round ends."""
    ends, r = [(unit * x, unit * y) for x, y in (a, b)], unit * width / 2
    draw.line(ends, fill=255, width=round(2 * r))
    for x, y in ends:
        draw.ellipse((x - r, y - r, x + r, y + r), fill=255)


def draw_mark(mark: str, draw: ImageDraw.ImageDraw, unit: float) -> None:
    """X or O in a cell (100 units a side), 16 units clear of its edges."""
    if mark == "X":
        segment(draw, unit, (24, 24), (76, 76), 12)
        segment(draw, unit, (76, 24), (24, 76), 12)
    else:
        draw.ellipse((unit * 16, unit * 16, unit * 84, unit * 84), outline=255, width=round(unit * 12))


def centre(cell: int) -> Point:
    return 50 + 100 * (cell % 3), 50 + 100 * (cell // 3)


def of_game(game: Game, players: Players, ending: Ending | None = None) -> bytes:
    """The review's picture of `game` played by `players` (and resigned or left, `ending`)."""
    return png(position_of(game.board), game.winning_line, caption.captioned(game, players, SIZE, ending))


@functools.lru_cache(maxsize=PICTURES)
def png(marks: str, line: tuple[int, ...], words: tuple[caption.Line, ...]) -> bytes:
    """The board `marks` (nine characters, "X", "O" or "." row by row) with its winning
    `line` (its cells, ascending; () if none), and the caption's lines under it, as a PNG."""
    made = parts()
    image = made.blank.copy()
    for cell, mark in enumerate(marks):
        if mark in COLOURS:
            image.paste(made.marks[mark], (CELL * (cell % 3) + BOX, CELL * (cell // 3) + BOX))
    if line:
        stroke, covered, at = made.lines[line, marks[line[0]]]
        image.paste(stroke, at, covered)
    band = Image.new("L", (SIZE, caption.BAND))
    write(ImageDraw.Draw(band), words)
    band = band.point(made.ink)
    band.putpalette(made.palette.getpalette() or ())
    image.paste(band, (0, SIZE))
    encoded = io.BytesIO()
    image.save(encoded, "PNG", compress_level=1)
    return encoded.getvalue()


def write(draw: ImageDraw.ImageDraw, words: tuple[caption.Line, ...]) -> None:
    """The caption's lines, each centred, as coverage in its band."""
    top = (caption.BAND - caption.LINE_HEIGHT * len(words)) // 2
    for n, line in enumerate(words):
        x, baseline = (SIZE - caption.line_width(line)) / 2, top + n * caption.LINE_HEIGHT + 31
        for run in line:
            draw.text((x, baseline), run.text, fill=255, font=run.font, anchor="ls")
            x += run.width


def off_the_loop(work: Callable[..., Any], *args: Any) -> Any:
    """In a gevent worker, the drawing thread does the work, and the worker's other
    connections go on meanwhile (Pillow lets go of the GIL while it encodes)."""
    if monkey.is_module_patched("threading"):
        return drawing_thread().apply(work, args)
    return work(*args)


@functools.cache
def drawing_thread() -> ThreadPool:
    """One thread draws every picture of the process: a FreeType face (which each of Pillow's
    fonts holds, shared by every picture) may be used by one thread at a time. Ten pictures
    drawn at once in the hub's pool of ten hung a worker."""
    return ThreadPool(1)
