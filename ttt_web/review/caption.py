"""The words under the review's picture: how the game ended and who played it, in the third
person since the picture goes to a friend ("X beat the AI (O, Easy)", "Ann (X) and Bo (O)
drew"), on one line or, when too wide, two. A line is laid in runs, each in its font: the
caption's words in DejaVu Sans, each name in the first font that has all its letters
(font.py). A name no installed font has, or names too long for two lines, are said by their
marks, and then so is the other name."""

from __future__ import annotations

from typing import NamedTuple

from PIL import ImageFont

from ..core.endings import LEFT, Ending
from ..core.game import Game
from ..core.players import Players
from ..core.position import SIDES, other
from . import font

LINE_HEIGHT = 42  # pixels a line
BAND = 2 * LINE_HEIGHT + 28  # pixels under the board: room for two lines, always
MARGIN = 24  # pixels kept clear at either side
# where a caption may go on to a second line
BREAKS = (" beat ", " and ", " to move", " drew", " played on", " resigned", " left where", " wins with")

Piece = tuple[str, bool]  # some words of the sentence, and whether they are a player's name


class Run(NamedTuple):
    text: str
    font: ImageFont.FreeTypeFont
    name: bool  # a player's name: never broken across lines
    width: float  # pixels

    @classmethod
    def of(cls, text: str, font: ImageFont.FreeTypeFont, name: bool = False) -> Run:
        return cls(text, font, name, font.getlength(text))


Line = tuple[Run, ...]


def captioned(game: Game, players: Players, width: int, ending: Ending | None = None) -> tuple[Line, ...]:
    """The caption's lines, each within `width` less the margins; none without DejaVu Sans.
    A game resigned or left (`ending`) says so, as the review does."""
    words = font.words()
    if words is None:
        return ()
    first, room = players.you or "X", width - 2 * MARGIN
    names, levels = named(players)
    said = laid(pieces(game, names, first, levels, ending), words)
    fitted = lines(said, room) if said else ()
    if fitted and all(line_width(line) <= room for line in fitted):
        return fitted
    return lines(laid(pieces(game, ("", ""), first, ending=ending), words) or (), room)


def named(players: Players) -> tuple[tuple[str, str], tuple[str, str]]:
    """The players' names, X's and O's, the AI's "the AI"; and the AI's level, beside it."""
    ai = players.ai_mark()
    x_name, o_name = ("the AI" if mark == ai else name for mark, name in zip(SIDES, players.names, strict=True))
    x_level, o_level = (players.level if mark == ai else "" for mark in SIDES)
    return (x_name, o_name), (x_level, o_level)


def written(lines: tuple[Line, ...]) -> tuple[str, ...]:
    """The caption's lines as text."""
    return tuple("".join(run.text for run in line) for line in lines)


def laid(said: tuple[Piece, ...], words: ImageFont.FreeTypeFont) -> Line | None:
    """The sentence in runs with their fonts; None if no installed font has a name's letters."""
    fonts = [font.font_for(text) if name else words for text, name in said]
    found = [face for face in fonts if face is not None]
    if len(found) < len(fonts):
        return None
    return tuple(Run.of(text, face, name) for (text, name), face in zip(said, found, strict=True) if text)


def lines(runs: Line, room: int) -> tuple[Line, ...]:
    """`runs` on one line if they fit in `room` pixels; else on two, broken before the one
    of BREAKS that leaves the shorter longest line."""
    if line_width(runs) <= room:
        return (runs,)
    broken = [broken_at(runs, verb) for verb in BREAKS if any(verb in run.text for run in runs if not run.name)]
    return min(broken, key=lambda pair: max(map(line_width, pair)), default=(runs,))


def broken_at(runs: Line, verb: str) -> tuple[Line, Line]:
    at = next(n for n, run in enumerate(runs) if not run.name and verb in run.text)
    before, rest = runs[at].text.split(verb, 1)
    head = (*runs[:at], Run.of(before, runs[at].font))
    tail = (Run.of(f"{verb}{rest}".lstrip(), runs[at].font), *runs[at + 1 :])
    return tuple(run for run in head if run.text), tuple(run for run in tail if run.text)


def line_width(line: Line) -> float:
    return sum(run.width for run in line)


def sentence(game: Game, names: tuple[str, str], first: str, levels: tuple[str, str] = ("", "")) -> str:
    return "".join(text for text, _ in pieces(game, names, first, levels))


def pieces(
    game: Game, names: tuple[str, str], first: str, levels: tuple[str, str] = ("", ""), ending: Ending | None = None
) -> tuple[Piece, ...]:
    """How the game ended, the players named by `names` (X's, O's; "" for the bare mark) and
    the AI's with its level, by `levels`; a draw names `first` first (your mark against the
    AI); a game played on from a position says so, its result not being the whole game's; a
    game resigned or left (`ending`) says who quit and who won."""
    said = {mark: (names[n], levels[n]) for n, mark in enumerate(SIDES)}
    if ending is not None:
        return ended(ending, said)
    if not game.over:
        return ("Unfinished: ", False), *tagged(*said[game.to_move], game.to_move, True), (" to move", False)
    since = (f", played on after move {game.given}" if game.given else "", False)
    if game.winner:
        loser = other(game.winner)
        return *tagged(*said[game.winner], game.winner, True), (" beat ", False), *tagged(*said[loser], loser), since
    return (
        *tagged(*said[first], first, True),
        (" and ", False),
        *tagged(*said[other(first)], other(first)),
        (" drew", False),
        since,
    )


def ended(ending: Ending, said: dict[str, tuple[str, str]]) -> tuple[Piece, ...]:
    """A game resigned or left, as the link's preview says it: "Bo (O) resigned or left: Ann
    (X) won", "O left where the AI (X, Easy) wins with best play"."""
    quit_by, winner = tagged(*said[ending.mark], ending.mark, True), tagged(*said[ending.winner], ending.winner)
    if ending.how == LEFT:
        return *quit_by, (" left where ", False), *winner, (" wins with best play", False)
    return *quit_by, (" resigned or left: ", False), *winner, (" won", False)


def plain_text(pieces: tuple[Piece, ...]) -> str:
    """The words of some pieces, without their weights."""
    return "".join(text for text, _ in pieces)


def tagged(name: str, level: str, mark: str, start: bool = False) -> tuple[Piece, ...]:
    """A player with their mark, "Ann (O)", the AI with its level too, "the AI (X, Easy)",
    or the mark alone, "X"."""
    if not name:
        return ((mark, False),)
    return (name[:1].upper() + name[1:] if start else name, True), (f" ({mark}{f', {level}' if level else ''})", False)
