"""Step 6's exercise (depth-limited search on ......O.X) states, for each depth and evaluation,
the move chosen, the values that make it right or wrong, the nodes searched and in how many
positions the same search goes wrong: each sentence checked here against the independent
depth-limited search (tests/depthlimit.py) and judge (tests/judge.py)."""

import pytest

from tests import depthlimit
from tests.judge import calls, children, is_over, minimax, reachable, to_move
from tests.page import Page

pytestmark = pytest.mark.unit
EXERCISE = "......O.X"
EVALUATIONS = ("zero", "open-lines", "weighted")
LIVE = sorted(p for p in reachable() if not is_over(p))


@pytest.fixture
def client(app):
    return app.test_client()


def shown(client, url: str) -> Page:
    response = client.get(url)
    assert response.status_code == 200, url
    return Page(response.text)


def cell_name(cell: int) -> str:
    i, j = divmod(cell, 3)
    return f"({i}, {j}) {'abc'[j]}{i + 1}"


def chosen(pos: str, depth: int, evaluation: str) -> int:
    """The cell the limited search picks: the first, in row order, of the best estimates."""
    estimates = {cell: depthlimit.limited(child, depth - 1, evaluation)[0] for cell, child in children(pos).items()}
    pick = max if to_move(pos) == "X" else min
    return pick(estimates, key=estimates.get)  # the first of equal values, as max() keeps it


def goes_wrong(pos: str, depth: int, evaluation: str) -> bool:
    kids = children(pos)
    pick = max if to_move(pos) == "X" else min
    return minimax(kids[chosen(pos, depth, evaluation)]) != pick(minimax(child) for child in kids.values())


def said(page: Page, ident: str) -> str:
    return " ".join(page[ident].text.split())


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_step_six_asks_a_question_the_exercise_answers(client):
    """X to move and X can force a win; with depths 1 to 4 every evaluation comes to pick a best
    move (so "from which depth on" has an answer), and some pick a worse one before."""
    step = said(shown(client, "/learn/step/6"), "exercise")
    assert f"Search {EXERCISE} with a depth limit (X to move, and X can force a win)" in step
    assert to_move(EXERCISE) == "X" and minimax(EXERCISE) == 1
    wrong_at = {e: [d for d in range(1, 5) if goes_wrong(EXERCISE, d, e)] for e in EVALUATIONS}
    assert any(wrong_at.values())
    assert all(not depths or max(depths) < 4 for depths in wrong_at.values())
    assert wrong_at == {"zero": [], "open-lines": [1, 2], "weighted": [1]}  # as docs/learn.md says


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_every_sentence_of_the_exercise_page_is_the_independent_searchs(client):
    full = len(calls(EXERCISE))
    for evaluation in EVALUATIONS:
        for depth in range(1, 5):
            page = shown(client, f"/learn/limited/{EXERCISE}?depth={depth}&evaluation={evaluation}")
            cell = chosen(EXERCISE, depth, evaluation)
            kids = children(EXERCISE)
            best = max(minimax(child) for child in kids.values())
            verdict = said(page, "limited-verdict")
            if goes_wrong(EXERCISE, depth, evaluation):
                first_best = next(c for c, child in kids.items() if minimax(child) == best)
                assert verdict.startswith(
                    f"It goes wrong here: it picks {cell_name(cell)}, whose minimax value is "
                    f"{minimax(kids[cell])}, where {cell_name(first_best)} has minimax value {best}."
                ), verdict
            else:
                assert verdict.startswith(f"It chooses {cell_name(cell)}, an optimal action"), verdict
            nodes = depthlimit.limited(EXERCISE, depth, evaluation)[1]
            cost = f"It visits {nodes:,} nodes (this position included); full minimax visits {full:,} from here."
            assert said(page, "limited-cost") == cost


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
@pytest.mark.parametrize("evaluation", EVALUATIONS)
def test_the_count_of_positions_where_it_goes_wrong_is_the_independent_searchs(client, evaluation):
    page = shown(client, f"/learn/limited/{EXERCISE}?depth=1&evaluation={evaluation}")
    wrong = [p for p in LIVE if goes_wrong(p, 1, evaluation)]
    text = said(page, "mistakes")
    assert f"in {len(wrong):,} of the {len(LIVE):,} positions where a game is not over" in text
    listed = [a.attrs["href"].split("/")[3].split("?")[0] for a in page["mistake-list"].iter("a")] if wrong else []
    assert set(listed) <= set(wrong) and len(listed) == min(6, len(wrong))
    if len(wrong) > 6:
        assert f"the first {len(listed)} of them, fewest marks first:" in text
    marks = [9 - p.count(".") for p in listed]
    assert marks == sorted(marks)


def line_counts(pos: str) -> dict[str, int]:
    """X₂, X₁, O₂, O₁ as the page defines them: the lines with two (one) of a mark and none of the other."""
    lines = [[pos[n] for n in line] for line in depthlimit.LINES]
    return {
        f"{mark}{k}": sum(line.count(mark) == k and line.count(other) == 0 for line in lines)
        for mark, other in (("X", "O"), ("O", "X"))
        for k in (1, 2)
    }


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_weighted_formula_names_are_defined_where_it_is_shown_as_the_search_scores(client):
    """X₂, X₁, O₂, O₁ are said where the formula is (the paragraph and beside the form), and by
    that definition 3·X₂ + X₁ − (3·O₂ + O₁) is what the page's depth-1 values are on every
    unfinished child, as the independent search scores them."""
    page = shown(client, f"/learn/limited/{EXERCISE}?evaluation=weighted&depth=1")
    terms = (
        "X₂ counts the lines (rows, columns, diagonals) with two X and no O, X₁ those with one X and no O; "
        "O₂ and O₁ count O's lines the same way"
    )
    assert said(page, "evaluation-formula") == f"3·X₂ + X₁ − (3·O₂ + O₁), where {terms}"
    assert f"Weighted lines, 3·X₂ + X₁ − (3·O₂ + O₁): {terms}." in said(page, "evaluation-help")
    for pos in [EXERCISE, *LIVE[::400]]:
        page = shown(client, f"/learn/limited/{pos}?evaluation=weighted&depth=1")
        rows = [tr for tr in page["limited-moves"].iter("tr") if "data-action" in tr.attrs]
        for tr in rows:
            i, j = map(int, tr.attrs["data-action"].split(","))
            child = children(pos)[3 * i + j]
            if is_over(child):
                continue
            n = line_counts(child)
            by_terms = 3 * n["X2"] + n["X1"] - (3 * n["O2"] + n["O1"])
            assert by_terms == depthlimit.estimate(child, "weighted") == int(tr.attrs["data-estimate"]), (pos, child)
    refused = Page(client.get("/learn/limited/?board=XXXXXXXXX").text)  # the form alone, with what is wrong
    assert f"{terms}." in said(refused, "evaluation-help")
