"""The path through /learn/: six steps in the lecture's order, progress kept in the session by
POST alone; what its pages state, against the independent judge and tracer; and the explorer's
links into it."""

import random
import re
from functools import cache

import pytest

from tests import tracer
from tests.judge import alphabeta as judge_alphabeta
from tests.judge import calls, children, is_over, reachable
from tests.page import Page

pytestmark = pytest.mark.unit
EMPTY = "." * 9
LECTURE = [
    "The game tree",
    "Backing up values",
    "MAX-VALUE and MIN-VALUE, traced",
    "Your tictactoe.py",
    "Alpha-beta pruning",
    "Depth limits and evaluation",
]


@pytest.fixture
def client(app):
    return app.test_client()


def shown(client, url: str, status: int = 200) -> Page:
    response = client.get(url)
    assert response.status_code == status, response.text
    assert "Set-Cookie" not in response.headers  # a GET changes nothing
    if url.startswith(("/learn/step/", "/learn/?", "/learn/#")) or url == "/learn/":
        assert "public" not in response.headers.get("Cache-Control", "")  # it shows this session's progress
    return Page(response.text)


def steps_done(client) -> tuple[list[str], str]:
    page = shown(client, "/learn/")
    ticked = [li.attrs["data-step"] for li in page["path"].iter("li") if li.attrs["data-done"] == "true"]
    return ticked, page["progress"].attrs["data-next"]


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_path_is_the_lectures_order_one_page_each_with_an_exercise_and_next(client):
    page = shown(client, "/learn/")
    items = list(page["path"].iter("li"))
    assert [next(li.iter("a")).text for li in items] == LECTURE
    assert "No step visited yet" in page["progress"].text
    for number, title in enumerate(LECTURE, 1):
        step = shown(client, f"/learn/step/{number}")
        assert step["step-title"].text == f"{number}. {title}"
        assert step["exercise"].attrs["aria-labelledby"] == "exercise-title"
        assert step["exercise-title"].text.startswith("Exercise: ")
        form = step["next-step"]
        assert form.attrs["method"] == "post" and form.attrs["action"] == f"/learn/step/{number}"
        for link in step["exercise"].iter("a"):
            href = link.attrs["href"]
            if not href.startswith("/grade/"):
                assert client.get(href).status_code in (200, 303), href


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_each_exercise_page_leads_back_to_its_step(client):
    opened = {2: ["exercise-link"], 3: ["exercise-link"], 5: ["exercise-link", "alphabeta-trace"], 6: ["exercise-link"]}
    for number, links in opened.items():
        step = shown(client, f"/learn/step/{number}")
        for ident in links:
            response = client.get(step[ident].attrs["href"], follow_redirects=True)
            back = Page(response.text)["path-step-link"]
            assert next(back.iter("a")).attrs["href"] == f"/learn/step/{number}"
            assert back.text.endswith(LECTURE[number - 1])


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_next_marks_a_step_done_in_the_session_and_only_a_post_does(client):
    for url in ("/learn/", "/learn/step/3", "/learn/step/1?position=..XOOXOX.&check=1&positions=1&leaves=1"):
        client.get(url)
    assert steps_done(client) == ([], "1")
    response = client.post("/learn/step/1")
    assert response.status_code == 303 and response.headers["Location"] == "/learn/step/2"
    assert steps_done(client) == (["1"], "2")
    client.post("/learn/step/3")
    client.post("/learn/step/3")  # twice counts once
    assert steps_done(client) == (["1", "3"], "2")
    page = shown(client, "/learn/step/3")
    assert "visited" in page["learn-step"].text.split("step 3 of 6")[1][:20]
    assert "2 of 6 steps visited" in shown(client, "/learn/")["progress"].text
    for number in (2, 4, 5):
        client.post(f"/learn/step/{number}")
    last = client.post("/learn/step/6")
    assert last.status_code == 303 and last.headers["Location"] == "/learn/#path"
    page = shown(client, "/learn/")
    assert page["progress"].attrs["data-done"] == "6" and "6 of 6 steps visited" in page["progress"].text
    assert "done" not in page["progress"].text and "Well done" not in page.html  # Next is no exercise answered
    assert client.post("/learn/restart").status_code == 303
    assert steps_done(client) == ([], "1")


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_path_refuses_what_is_not_a_step(client):
    assert client.post("/learn/step/7").status_code == 404
    assert client.post("/learn/step/0").status_code == 404
    assert "steps 1 to 6" in client.get("/learn/step/9").text
    other_site = client.post("/learn/step/1", headers={"Sec-Fetch-Site": "cross-site"})
    assert other_site.status_code == 403
    assert steps_done(client) == ([], "1")
    refused = shown(client, "/learn/step/1?position=XXXXXXXXX", 400)
    assert "2 to 4 empty cells" in refused.html


