"""The assignment's action (i, j) beside each cell name on every page that names cells:
i the row from the top, j the column from the left, both from 0, checked against where
the judge's positions put the mark (cell 3 * i + j, row by row)."""

import re

import pytest

from tests import judge
from tests.page import Page

NAMED = re.compile(r"\b([abc])([123]) \((\d), (\d)\)")
PAGES = [
    "/explore/XX.OO....",
    "/explore/XOXOX..../trace/3",
    "/explore/bugs",
    "/review/4-0-8-2-6",
    "/review/4-0-8-2-6?ply=2",
    "/review/4-0-8-2-6/retry/1",
    "/practice/?position=XO.......",
]  # not the game's own page: players are spoken to in cell names alone


@pytest.mark.parametrize("url", PAGES)
def test_every_cell_name_has_its_action_beside_it(client, url):
    text = Page(client.get(url).text)["main"].text
    pairs = NAMED.findall(text)
    assert pairs or "(i, j)" in text, url
    for column, row, i, j in pairs:
        assert (int(i), int(j)) == (int(row) - 1, "abc".index(column)), (url, column + row)


def test_the_board_says_once_how_i_and_j_map_to_cells(client):
    page = Page(client.get("/explore/").text)
    legend = page["ij-legend"].text
    assert "i the row from the top, j the column from the left, both from 0" in legend
    assert "a1 is (0, 0) and c1 (0, 2)" in legend
    assert [td.attrs["data-row"] + td.attrs["data-col"] for td in page["board"].iter("td")][2] == "02"  # c1, top right


def test_each_listed_moves_action_is_where_its_child_has_the_new_mark(client):
    pos = "X...O...."
    page = Page(client.get(f"/explore/{pos}").text)
    for item in page["moves"].iter("li"):
        link = next(item.iter("a"))
        child = link.attrs["href"].removeprefix("/explore/")
        i, j = (int(n) for n in re.search(r"\((\d), (\d)\)", item.text).groups())
        assert child in judge.children(pos).values() and child[3 * i + j] != pos[3 * i + j], item.text


@pytest.mark.parametrize("url", [url for url in PAGES if "bugs" not in url and "trace" not in url])
def test_every_board_beside_actions_says_how_i_and_j_map_to_cells(client, url):
    """A page that writes cells as (i, j) next to a board explains the pair under the board."""
    page = Page(client.get(url).text)
    assert "i the row from the top, j the column from the left" in page["ij-legend"].text, url
