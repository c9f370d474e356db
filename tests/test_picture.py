"""The review's PNG picture: laid together from parts drawn once, yet the same pixels as the
board drawn stroke by stroke, and one picture per final board whatever the order of moves."""

import pytest

from ttt_web.review import picture

pytestmark = pytest.mark.unit


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
