"""The review's PNG picture: the final board with its marks and winning line, one picture per
final board whatever the order of moves, and under it a caption that says who played and how
it ended, each name in a font that has its letters, laid out right to left and joined where
its script is, kept once per board and words."""

import io
from urllib.parse import parse_qsl, urlencode

import pytest
from PIL import Image, ImageDraw, ImageFont

from tests.page import Page
from ttt_web.core.endings import ending_asked
from ttt_web.core.game import Game
from ttt_web.core.players import Players
from ttt_web.core.position import parse_moves
from ttt_web.review import caption, font, picture
from ttt_web.review.caption import captioned, written


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert (image.format, image.size) == ("PNG", (picture.SIZE, picture.HEIGHT))
    return image.convert("RGB")


BOARDS = [
    ("XOXOOXXXO", ()),  # a draw: every cell's mark
    (".XOXO.OX.", (2, 4, 6)),  # O's line over O's marks, beside X's
    ("X.O.X.O.X", (0, 4, 8)),
    ("....X....", ()),
]


@pytest.mark.parametrize(("marks", "line"), BOARDS)
def test_the_picture_draws_each_mark_in_its_cell_and_the_winning_line_over_its_cells(marks, line):
    image = decoded(picture.png(marks, line, ()))
    assert image.getpixel((0, 0)) == picture.BACKGROUND and image.getpixel((picture.CELL, 100)) == picture.GRID
    for cell, mark in enumerate(marks):
        left, top = picture.CELL * (cell % 3), picture.CELL * (cell // 3)
        colours = {colour for _, colour in image.crop((left, top, left + picture.CELL, top + picture.CELL)).getcolors()}
        for shown, colour in picture.COLOURS.items():
            assert (colour in colours) == (mark == shown), (cell, shown)
        middle = image.getpixel((left + picture.CELL // 2, top + picture.CELL // 2))
        assert (middle == picture.LINE) == (cell in line), cell


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
    ("0-1-4", "x=Анна&o=Bo", ("Unfinished: Bo (O) to move",)),
    ("0-1-4", "x=李&o=Анна", ("Unfinished: Анна (O) to move",)),
    ("0-1-4-2-8", "x=李小龍", ("李小龍 (X) beat O",)),
    ("0-1-4-2-8", "x=محمد&o=Bartholomew", ("محمد (X) beat Bartholomew (O)",)),  # right to left, joined
    ("0-1-4-2-8", "x=דנה&o=Bo", ("דנה (X) beat Bo (O)",)),
    ("0-1-4-2-8", "x=Bo&o=Jose\u0301", ("Bo (X) beat Jose\u0301 (O)",)),  # a combining accent
    ("0-1-4-2-8", "x=Bo&o=अनु", ("Bo (X) beat अनु (O)",)),  # Devanagari: shaped
    ("0-1-4-2-8", "x=Bo&o=𑠀𑠁", ("X beat O",)),  # Dogra: no installed font has it, so both by their marks
    ("0-1-4", "x=Ann&o=Bo&resigned=O", ("Bo (O) resigned or left: Ann (X) won",)),  # a room's, as its review says
    ("0-2-1-5", "you=X&ai=easy&left=X", ("X left where the AI (O, Easy)", "wins with best play")),
]


@pytest.mark.parametrize(("moves", "query", "lines"), CAPTIONS)
def test_the_caption_says_who_played_and_how_it_ended(moves, query, lines):
    assert font.words() is not None, "the font (Debian's fonts-dejavu-core) is missing"
    game = Game.of_moves(parse_moves(moves))
    asked = dict(parse_qsl(query))
    players = Players.from_query(asked)
    laid = captioned(game, players, picture.SIZE, ending_asked(asked, game, players))
    assert written(laid) == lines
    assert all(caption.line_width(line) <= picture.SIZE - 2 * caption.MARGIN for line in laid)


NAMES = {  # two names in each script: different pictures, each naming its players
    "Latin": ("Ann", "Zoë"),
    "Cyrillic": ("Анна", "Борис"),
    "Arabic": ("محمد", "فاطمة"),
    "Hebrew": ("דנה", "יוסף"),
    "Devanagari": ("अनु", "प्रिया"),
    "Chinese": ("李雷", "王芳"),
}


@pytest.mark.parametrize("script", NAMES)
def test_two_names_in_a_script_give_two_pictures_each_saying_its_name(client, script):
    pictures = []
    for name in NAMES[script]:
        query = urlencode({"x": name, "o": "Bo"})
        assert written(captioned(Game.of_moves((0, 1, 4, 2, 8)), Players(names=(name, "Bo")), picture.SIZE)) == (
            f"{name} (X) beat Bo (O)",
        )
        pictures.append(decoded(client.get(f"/review/0-1-4-2-8/board.png?{query}").data).tobytes())
    assert pictures[0] != pictures[1]


def ink(text: str, face: ImageFont.FreeTypeFont) -> bytes:
    image = Image.new("L", (300, 60))
    ImageDraw.Draw(image).text((10, 45), text, font=face, fill=255, anchor="ls")
    return image.tobytes()


def test_a_right_to_left_name_is_written_right_to_left_and_arabic_letters_joined():
    """Laid out by raqm: a Hebrew name's letters from right to left, as its letters taken in
    reverse order and set left to right, one by one; an Arabic name's letters joined, so not
    even that."""
    hebrew, arabic = font.font_for("שרה"), font.font_for("محمد")
    one_by_one = ImageFont.truetype(hebrew.path, font.TEXT_SIZE, layout_engine=ImageFont.Layout.BASIC)
    assert ink("שרה", hebrew) == ink("הרש", one_by_one) != ink("שרה", one_by_one)
    assert ink("محمد", arabic) not in {ink("محمد", one_by_one), ink("دمحم", one_by_one)}


def test_the_picture_draws_the_caption_under_the_board_and_keeps_one_per_caption(client):
    picture.png.cache_clear()
    page = Page(client.get("/review/0-1-4-2-8?x=Ann&o=Bo").text)
    assert meta(page, "og:image").endswith("/review/0-1-4-2-8/board.png?o=Bo&x=Ann")
    assert int(meta(page, "og:image:height")) == picture.HEIGHT == 712
    named = decoded(client.get("/review/0-1-4-2-8/board.png?x=Ann&o=Bo").data)
    unnamed_png = client.get("/review/0-1-4-2-8/board.png").data
    unnamed = decoded(unnamed_png)
    band = (0, picture.SIZE, picture.SIZE, picture.HEIGHT)
    assert named.crop((0, 0, picture.SIZE, picture.SIZE)) == unnamed.crop((0, 0, picture.SIZE, picture.SIZE))
    assert picture.LINE in {colour for _, colour in named.crop(band).getcolors(4096)}  # the words are drawn
    assert named.crop(band) != unnamed.crop(band)  # and differ by name
    assert picture.png.cache_info().currsize == 2
    for query in ("x=%F0%91%A0%80", "o=%F0%91%A0%80"):  # a name no font has: drawn as X beat O, kept once
        response = client.get(f"/review/0-1-4-2-8/board.png?{query}")
        assert response.data == unnamed_png
        assert response.headers["Cache-Control"] == "public, max-age=86400"
    assert picture.png.cache_info().currsize == 2


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
    assert " ".join(written(captioned(game, players, picture.SIZE))) + " in 3 moves" == said
    assert meta(page, "og:title") == f"Tic-tac-toe, move by move: {said}"
    assert meta(page, "og:image:alt") == f"The final board: {said}"
    description = meta(page, "og:description")
    assert f": {said}. " in description and accuracy in description
    assert not {"I", "my", "you", "You", "your"} & set(description.replace(".", " ").replace(",", " ").split())
