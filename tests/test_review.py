"""The game review (/review/<moves>): every move judged, a replay to step through, play on
from any position, a link to share, and pages that every visitor shares."""

import re

import pytest

from tests.page import Page
from ttt_web import judging
from ttt_web.game import cell_name

GAME = "0-1-4-2-8"  # X a1, O b1 (a mistake), X b2, O c1, X c3 wins


def moves_listed(page: Page) -> list[dict]:
    return [item.attrs for item in page["review-moves"].iter("li")]


def test_every_move_is_listed_with_the_judges_verdict(client):
    response = client.get(f"/review/{GAME}")
    assert response.status_code == 200
    listed = moves_listed(Page(response.text))
    judged = judging.review([divmod(int(c), 3) for c in GAME.split("-")])
    assert [m["data-ply"] for m in listed] == ["1", "2", "3", "4", "5"]
    assert [m["data-mark"] for m in listed] == ["X", "O", "X", "O", "X"]
    assert [m["data-cell"] for m in listed] == ["a1", "b1", "b2", "c1", "c3"]
    assert [m["data-verdict"] for m in listed] == [j.verdict for j in judged]
    assert [m["data-best"] for m in listed] == [
        " ".join(cell_name(3 * i + j) for i, j in x.best_actions) for x in judged
    ]
    assert listed[1]["data-verdict"] == "mistake" and listed[1]["data-best"] == "b2"


def test_the_summary_counts_best_moves_and_names_the_turning_point(client):
    page = Page(client.get(f"/review/{GAME}").text)
    counts = {item.attrs["data-mark"]: item.attrs for item in page["review-summary"].iter("li")}
    assert (counts["X"]["data-best"], counts["X"]["data-played"]) == ("3", "3")
    assert (counts["O"]["data-best"], counts["O"]["data-played"]) == ("0", "2")
    assert page["turning-point"].text == "Move 2, O at b1, turned a draw into a loss for O."
    assert "X won in 5 moves" in page["share-text"].text


@pytest.mark.parametrize("ply", range(6))
def test_each_ply_shows_its_board_its_verdict_and_its_neighbours(client, ply):
    page = Page(client.get(f"/review/{GAME}?ply={ply}").text)
    cells = [int(c) for c in GAME.split("-")[:ply]]
    assert page.marks == "".join("XO"[cells.index(n) % 2] if n in cells else "." for n in range(9))
    assert not page.links  # a review's board is read-only
    assert (page.root.by_id("previous") is not None) == (ply > 0)
    assert (page.root.by_id("next") is not None) == (ply < 5)
    verdict = page.root.by_id("verdict")
    assert (verdict.attrs["data-verdict"] if verdict else None) == (
        moves_listed(page)[ply - 1]["data-verdict"] if ply else None
    )
    if 0 < ply < 5:  # the position before the end carries the teach values for whoever is to move
        values = [c for c in page.cells if "data-value" in c.attrs]
        assert len(values) == 9 - ply


def test_the_mistake_is_explained_with_the_better_move_and_the_punishment(client):
    page = Page(client.get(f"/review/{GAME}?ply=2").text)
    text = page["verdict"].text
    assert text.startswith("Mistake: O at b1 loses") and "Better: b2, which holds the draw." in text
    assert "Perfect play from here:" in text


@pytest.mark.parametrize(
    ("path", "status", "words"),
    [
        ("x", 400, "A review link lists the cells played"),
        ("4-", 400, "A review link lists the cells played"),
        ("9", 400, "A review link lists the cells played"),
        ("1-2-3-4-5-6-7-8-0-1", 400, "A review link lists the cells played"),
        ("0-0", 404, "No game of tic-tac-toe has these moves"),
        ("0-3-1-4-2-5", 404, "No game of tic-tac-toe has these moves"),
        ("4?ply=2", 400, "numbered 0 to 1"),
        ("4?ply=x", 400, "numbered 0 to 1"),
    ],
)
def test_malformed_and_illegal_games_get_a_clear_page(client, path, status, words):
    response = client.get(f"/review/{path}")
    assert response.status_code == status
    assert words in response.text and "Traceback" not in response.text
    assert response.headers["Cache-Control"] == "no-store"


def test_review_pages_are_public_cacheable_and_store_nothing(client, stored, app):
    client.get("/move?n=0&row=1&col=1")  # a visitor with a game
    before = stored()
    for path in (f"/review/{GAME}", f"/review/{GAME}?ply=2", f"/review/{GAME}/board.svg"):
        response = client.get(path)
        assert response.headers["Cache-Control"] == "public, max-age=86400"
        assert "Set-Cookie" not in response.headers and "Cookie" not in response.headers.get("Vary", "")
    assert stored() == before


def test_the_final_board_is_an_svg_picture_for_link_previews(client):
    page = Page(client.get(f"/review/{GAME}").text)
    image = next(m.attrs["content"] for m in page.root.iter("meta") if m.attrs.get("property") == "og:image")
    assert image.endswith(f"/review/{GAME}/board.svg")
    response = client.get(f"/review/{GAME}/board.svg")
    assert response.mimetype == "image/svg+xml"
    assert response.text.count("<circle") == 2 and response.text.count("stroke-linecap") >= 4
    assert 'aria-label="X won in 5 moves."' in response.text


def test_a_finished_game_links_to_its_review(play):
    page = play.page()
    assert page.root.by_id("review") is None
    while page.state == "playing":
        play.follow(next(iter(page.links.values())))
        page = play.page()
    href = page["review"].attrs["href"]
    assert re.fullmatch(r"/review/[0-8](-[0-8])*", href)
    review = Page(play.client.get(href).text)
    assert review.marks == page.marks


@pytest.mark.parametrize(("form", "side"), [("start-ai", "O"), ("start-ai", "X"), ("start-friend", None)])
def test_play_on_from_a_reviewed_position(play, form, side):
    play.follow("/move?n=0&row=0&col=0")  # a game in progress, which the position does not touch
    review = Page(play.client.get(f"/review/{GAME}?ply=3").text)
    start = review["play-from-here"].attrs["href"]
    page = Page(play.client.get(start).text)
    assert page.marks == "XO..X...." and not page.links  # the position, drawn, and nothing to tap
    assert page.state == "start" and "O to move" in page["status"].text
    assert page.form(form)["from"] == "0-1-4"
    assert play.page().marks != "XO..X...."  # looking did not start anything
    play.client.post("/new", data={**page.form(form), **({"side": side} if side else {})})
    board = play.page()
    if side == "O":  # the human plays O, who is to move after three moves
        assert board.marks == "XO..X...." and board.state == "playing" and len(board.links) == 6
    elif side == "X":  # the AI plays O, and has moved
        assert board.marks.count(".") == 5 and len(board.links) == 5
    else:
        assert board.marks == "XO..X...." and len(board.links) == 6


@pytest.mark.parametrize("start", ["0-1-4-2-8", "0-0", "x", "4-"])
def test_no_game_starts_from_a_finished_or_impossible_position(play, start):
    assert play.client.get(f"/?from={start}").status_code == 400
    response = play.client.post("/new", data={**play.page().form("new-game"), "from": start})
    assert response.status_code == 400
    assert play.page().marks == "." * 9
