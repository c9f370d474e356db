"""The fonts of the review picture's caption, from Debian's packages: DejaVu Sans
(fonts-dejavu-core) for the caption's own words and the names it has the letters of, then Noto
(fonts-noto-core, fonts-noto-cjk) for the other scripts a name may be in. Pillow lays a string
out in one font, with raqm (letters joined and reordered, right to left), but cannot say
which characters a font has: fontTools reads each font's character map once per process
(some 0.1 s, at start-up), and a name is written in the first font that has all its
characters, or not at all (then it is said by its mark)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

from fontTools.ttLib import TTFont
from PIL import ImageFont, features

TEXT_SIZE = 30  # pixels an em
DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
NOTO = Path("/usr/share/fonts/truetype/noto")
CJK = (Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"), 2)  # its face 2 is Simplified Chinese


@dataclass(frozen=True)
class Face:
    path: Path
    index: int  # the face's number in a collection (.ttc)
    characters: frozenset[int]  # the code points it has a glyph for

    @functools.cached_property
    def font(self) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(self.path, TEXT_SIZE, index=self.index, layout_engine=ImageFont.Layout.RAQM)


@functools.cache
def faces() -> tuple[Face, ...]:
    """The installed faces, in the order a name looks for its font: DejaVu Sans, Noto Sans,
    Noto Sans for each script, Noto Sans CJK."""
    places = [
        (DEJAVU, 0),
        (NOTO / "NotoSans-Regular.ttf", 0),
        *((path, 0) for path in sorted(NOTO.glob("NotoSans?*-Regular.ttf"))),
        CJK,
    ]
    return tuple(Face(path, index, characters(path, index)) for path, index in places if path.exists())


def characters(path: Path, index: int) -> frozenset[int]:
    """The code points a face has a glyph for: its character map's keys. The map's values
    are glyph names, which fontTools reads from the font's `post` table, half the time of
    reading the map itself: numbered names (glyph order set to as many as the font has, maxp)
    leave the keys as they are and skip it."""
    face = TTFont(path, fontNumber=index, lazy=True)
    face.setGlyphOrder([f"glyph{n}" for n in range(face["maxp"].numGlyphs)])
    return frozenset(face.getBestCmap())


def words() -> ImageFont.FreeTypeFont | None:
    """The font of the caption's own words, DejaVu Sans; None if it is not installed."""
    installed = faces()
    return installed[0].font if installed and installed[0].path == DEJAVU else None


def font_for(name: str) -> ImageFont.FreeTypeFont | None:
    """The first installed font that has every character of `name`, or None; None for every
    name without raqm (libfribidi0), which alone writes right to left and joins letters."""
    if not features.check("raqm"):
        return None
    wanted = {ord(char) for char in name}
    return next((face.font for face in faces() if wanted <= face.characters), None)
