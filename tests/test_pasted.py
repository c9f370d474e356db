"""Paste a board: the forms a student has it in, read into a position, and every
unreachable board refused with its reason; checked against the judge's own reachable set."""

import itertools

import pytest

from tests import judge
from tests.page import Page
from ttt_web.core import pasted

LIST_FORM = "[[X, O, EMPTY], [EMPTY, X, EMPTY], [O, EMPTY, EMPTY]]"


def test_every_board_is_read_or_refused_as_the_judge_reaches_it():
    reachable = judge.reachable()
    for cells in itertools.product("XO.", repeat=9):
        pos = "".join(cells)
        if pos in reachable:
            assert pasted.parse(pos) == pos
            continue
        with pytest.raises(pasted.BoardError) as refused:
            pasted.parse(pos)
        assert judge.unreachable_reason(pos) in str(refused.value), pos


@pytest.mark.parametrize(
    "text",
    [
        "XO..X.O..",
        "xo..x.o..",
        "xo  x o  ",
        "XO__X_O__",
        "XO./.X./O..",
        "XO.\n.X.\nO..\n",
        LIST_FORM,
        '[["X", "O", None], [None, "X", None], ["O", None, None]]',
        "[['X','O',None],\n ['', 'X', None],\n ['O', None, None]]",
        # What print(board) shows, pasted as it is or with the line breaks a browser's field drops
        "[['X', 'O', None], [None, 'X', None], ['O', None, None]]",
        "[['X', 'O', None],\n [None, 'X', None],\n ['O', None, None]]",
        "[['X', 'O', None],  [None, 'X', None],  ['O', None, None]]",
        "[[X,O,EMPTY],[EMPTY,X,EMPTY],[O,EMPTY,EMPTY]]",
        "[['x', 'o', ''], ['', 'x', ' '], ['o', \"\", None]]",
        "[[X, O, _], [., X, -], [O, _, _]]",
        # Python's other spellings: a trailing comma, tuples, an assignment in front
        "[['X', 'O', None,], [None, 'X', None,], ['O', None, None,],]",
        "(('X', 'O', None), (None, 'X', None), ('O', None, None))",
        "board = [[X, O, EMPTY], [EMPTY, X, EMPTY], [O, EMPTY, EMPTY]]",
        # A row per line, as `for row in board: print(row)` shows it, and a browser's field joins it
        "['X', 'O', None]\n[None, 'X', None]\n['O', None, None]",
        "['X', 'O', None] [None, 'X', None] ['O', None, None]",
        "['X', 'O', None][None, 'X', None]['O', None, None]",
        "[X, O, EMPTY]\n[EMPTY, X, EMPTY]\n[O, EMPTY, EMPTY]",
        # Rows without brackets: commas count as separators, never as cells
        "X, O, EMPTY\nEMPTY, X, EMPTY\nO, EMPTY, EMPTY",
        "X, O, EMPTY EMPTY, X, EMPTY O, EMPTY, EMPTY",
        "X, O, EMPTYEMPTY, X, EMPTYO, EMPTY, EMPTY",
        "X,O,.\n.,X,.\nO,.,.",
        "X, O, None, None, X, None, O, None, None",
        "['X', 'O', None, None, 'X', None, 'O', None, None]",
        # Characters with spaces between cells or rows
        "X O .\n. X .\nO . .",
        "X O . . X . O . .",
        "XO. .X. O..",
        "x o _ / _ x _ / o _ _",
    ],
)
def test_the_forms_a_student_has_a_board_in(text):
    assert pasted.parse(text) == "XO..X.O.."


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("OO.......", r"O has more marks than X \(no X and two O\): X moves first"),
        ("XX.......", r"X has two more marks than O \(two X and no O\), but they take turns"),
        ("XXXOOO...", "Both X and O have three in a row: a game ends when the first line is made"),
        ("XXXOO.O..", r"X has three in a row, but O has as many marks \(three X and three O\): O moved after X won"),
        ("OOOXX.XX.", r"O has three in a row, but X has a mark more \(four X and three O\): X moved after O won"),
        ("XO", "9 cells"),
        ("XO.Z.....", "'Z' is not a mark"),
        ("[[X, O], [X, O, X], [O, X, O]]", "Row 1 has 2 cells"),
        ("[[X, O, Y], [EMPTY, X, EMPTY], [O, EMPTY, EMPTY]]", "'Y' is not a cell"),
        ("[[X, O, Xavier], [EMPTY, X, EMPTY], [O, EMPTY, EMPTY]]", "'Xavier' is not a cell"),
        ("[['X', 'O', ','], [None, 'X', None], ['O', None, None]]", "',' is not a cell"),
        ("[[X, O, EMPTY], [EMPTY, X, EMPTY]]", "This list has 6 cells; a board has 9"),
        ("X, O, EMPTY, X", "This list has 4 cells"),
        ("print(board)", "'print' is not a cell"),
        ("X | O |  \n---------\n  | X |  ", "Paste nine characters row by row"),
        ("X" * 500, "500 characters"),
    ],
)
def test_a_board_that_cannot_be_read_or_reached_says_why(text, says):
    with pytest.raises(pasted.BoardError, match=says):
        pasted.parse(text)


def test_a_pasted_board_opens_its_explorer_page(client):
    response = client.get("/explore/paste", query_string={"board": LIST_FORM})
    assert response.status_code == 303 and response.headers["Location"] == "/explore/XO..X.O.."
    assert Page(client.get("/explore/").text)["paste"].attrs["action"] == "/explore/paste"


def test_an_unreachable_board_is_refused_beside_the_field_with_the_text_kept(client):
    response = client.get("/explore/paste", query_string={"board": "xx......."})
    assert response.status_code == 400 and "Traceback" not in response.text
    page = Page(response.text)
    field = page["paste-board"]
    assert field.attrs["value"] == "xx......." and field.attrs["aria-invalid"] == "true"
    assert "paste-error" in field.attrs["aria-describedby"]
    said = "X has two more marks than O (two X and no O), but they take turns: X is at most one ahead."
    assert page["paste-error"].text == said
