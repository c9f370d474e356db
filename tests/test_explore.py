"""Exploring a position (/explore/<position>): every move's exact value, the principal
variation, refutations, the search costs, links into the tree; public pages."""

import pytest

from tests import judge
from tests.conftest import Player
from tests.page import Page
from ttt_web import costs
from ttt_web.app import create_app
from ttt_web.game import cell_name


def moves(page: Page) -> dict[str, dict]:
    return {item.attrs["data-cell"]: item.attrs for item in page["moves"].iter("li")}


def test_the_empty_board_shows_the_whole_games_costs(client):
    page = Page(client.get("/explore/.........").text)
    found = page["search-costs"].attrs
    expected = {"data-plain": "549946", "data-memo": "5478", "data-symmetry": "765"}
    assert {k: found[k] for k in expected} == expected
    assert int(found["data-alphabeta"]) == costs.costs(".........").alphabeta
    assert int(found["data-alphabeta-ordered"]) == costs.costs(".........").alphabeta_ordered
    assert len(moves(page)) == 9 and {m["data-value"] for m in moves(page).values()} == {"draw"}
    assert client.get("/explore/").text == client.get("/explore/.........").text


def test_a_position_shows_every_move_its_line_and_its_refutations(client):
    pos = "XX.OO...."  # X to move: c1 wins at once; anything else lets O win
    page = Page(client.get(f"/explore/{pos}").text)
    listed = moves(page)
    assert listed["c1"]["data-value"] == "win" and listed["c1"]["data-plies"] == "1"
    assert listed["c1"]["data-verdict"] == "best"
    assert listed["a3"]["data-value"] == "loss" and listed["a3"]["data-verdict"] == "blunder"
    assert "refuted by c2" in page["moves"].text
    assert page["principal-variation"].attrs["data-moves"] == "c1"
    links = [a.attrs["href"] for a in page["moves"].iter("a")]
    assert "/explore/XXXOO...." in links and len(links) == 5


def test_every_reachable_position_explained_as_the_judge_says(tmp_path):
    client = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3")}).test_client()
    for pos in sorted(judge.reachable()):
        response = client.get(f"/explore/{pos}")
        assert response.status_code == 200, pos
        page = Page(response.text)
        assert page.marks == pos
        if judge.is_over(pos):
            assert page.root.by_id("moves") is None
            continue
        expected = {cell_name(n): judge.move_outcome(pos, n) for n in judge.children(pos)}
        found = {cell: (m["data-value"], int(m["data-plies"])) for cell, m in moves(page).items()}
        assert found == expected, pos
        line = page["principal-variation"].attrs["data-moves"].split()
        assert len(line) == judge.value(pos)[1], pos
        assert int(page["search-costs"].attrs["data-memo"]) == costs.costs(pos).memo


@pytest.mark.parametrize(
    ("pos", "status"),
    [("abc", 400), ("XX.OO...", 400), ("XX.OO....x", 400), ("XXX......", 404), ("OO.......", 404), ("XXXOOOXO.", 404)],
)
def test_malformed_and_unreachable_positions_get_a_clear_page(client, pos, status):
    response = client.get(f"/explore/{pos}")
    assert response.status_code == status
    assert "Traceback" not in response.text and "position" in response.text


def test_explore_pages_are_public_cacheable_and_store_nothing(client, stored):
    client.get("/move?n=0&row=1&col=1")
    before = stored()
    response = client.get("/explore/X...O....")
    assert response.headers["Cache-Control"] == "public, max-age=86400"
    assert "Set-Cookie" not in response.headers
    assert stored() == before


def test_the_game_and_each_review_step_link_here(play):
    assert play.page()["explore"].attrs["href"] == "/explore/........."
    page = play.move(1, 1)
    assert play.page()["explore"].attrs["href"] == "/explore/" + page.marks
    review = Page(play.client.get("/review/4-0?ply=1").text)
    assert review["explore"].attrs["href"] == "/explore/....X...."


def test_a_player_can_follow_the_tree_from_the_root(client):
    player = Player(client)
    page = Page(client.get("/explore/").text)
    for _ in range(3):
        href = next(iter(page["moves"].iter("a"))).attrs["href"]
        page = Page(player.client.get(href).text)
    assert page.marks.count(".") == 6
