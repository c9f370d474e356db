"""A game's final board as a PNG, for link previews (chat apps show PNG, not SVG), drawn with
Pillow. Under the board, a band says who played and how it ended (caption.py).

Pillow's shapes have no smooth edges, so the grid, each mark and each winning line are drawn
once per process (create_app calls `parts`) OVER times larger and scaled down, as masks; a
picture is the grid with its marks and line pasted on in their colours and its caption
written under it. Built and encoded off the event loop, in the gevent hub's thread pool."""

from __future__ import annotations

import functools
import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import gevent
from gevent import monkey
from PIL import Image, ImageDraw

from ..core.game import Game
from ..core.players import Players
from ..core.position import position_of
from . import caption, font

SIZE = 600  # pixels a side; the board is drawn on a 300-unit grid
SCALE = SIZE / 300  # pixels a unit
OVER = 4  # times larger the parts are drawn, before they are scaled down
CELL = SIZE // 3  # pixels a cell
HEIGHT = SIZE + caption.BAND  # pixels: the board, then its caption
BACKGROUND = (246, 247, 251)
GRID, LINE = (74, 82, 99), (27, 31, 42)
COLOURS = {"X": (179, 38, 30), "O": (11, 92, 173)}
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
PICTURES = 1024  # encoded pictures kept per process (some 20 KB each)

Point = tuple[float, float]
Stroke = Callable[[ImageDraw.ImageDraw, float], None]  # draws on a mask, given its pixels a unit


@dataclass(frozen=True)
class Parts:
    blank: Image.Image  # the grid, and an empty band for the caption
    marks: dict[str, Image.Image]  # each mark's mask, a cell's size
    lines: dict[tuple[int, ...], tuple[Image.Image, tuple[int, int]]]  # each winning line's mask, and where it goes


@functools.cache
def parts() -> Parts:
    """Drawn at start-up (some 0.1 s), with the fonts' character maps read (font.py)."""
    font.faces()
    blank = Image.new("RGB", (SIZE, HEIGHT), BACKGROUND)
    grid = mask((SIZE, SIZE), lambda d, u: [segment(d, u, *ends, 6) for ends in GRID_LINES])
    blank.paste(GRID, (0, 0), grid)
    marks = {mark: mask((CELL, CELL), functools.partial(draw_mark, mark)) for mark in COLOURS}
    lines = {}
    for line in LINES:
        whole = mask((SIZE, SIZE), lambda d, u, line=line: segment(d, u, centre(line[0]), centre(line[-1]), 8))
        box = whole.getbbox()
        lines[line] = (whole.crop(box), box[:2])
    return Parts(blank, marks, lines)


GRID_LINES = tuple(pair for at in (100, 200) for pair in (((at, 20), (at, 280)), ((20, at), (280, at))))


def mask(size: tuple[int, int], stroke: Stroke) -> Image.Image:
    """Coverage (0-255 a pixel) of what `stroke` draws, drawn OVER times larger and scaled down."""
    large = Image.new("L", (OVER * size[0], OVER * size[1]))
    stroke(ImageDraw.Draw(large), OVER * SCALE)
    return large.resize(size, Image.Resampling.BOX)


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


def picture(game: Game, players: Players) -> bytes:
    """The review's picture of `game` played by `players`."""
    return png(position_of(game.board), game.winning_line, caption.captioned(game, players, SIZE))


@functools.lru_cache(maxsize=PICTURES)
def png(marks: str, line: tuple[int, ...], words: tuple[caption.Line, ...]) -> bytes:
    """The board `marks` (nine characters, "X", "O" or "." row by row) with its winning
    `line` (its cells, ascending; () if none), and the caption's lines under it, as a PNG."""
    drawn = parts()
    image = drawn.blank.copy()
    for cell, mark in enumerate(marks):
        if mark in COLOURS:
            image.paste(COLOURS[mark], (CELL * (cell % 3), CELL * (cell // 3)), drawn.marks[mark])
    if line:
        stroke, at = drawn.lines[line]
        image.paste(LINE, at, stroke)
    write(ImageDraw.Draw(image), words)
    encoded = io.BytesIO()
    image.save(encoded, "PNG")
    return encoded.getvalue()


def write(draw: ImageDraw.ImageDraw, words: tuple[caption.Line, ...]) -> None:
    """The caption's lines, each centred, in the band under the board."""
    top = SIZE + (caption.BAND - caption.LINE_HEIGHT * len(words)) // 2
    for n, line in enumerate(words):
        x, baseline = (SIZE - caption.line_width(line)) / 2, top + n * caption.LINE_HEIGHT + 31
        for run in line:
            draw.text((x, baseline), run.text, fill=LINE, font=run.font, anchor="ls")
            x += run.font.getlength(run.text)


def off_the_loop(work: Callable[..., Any], *args: Any) -> Any:
    """In a gevent worker, a thread of the hub's pool does the work, and the worker's other
    connections go on meanwhile (Pillow lets go of the GIL while it encodes)."""
    if monkey.is_module_patched("threading"):
        return gevent.get_hub().threadpool.apply(work, args)
    return work(*args)
