"""The three minimax bugs shown to students: what each one plays, checked against the
judge, and the page that shows them."""

import pytest

from tests import judge
from tests.page import Page
from tests.test_engine import LIVE, board
from ttt_web.core import bugs


def utility_value(pos: str) -> int:
    """Minimax value for X with no depth, by the judge's own rules."""
    return judge.value(pos)[0]


def values(pos: str) -> dict[int, int]:
    return {cell: utility_value(child) for cell, child in judge.children(pos).items()}


def test_each_bug_chooses_exactly_as_its_code_says_in_every_live_position():
    for pos in LIVE:
        found = values(pos)
        best = (max if judge.to_move(pos) == "X" else min)(found.values())
        equal = [divmod(cell, 3) for cell in sorted(found) if found[cell] == best]
        choices = {bug.slug: bug.choices(board(pos)) for bug in bugs.BUGS}
        assert choices["no-depth"] == equal, pos
        assert choices["first-tie"] == equal[:1], pos
        top = max(found.values())  # X's best, whoever is to move
        assert choices["wrong-player"] == [divmod(min(c for c, v in found.items() if v == top), 3)], pos


def test_the_depthless_version_may_take_a_slower_win():
    pos, action = bugs.telling_position("no-depth")
    cell = 3 * action[0] + action[1]
    assert judge.move_outcome(pos, cell)[0] == "win" and cell not in judge.optimal_moves(pos)


@pytest.mark.parametrize("bug", bugs.BUGS, ids=lambda b: b.slug)
def test_each_bug_has_a_telling_position_where_its_move_is_worse(bug):
    pos, action = bugs.telling_position(bug.slug)
    cell = 3 * action[0] + action[1]
    assert cell not in judge.optimal_moves(pos)
    assert action in bug.choices(board(pos))


def test_the_wrong_player_bug_loses_to_the_engine_as_o():
    cells = bugs.game(next(b for b in bugs.BUGS if b.slug == "wrong-player"), "O")
    assert len(cells) % 2 == 1  # X moved last: X won


def test_the_page_shows_each_bug_with_its_position_and_games(client):
    response = client.get("/explore/bugs")
    assert response.status_code == 200 and response.headers["Cache-Control"].startswith("public")
    page = Page(response.text)
    for bug in bugs.BUGS:
        section = page[f"bug-{bug.slug}"]
        pos, _ = bugs.telling_position(bug.slug)
        assert section.attrs["data-position"] == pos and section.attrs["data-verdict"] != "best"
        links = [a.attrs["href"] for a in section.iter("a")]
        assert f"/explore/{pos}" in links and sum(href.startswith("/review/") for href in links) == 2
