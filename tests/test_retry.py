"""Retry the mistakes of a reviewed game: each move that was not best, as the position
before it, where a try is graded at once against the independent judge."""

import pytest

from tests import judge
from tests.page import Page

GAME = "0-1-4-2-8"  # X a1, O b1 (a mistake), X b2, O c1 (an inaccuracy), X c3 wins


def tried(client, n: int, cell: int | None = None) -> Page:
    response = client.get(f"/review/{GAME}/retry/{n}" + (f"?try={cell}" if cell is not None else ""))
    assert response.status_code == 200
    return Page(response.text)


def test_the_review_links_to_its_retries(client):
    review = Page(client.get(f"/review/{GAME}").text)
    assert review["retry"].attrs["href"] == f"/review/{GAME}/retry/1"
    assert "2 moves" in review["retry"].text
    assert Page(client.get("/review/4-0-2-6-3-5-1-7-8").text).root.by_id("retry") is None  # all best


@pytest.mark.parametrize(("n", "before"), [(1, "X........"), (2, "XO..X....")])
def test_each_retry_is_the_position_before_the_move(client, n, before):
    page = tried(client, n)
    assert page.marks == before
    links = [a.attrs["href"] for a in page["board"].iter("a")]
    assert len(links) == before.count(".")
    assert page.root.by_id("retry-result") is None


@pytest.mark.parametrize("n", [1, 2])
def test_every_try_is_graded_by_the_judge(client, n):
    before = tried(client, n).marks
    best = judge.optimal_moves(before)
    for cell in (c for c in range(9) if before[c] == "."):
        page = tried(client, n, cell)
        result = page["retry-result"]
        assert (result.attrs["data-correct"] == "true") == (cell in best), (before, cell)
        links = list(page["board"].iter("a"))
        assert (not links) == (cell in best)  # solved: nothing left to try; else try again


def test_the_last_retry_leads_back_to_the_review(client):
    page = tried(client, 2)
    assert page["next"].attrs["href"] == f"/review/{GAME}" and page["previous"].attrs["href"].endswith("/retry/1")
    assert page["in-review"].attrs["href"] == f"/review/{GAME}?ply=4&show=better"
    assert page["answer"].attrs["href"] == f"/review/{GAME}/retry/2?show=answer"


@pytest.mark.parametrize("n", [1, 2])
def test_a_try_is_drawn_on_the_board_right_or_wrong(client, n):
    before = tried(client, n).marks
    mover, best = judge.to_move(before), judge.optimal_moves(before)
    for cell in (c for c in range(9) if before[c] == "."):
        page = tried(client, n, cell)
        assert page.marks == before[:cell] + mover + before[cell + 1 :]
        drawn = page.cells[cell]
        right = cell in best
        assert f"tried-{'right' if right else 'wrong'}" in drawn.attrs["class"]
        said = f"Row {cell // 3 + 1}, column {cell % 3 + 1}, your try: {mover}, " + (
            "right" if right else "not this one"
        )
        assert said in drawn.text  # every cell's label names its row and column


@pytest.mark.parametrize("n", [1, 2])
def test_the_answer_stays_in_the_retry_flow(client, n):
    before = tried(client, n).marks
    page = Page(client.get(f"/review/{GAME}/retry/{n}?show=answer").text)
    starred = [i for i, c in enumerate(page.cells) if "answer" in c.attrs["class"].split()]
    assert starred == sorted(judge.optimal_moves(before)) and not page.links
    for cell in starred:
        assert f"Row {cell // 3 + 1}, column {cell % 3 + 1}, the answer" in page.cells[cell].text
    assert page["retry-answer"].text.startswith("The answer: ")
    assert page["try-again"].attrs["href"] == f"/review/{GAME}/retry/{n}"
    assert page.root.by_id("next") is not None  # on to the next mistake, or back to the review


@pytest.mark.parametrize(
    ("path", "status"),
    [("/retry/3", 404), ("/retry/0", 404), ("/retry/1?try=0", 400), ("/retry/1?try=9", 400), ("/retry/1?try=x", 400)],
)
def test_retries_that_do_not_exist_get_a_clear_page(client, path, status):
    response = client.get(f"/review/{GAME}{path}")
    assert response.status_code == status and "Traceback" not in response.text


@pytest.mark.parametrize(
    ("game", "said"),
    [("0-4-1-2-5-6", "This game has 1 move to retry."), ("0-1-4-2-8", "This game has 2 moves to retry.")],
)
def test_a_retry_past_the_last_counts_the_moves_in_good_english(client, game, said):
    response = client.get(f"/review/{game}/retry/9")
    assert response.status_code == 404 and said in response.text
