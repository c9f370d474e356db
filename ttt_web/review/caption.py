"""The words under the review's picture: how the game ended and who played it, in the third
person since the picture goes to a friend ("X beat the AI (O, Easy)", "Ann (X) and Bo (O)
drew"), on one line or, when too wide, two; and their pixels, a band as wide as the board.
A name the rasterizer cannot draw right (letters the font lacks, right-to-left or shaped
scripts, combining marks) or whose new letters are over the process's budget is said by its
mark, and then so is the other name."""

from __future__ import annotations

import string
import threading
import time
import unicodedata

from ..core.game import Game
from ..core.players import Players
from ..core.position import SIDES, other
from .font import Font

TEXT_SIZE = 30  # pixels an em
LINE_HEIGHT = 42  # pixels a line
BAND = 2 * LINE_HEIGHT + 28  # pixels under the board: room for two lines, always
MARGIN = 24  # pixels kept clear at either side
# Filled at start-up (some 0.25 s): the captions' own words, and the letters of most names.
WARM = {*"XO (),", *"Unfinished: The AI beat and drew to move", *string.ascii_letters, *string.digits, *".'-"}
FILLS_A_SECOND = 8  # other letters a process fills for names, at most (some 4 ms each)
RIGHT_TO_LEFT = {"R", "AL", "AN"}  # bidi classes the caption would draw in the wrong order
# Scripts whose letters join or reorder: drawn one by one, their words come out wrong.
SHAPED = (
    "ARABIC",
    "SYRIAC",
    "THAANA",
    "NKO",
    "DEVANAGARI",
    "BENGALI",
    "GURMUKHI",
    "GUJARATI",
    "ORIYA",
    "TAMIL",
    "TELUGU",
    "KANNADA",
    "MALAYALAM",
    "SINHALA",
    "THAI",
    "LAO",
    "TIBETAN",
    "MYANMAR",
    "KHMER",
    "MONGOLIAN",
    "HANGUL CHOSEONG",
    "HANGUL JUNGSEONG",
    "HANGUL JONGSEONG",
)


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


def drawn_right(font: Font, name: str) -> bool:
    """Whether drawing the letters of `name` one by one, left to right, writes it: the font
    has them, and none is right-to-left, a combining mark or in a script that joins letters."""
    return font.draws(name) and not any(_needs_shaping(char) for char in name)


def _needs_shaping(char: str) -> bool:
    return (
        unicodedata.bidirectional(char) in RIGHT_TO_LEFT
        or unicodedata.category(char) in ("Mn", "Mc", "Me", "Cf")
        or unicodedata.name(char, "").startswith(SHAPED)
    )


def said_names(font: Font, names: tuple[str, str]) -> tuple[tuple[str, str], bool]:
    """The names the caption says, and whether that lasts: both, or, if either cannot be
    said, neither (never a name against a bare mark). A fall-back for the letters' budget
    alone does not last: later, the names may be drawn."""
    if not all(drawn_right(font, name) for name in names):
        return ("", ""), True
    missing = font.unfilled("".join(names), TEXT_SIZE)
    if missing and not FILLS.take(missing):
        return ("", ""), False
    return names, True


def captioned(game: Game, players: Players, width: int) -> tuple[tuple[str, ...], bool]:
    """The caption's lines, and whether they last (False: the names were left out for the
    budget, and a later request may say them)."""
    font = Font.load()
    if font is None:
        return (), True
    if players.against_ai:
        names, lasting = tuple("the AI" if mark == players.ai_mark() else "" for mark in SIDES), True
    else:
        names, lasting = said_names(font, players.names)
    levels = tuple(players.level if mark == players.ai_mark() else "" for mark in SIDES)
    return fitted(font, game, names, players.you or "X", levels, width - 2 * MARGIN), lasting


def fitted(
    font: Font, game: Game, names: tuple[str, str], first: str, levels: tuple[str, str], room: int
) -> tuple[str, ...]:
    """The caption's lines in `room` pixels, said by the marks if the names would not fit in two."""
    said = lines(font, sentence(game, names, first, levels), room)
    if any(line_width(font, line) > room for line in said):
        said = lines(font, sentence(game, ("", ""), first), room)
    return said


def lines(font: Font, words: str, room: int) -> tuple[str, ...]:
    """`words` on one line if they fit in `room` pixels; else on two, broken before the one
    of BREAKS that leaves the shorter longest line."""
    if line_width(font, words) <= room:
        return (words,)
    broken = [broken_at(words, verb) for verb in BREAKS if verb in words]
    return min(broken, key=lambda pair: max(line_width(font, line) for line in pair), default=(words,))


BREAKS = (" beat ", " and ", " to move", " drew", " played on")  # where a caption may go on to a second line


def broken_at(words: str, verb: str) -> tuple[str, str]:
    first, rest = words.split(verb, 1)
    return first, f"{verb}{rest}".strip()


def sentence(game: Game, names: tuple[str, str], first: str, levels: tuple[str, str] = ("", "")) -> str:
    """How the game ended, the players named by `names` (X's, O's; "" for the bare mark) and
    the AI's with its level, by `levels`; a draw names `first` first (your mark against the
    AI); a game played on from a position says so, its result not being the whole game's."""
    said = {mark: (names[n], levels[n]) for n, mark in enumerate(SIDES)}
    if not game.over:
        return f"Unfinished: {tagged(*said[game.to_move], game.to_move, start=True)} to move"
    since = f", played on after move {game.given}" if game.given else ""
    if game.winner:
        loser = other(game.winner)
        return f"{tagged(*said[game.winner], game.winner, True)} beat {tagged(*said[loser], loser, False)}{since}"
    return f"{tagged(*said[first], first, True)} and {tagged(*said[other(first)], other(first), False)} drew{since}"


def tagged(name: str, level: str, mark: str, start: bool) -> str:
    """A player with their mark, "Ann (O)", the AI with its level too, "the AI (X, Easy)",
    or the mark alone, "X"."""
    if not name:
        return mark
    return f"{name[:1].upper() + name[1:] if start else name} ({mark}{f', {level}' if level else ''})"


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
