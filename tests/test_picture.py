"""The review's PNG picture: laid together from parts drawn once, yet the same pixels as the
board drawn stroke by stroke, one picture per final board whatever the order of moves, and
under it a caption that says who played and how it ended, kept once per board and words."""

import struct
import zlib
from urllib.parse import parse_qsl

import pytest

from tests.page import Page
from ttt_web.core.game import Game
from ttt_web.core.players import Players
from ttt_web.core.position import parse_moves
from ttt_web.review import caption as caption_module
from ttt_web.review import picture
from ttt_web.review.caption import captioned

BOARDS = [
    ("XOXOOXXXO", ()),  # a draw: every cell's mark
    (".XOXO.OX.", (2, 4, 6)),  # O's line over O's marks, beside X's
    ("X.O.X.O.X", (0, 4, 8)),
    ("....X....", ()),
]


@pytest.mark.parametrize(("marks", "line"), BOARDS)
def test_a_laid_picture_is_the_drawn_board_pixel_for_pixel(marks, line):
    assert picture.parts().compose(marks, line).rows == picture.draw(marks, line).rows


@pytest.mark.slow
def test_every_winning_line_of_either_mark_is_laid_as_drawn():
    for n, line in enumerate(picture.LINES):
        mark = "XO"[n % 2]
        marks = "".join(mark if cell in line else "." for cell in range(9))
        assert picture.parts().compose(marks, line).rows == picture.draw(marks, line).rows, (line, mark)


def test_one_picture_per_final_board_whatever_the_order_of_moves(client):
    picture.png.cache_clear()
    orders = ["0-3-1-4-2", "2-4-1-3-0", "1-3-0-4-2"]  # X's top row against O's b2, a2: the same board
    images = {client.get(f"/review/{order}/board.png").data for order in orders}
    assert len(images) == 1
    assert picture.png.cache_info().currsize == 1


CAPTIONS = [
    ("0-1-4-2-8", "you=X&ai=easy", ("X beat the AI (O, Easy)",)),  # said to a friend: never "you"
    ("0-1-4-2-8", "you=O&ai=impossible", ("The AI (X, Impossible) beat O",)),  # the AI's level, as the review says it
    ("0-4-8-2-6-3-5-7-1", "you=O&ai=medium", ("O and the AI (X, Medium) drew",)),
    ("0-4-8-2-6-3-5-7-1", "you=X&ai=impossible", ("X and the AI (O, Impossible) drew",)),
    ("0-1-4", "you=X&ai=easy", ("Unfinished: The AI (O, Easy)", "to move")),
    ("0-1-4", "you=X&ai=impossible", ("Unfinished: The AI (O, Impossible)", "to move")),
    ("0-1-4-2-8", "x=Ann&o=Bo", ("Ann (X) beat Bo (O)",)),
    ("0-4-8-2-6-3-5-7-1", "x=Ann&o=Bo", ("Ann (X) and Bo (O) drew",)),
    ("0-4-8-2-6-3-5-7-1", "x=Anne-Marie&o=Bartholomew", ("Anne-Marie (X)", "and Bartholomew (O) drew")),
    ("0-1-4-2-8", "", ("X beat O",)),
    ("0-1-4", "x=%D0%90%D0%BD%D0%BD%D0%B0&o=Bo", ("Unfinished: Bo (O) to move",)),
    ("0-1-4", "x=%E6%9D%8E&o=%D0%90%D0%BD%D0%BD%D0%B0", ("Unfinished: O to move",)),  # no glyph for 李: both marks
    ("0-1-4-2-8", "x=%E6%9D%8E%E5%B0%8F%E9%BE%8D", ("X beat O",)),  # no glyph: said by the mark
    ("0-1-4-2-8", "x=%D9%85%D8%AD%D9%85%D8%AF&o=Bartholomew", ("X beat O",)),  # Arabic: right to left, joined
    ("0-1-4-2-8", "x=%D7%93%D7%A0%D7%94&o=Bo", ("X beat O",)),  # Hebrew: right to left
    ("0-1-4-2-8", "x=Bo&o=Jose%CC%81", ("X beat O",)),  # a combining accent
    ("0-1-4-2-8", "x=Bo&o=%E0%A4%85%E0%A4%A8%E0%A5%81", ("X beat O",)),  # Devanagari: shaped
    ("0-1-4-2-8", "x=Bo&o=Jos%C3%A9", ("Bo (X) beat José (O)",)),  # a precomposed accent is drawn
]


@pytest.mark.parametrize(("moves", "query", "lines"), CAPTIONS)
def test_the_caption_says_who_played_and_how_it_ended(moves, query, lines):
    assert picture.caption.Font.load() is not None, "the font (Debian's fonts-dejavu-core) is missing"
    game = Game.of_moves(parse_moves(moves))
    players = Players.from_query(dict(parse_qsl(query)))
    assert captioned(game, players, picture.SIZE)[0] == lines
    assert all(caption_width(line) <= picture.SIZE - 2 * picture.caption.MARGIN for line in lines)


def caption_width(line: str) -> int:
    return picture.caption.line_width(picture.caption.Font.load(), line)