def tree_counts(pos: str) -> tuple[int, int]:
    """(positions, finished games) of the game tree below `pos`, by the judge's rules."""
    below = calls(pos)
    return len(below), sum(is_over(p) for p in below)


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_tree_exercise_is_graded_against_the_judge(client):
    small = sorted(p for p in reachable() if not is_over(p) and 2 <= p.count(".") <= 4)
    for pos in ["..XOOXOX.", *random.Random(45).sample(small, 12)]:
        positions, leaves = tree_counts(pos)
        right = shown(client, f"/learn/step/1?position={pos}&check=1&positions={positions}&leaves={leaves}")
        graded = {li.attrs["data-name"]: li.attrs for li in right["tree-answers"].iter("li")}
        assert graded["positions"]["data-truth"] == str(positions) and graded["positions"]["data-right"] == "true"
        assert graded["leaves"]["data-truth"] == str(leaves) and graded["leaves"]["data-right"] == "true"
        wrong = shown(client, f"/learn/step/1?position={pos}&check=1&positions={positions + 1}&leaves={leaves}")
        graded = {li.attrs["data-name"]: li.attrs["data-right"] for li in wrong["tree-answers"].iter("li")}
        assert graded == {"positions": "false", "leaves": "true"}
        assert f"{positions + 1} is too many" in wrong["tree-answers"].text
        first = next(wrong["tree-answers"].iter("li")).attrs
        assert "data-truth" not in first  # the truth only when asked: tests/test_learn_feedback.py


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
@pytest.mark.parametrize("typed", ["1000000", "999999999", "-12345678"])
def test_a_count_as_long_as_the_box_takes_is_read_as_a_number(client, typed):
    """The boxes take 9 characters: every whole number that fits is graded as one, never called
    "not a whole number"."""
    page = shown(client, f"/learn/step/1?position=..XOOXOX.&check=1&positions={typed}&leaves={typed}")
    said = page["tree-answers"].text
    assert "not a whole number" not in said
    assert ("is too many" in said) if typed[0] != "-" else ("a count cannot be negative" in said)


@cache
def plain_steps(pos: str) -> int:
    """Steps of the plain trace from `pos`: its test and return, its start, and per action the
    call, the child's steps and the value back; a finished game, its test and its return."""
    if is_over(pos):
        return 2
    return 3 + sum(2 + plain_steps(child) for child in children(pos).values())


def test_the_step_count_rule_is_the_independent_tracers():
    for pos in ("X.O.X.O..", "XO..X.O..", "XOXOX....", "XXOOX...."):
        assert plain_steps(pos) == len(list(tracer.trace(pos, False)))


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_trace_steps_stated_on_step_three_are_the_independent_counts(client):
    help_text = shown(client, "/learn/step/3")["trace-board-help"]
    said = " ".join(help_text.text.split())
    for empty, name in ((4, "four"), (5, "five")):
        counts = [plain_steps(p) for p in reachable() if p.count(".") == empty and not is_over(p)]
        low, high = min(counts), max(counts)
        assert help_text.attrs[f"data-{name}"] == f"{low}-{high}"
        assert f"{name} empty cells takes {low:,} to {high:,}" in said or f"{name} {low:,} to {high:,}" in said
    assert (low, high) == (431, 1354)  # five empty cells: the issue's own count, not "a few hundred"
    assert "a game not yet over with four empty cells" in said  # a finished board takes 2 steps
    assert f"plain minimax takes {plain_steps(EMPTY):,} steps" in said
    exercise = shown(client, "/learn/step/3")["exercise"].text
    assert f"X.O.X.O.. ({plain_steps('X.O.X.O..'):,} steps)" in " ".join(exercise.split())


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_figures_of_steps_one_and_five_are_the_judges(client):
    plain = len(calls(EMPTY))
    assert shown(client, "/learn/step/1")["empty-tree"].text == f"{plain:,}"
    visited: list[str] = []
    judge_alphabeta(EMPTY, -2, 2, visited, [])
    step = shown(client, "/learn/step/5")
    assert (step["calls-plain"].text, step["calls-alphabeta"].text) == (f"{plain:,}", f"{len(visited):,}")


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_board_the_trace_form_cannot_read_comes_back_on_step_three(client):
    page = shown(client, "/learn/trace/?board=XY&pruning=1", 400)
    assert page["learn-step"].attrs["data-step"] == "3"
    assert page["trace-board-text"].attrs["value"] == "XY" and page["trace-board-error"].text


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_every_explorer_position_links_its_pseudocode_trace_and_its_depth_limited_search(client):
    positions = sorted(reachable())
    for pos in [*random.Random(9).sample(positions, 25), "XXXOO....", "XOXXOOOXX"]:
        page = shown(client, f"/explore/{pos}")
        links = page["to-learn"]
        trace = links.by_id("to-pseudocode-trace").attrs["href"]
        assert trace == f"/learn/trace/{pos}" and client.get(trace).status_code == 200
        limited = links.by_id("to-depth-limited")
        if is_over(pos):
            assert limited is None
        else:
            assert (
                limited.attrs["href"] == f"/learn/limited/{pos}"
                and client.get(limited.attrs["href"]).status_code == 200
            )


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_empty_boards_trace_can_start_at_a_short_game(client):
    links = shown(client, "/explore/")["to-learn"]
    assert links.by_id("to-pseudocode-trace").attrs["href"] == "/learn/trace/X.O.X.O.."
    assert links.by_id("to-full-trace").attrs["href"] == f"/learn/trace/{EMPTY}"
    said = " ".join(links.text.split())
    assert f"X.O.X.O.. ({plain_steps('X.O.X.O..'):,} steps)" in said
    assert f"({plain_steps(EMPTY):,} steps)" in said
    assert re.search(r"from a short game", said)
