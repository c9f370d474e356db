"""The words under the review's picture: how the game ended and who played it ("You (X)
beat the AI", "Ann (X) and Bo (O) drew"), on one line or, when too wide, two; and their
pixels, a band as wide as the board. A name the font cannot draw, or whose new letters are
over the process's budget, is said by its mark."""

from __future__ import annotations

import string
import threading
import time

from ..core.game import Game
from ..core.players import Players
from ..core.position import other
from .font import Font

TEXT_SIZE = 30  # pixels an em
LINE_HEIGHT = 42  # pixels a line
BAND = 2 * LINE_HEIGHT + 28  # pixels under the board: room for two lines, always
MARGIN = 24  # pixels kept clear at either side
# Filled at start-up (some 0.25 s): the captions' own words, and the letters of most names.
WARM = {*"XO ()", *"Unfinished: You beat the AI and drew to move", *string.ascii_letters, *string.digits, *".'-"}
FILLS_A_SECOND = 8  # other letters a process fills for names, at most (some 4 ms each)


class Budget:
    """At most `rate` letters filled a second in the process, with as many to spare: a flood of
    names in new letters gets its names said by their marks instead of costing more."""

    def __init__(self, rate: float) -> None:
        self.rate, self.spare, self.at = rate, rate, time.monotonic()
        self.lock = threading.Lock()

    def take(self, letters: int) -> bool:
        with self.lock:
            now = time.monotonic()
            self.spare = min(self.rate, self.spare + (now - self.at) * self.rate)
            self.at = now
            if letters > self.spare:
                return False
            self.spare -= letters
            return True


FILLS = Budget(FILLS_A_SECOND)


def warm() -> None:
    """Fill the common letters now, not on a visitor's request."""
    font = Font.load()
    for char in WARM if font else ():
        font.glyph(char, TEXT_SIZE)


def drawable(font: Font, name: str) -> bool:
    """Whether the caption can say `name`: the font has its letters, and those not kept
    filled fit in the budget."""
    if not font.draws(name):
        return False
    missing = font.unfilled(name, TEXT_SIZE)
    return missing == 0 or FILLS.take(missing)


def caption(game: Game, players: Players, width: int) -> tuple[str, ...]:
    """The caption's lines, each fitting `width` pixels as the font draws them (none without it)."""
    font = Font.load()
    if font is None:
        return ()
    said = Players(players.you, players.ai, tuple(n if drawable(font, n) else "" for n in players.names))
    words = sentence(game, said)
    if line_width(font, words) <= width - 2 * MARGIN:
        return (words,)
    for verb in (" beat ", " and ", " to move"):
        if verb in words:
            first, rest = words.split(verb, 1)
            return first, f"{verb.strip()} {rest}".strip()
    return (words,)


def sentence(game: Game, players: Players) -> str:
    if not game.over:
        return f"Unfinished: {tagged(players, game.to_move, first=True)} to move"
    if game.winner:
        return f"{tagged(players, game.winner, True)} beat {tagged(players, other(game.winner), False)}"
    first = players.you or "X"
    return f"{tagged(players, first, True)} and {tagged(players, other(first), False)} drew"


def tagged(players: Players, mark: str, first: bool) -> str:
    """A player with their mark: "You (X)", "the AI", "Ann (O)", "X". Later in the sentence,
    you and the AI go without (the first player's mark says it)."""
    who = players.subject(mark) if first else players.actor(mark)
    if who == mark or (not first and who in ("you", "the AI")):
        return who
    return f"{who} ({mark})"


def line_width(font: Font, text: str) -> int:
    return sum(font.glyph(char, TEXT_SIZE).advance for char in text)


def band(lines: tuple[str, ...], width: int) -> list[bytearray]:
    """The caption's coverage (0-255 a pixel), BAND rows of `width`, each line centred."""
    rows = [bytearray(width) for _ in range(BAND)]
    font = Font.load()
    top = (BAND - LINE_HEIGHT * len(lines)) // 2
    for n, text in enumerate(lines):
        pen = (width - line_width(font, text)) // 2
        for char in text:
            glyph = font.glyph(char, TEXT_SIZE)
            _lay(rows, glyph.rows, pen + glyph.left, top + n * LINE_HEIGHT + glyph.top)
            pen += glyph.advance
    return rows


def _lay(rows: list[bytearray], glyph: tuple[bytes, ...], left: int, top: int) -> None:
    for y, coverage in enumerate(glyph, start=top):
        if 0 <= y < len(rows):
            row = rows[y]
            for x, cover in enumerate(coverage, start=left):
                if cover and 0 <= x < len(row):
                    row[x] = max(row[x], cover)