def ink(png: bytes) -> bytes:
    """The caption's pixels, under the board."""
    raw = zlib.decompress(b"".join(chunk for kind, chunk in chunks(png) if kind == b"IDAT"))
    width = 3 * picture.SIZE + 1
    return raw[picture.SIZE * width :]


def chunks(png: bytes):
    at = 8
    while at < len(png):
        length, kind = struct.unpack(">I4s", png[at : at + 8])
        yield kind, png[at + 8 : at + 8 + length]
        at += 12 + length


def test_the_picture_draws_the_caption_under_the_board_and_keeps_one_per_caption(client):
    picture.png.cache_clear()
    page = Page(client.get("/review/0-1-4-2-8?x=Ann&o=Bo").text)
    image = next(m.attrs["content"] for m in page.root.iter("meta") if m.attrs.get("property") == "og:image")
    assert image.endswith("/review/0-1-4-2-8/board.png?o=Bo&x=Ann")
    height = next(m.attrs["content"] for m in page.root.iter("meta") if m.attrs.get("property") == "og:image:height")
    named = client.get("/review/0-1-4-2-8/board.png?x=Ann&o=Bo").data
    assert (
        struct.unpack(">II", dict(chunks(named))[b"IHDR"][:8]) == (picture.SIZE, picture.HEIGHT) == (600, int(height))
    )
    unnamed = client.get("/review/0-1-4-2-8/board.png").data
    blank = bytes(picture.BACKGROUND) * picture.SIZE
    inked = [row for row in ink(named).split(b"\0") if row and row != blank]
    assert inked and ink(named) != ink(unnamed)  # the words are drawn, and differ by name
    assert picture.png.cache_info().currsize == 2
    for query in ("x=%E6%9D%8E", "o=%E6%9D%8E"):  # a name with no glyph: drawn as X beat O, kept once
        assert client.get(f"/review/0-1-4-2-8/board.png?{query}").data == unnamed
    assert picture.png.cache_info().currsize == 2


def test_names_in_new_letters_beyond_the_budget_are_said_by_their_marks(monkeypatch):
    """A flood of names in letters never filled costs at most the process's budget: past it,
    the caption says the mark, while a name in the common letters is still said."""
    monkeypatch.setattr(caption_module, "FILLS", caption_module.Budget(rate=5))
    game = Game.of_moves(parse_moves("0-3-1-4-2"))
    greek = [chr(c) for c in range(0x3B1, 0x3CA)]  # small letters, not filled at start-up
    said = [captioned(game, Players(names=("".join(greek[n : n + 3]), "Bo")), picture.SIZE)[0] for n in (0, 3, 6)]
    assert said == [("Αβγ (X) beat Bo (O)",), ("X beat O",), ("X beat O",)]


def test_a_picture_short_of_its_names_for_the_budget_is_kept_briefly(client, monkeypatch):
    """Names left out for the letters' budget alone may be drawn later: a short cache;
    names the caption can never draw (no glyph, right to left) keep the day's cache."""
    monkeypatch.setattr(caption_module, "FILLS", caption_module.Budget(rate=0.001))
    kept = {
        query: client.get(f"/review/0-1-4-2-8/board.png?{query}").headers["Cache-Control"]
        for query in ("x=Ann&o=Bo", "x=%CE%B6%CE%B7%CE%B8&o=Bo", "x=%D9%85%D8%AD%D9%85%D8%AF&o=Bo")
    }
    assert kept == {
        "x=Ann&o=Bo": "public, max-age=86400",
        "x=%CE%B6%CE%B7%CE%B8&o=Bo": "public, max-age=60",  # Greek letters not yet filled: over the budget
        "x=%D9%85%D8%AD%D9%85%D8%AF&o=Bo": "public, max-age=86400",
    }


def meta(page: Page, name: str) -> str:
    return next(m.attrs["content"] for m in page.root.iter("meta") if m.attrs.get("property") == name)


@pytest.mark.parametrize(
    ("query", "said", "accuracy"),
    [
        ("you=X&ai=easy", "X beat the AI (O, Easy) in 3 moves", "X: 100 % accuracy."),
        ("x=Ann&o=Bo", "Ann (X) beat Bo (O) in 3 moves", "Ann (X): 100 % accuracy."),
    ],
)
def test_the_links_preview_speaks_of_the_players_to_whoever_receives_it(client, query, said, accuracy):
    """The preview is read by whoever the link is sent to: "X beat the AI", as the caption says
    it, never "You won" nor "I won"."""
    page = Page(client.get(f"/review/0-3-1-4-2?{query}").text)
    game, players = Game.of_moves(parse_moves("0-3-1-4-2")), Players.from_query(dict(parse_qsl(query)))
    assert " ".join(captioned(game, players, picture.SIZE)[0]) + " in 3 moves" == said
    assert meta(page, "og:title") == f"Tic-tac-toe, move by move: {said}"
    assert meta(page, "og:image:alt") == f"The final board: {said}"
    description = meta(page, "og:description")
    assert f": {said}. " in description and accuracy in description
    assert not {"I", "my", "you", "You", "your"} & set(description.replace(".", " ").replace(",", " ").split())
