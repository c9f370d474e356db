"""Step 1's exercise (count a small game tree), as a new student met it: a wrong count's hint
names every likely slip that gives exactly that count, each checked against counts made here
from the independent judge (tests/judge.py); a position the exercise does not take is refused
by saying beside its box what is wrong with it, with the ways back to step 1's own exercise
and to the path; an empty position box is the default exercise."""

import random
import re
from functools import cache

import pytest

from tests.judge import calls, children, is_over, reachable, unreachable_reason, won_by
from tests.page import Page

pytestmark = pytest.mark.unit
DEFAULT = "..XOOXOX."
REACHABLE = reachable()
# What each slip is called in the hint (the words it must hold when, and only when, it gives the count).
SAID = {
    "positions": {
        "left-out": "leaving out one position (the root, the position you start from, or any other)",
        "boards": "counting each different board once",
        "played-on": "playing on after three in a row",
    },
    "leaves": {
        "left-out": "leaving out one finished game",
        "boards": "counting each different finished board once",
        "full": "counting only the games that fill the board",
        "played-on": "playing on after three in a row",
    },
}


@pytest.fixture
def client(app):
    return app.test_client()


@cache
def played_on(pos: str) -> tuple[int, int]:
    """(nodes, leaves) of the tree as a student who plays on after three in a row draws it: only
    a full board ends a game."""
    if "." not in pos:
        return 1, 1
    below = [played_on(child) for child in children(pos).values()]
    return 1 + sum(n for n, _ in below), sum(leaves for _, leaves in below)


def slip_counts(pos: str) -> dict[str, dict[str, int]]:
    """The count each slip gives, by the judge's tree: its nodes, one per way play reaches a board."""
    below = calls(pos)
    ended = [p for p in below if is_over(p)]
    nodes, leaves = played_on(pos)
    return {
        "positions": {"left-out": len(below) - 1, "boards": len(set(below)), "played-on": nodes},
        "leaves": {
            "left-out": len(ended) - 1,
            "boards": len(set(ended)),
            "full": sum("." not in p for p in ended),
            "played-on": leaves,
        },
    }


def graded(client, pos: str, positions: int, leaves: int) -> dict[str, dict]:
    url = f"/learn/step/1?position={pos}&check=1&positions={positions}&leaves={leaves}"
    response = client.get(url)
    assert response.status_code == 200, url
    page = Page(response.text)
    answers = {}
    for li in page["tree-answers"].iter("li"):
        hint = next((s for s in li.iter("span") if "tree-hint" in s.attrs.get("class", "")), None)
        answers[li.attrs["data-name"]] = {**li.attrs, "text": li.text, "hint": hint}
    return answers


def assert_hint_says_each_slip_that_gives(got: dict, name: str, said: int, truth: int, slips: dict[str, int]):
    """A wrong count's hint: too many or too few, then every slip that gives exactly `said`
    named (and none other), or, when none does, no slip at all."""
    assert got["data-right"] == "false" and "data-truth" not in got
    text = " ".join(got["text"].split())
    assert f"{said} is too {'many' if said > truth else 'few'}." in text, text
    fitting = [slip for slip, count in slips.items() if count == said and count != truth]
    assert got["hint"].attrs.get("data-slips", "").split() == fitting, (name, said, slips, text)
    for slip, words in SAID[name].items():
        assert (words in text.lower()) == (slip in fitting), (name, said, slip, text)
    if len(fitting) > 1:
        assert f"Each of these slips gives {said}:" in text
    elif fitting:
        assert f"gives {said}." in text and "Each of these" not in text
    assert str(truth) not in set(re.findall(r"\d+", text)) - {str(said)}  # the answer is not given


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_ten_positions_on_the_default_exercise_names_both_slips_that_give_ten(client):
    """The student's case: ..XOOXOX.'s tree holds 11 positions on 10 different boards, so 10 is
    the root left out, or any other position, or a board reached two ways counted once."""
    below = calls(DEFAULT)
    assert (len(below), len(set(below))) == (11, 10)
    question = " ".join(Page(client.get("/learn/step/1").text)["exercise"].text.split())
    assert "How many positions (nodes) does it hold, this one included, a board counted once for each way" in question
    got = graded(client, DEFAULT, 10, 4)
    text = got["positions"]["text"].lower()
    assert "leaving out one position (the root, the position you start from, or any other)" in text
    assert "counting each different board once" in text
    assert got["positions"]["hint"].attrs["data-slips"] == "left-out boards"
    ended = [p for p in below if is_over(p)]
    assert (len(ended), len(set(ended))) == (5, 4)
    assert got["leaves"]["hint"].attrs["data-slips"] == "left-out boards"


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_every_slip_a_hint_names_gives_exactly_that_count_by_the_judge(client):
    small = sorted(p for p in REACHABLE if not is_over(p) and 2 <= p.count(".") <= 4)
    for pos in [DEFAULT, *random.Random(1).sample(small, 24)]:
        slips = slip_counts(pos)
        below = calls(pos)
        truths = {"positions": len(below), "leaves": sum(is_over(p) for p in below)}
        tried = {}
        for name, truth in truths.items():
            near = {truth - 2, truth - 1, truth + 1, truth + 3, 0, *slips[name].values()}
            tried[name] = sorted(n for n in near if n >= 0 and n != truth)
        longest = max(len(t) for t in tried.values())
        for k in range(longest):
            said = {name: counts[k % len(counts)] for name, counts in tried.items()}
            got = graded(client, pos, said["positions"], said["leaves"])
            for name in truths:
                assert_hint_says_each_slip_that_gives(got[name], name, said[name], truths[name], slips[name])


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_an_empty_position_box_is_the_default_exercise(client):
    below = calls(DEFAULT)
    for query in ("position=", "position=+", "position=&check=1&positions=11&leaves=5"):
        response = client.get(f"/learn/step/1?{query}")
        assert response.status_code == 200, query
        page = Page(response.text)
        assert page.form("tree-form")["position"] == DEFAULT
    got = graded(client, "", len(below), sum(is_over(p) for p in below))
    assert {a["data-right"] for a in got.values()} == {"true"}


def refused(client, typed: str) -> str:
    """Step 1 with a position of the student's own that it does not take: 400, the default
    exercise kept and nothing graded, the box holding what was typed, and beside it what is
    wrong with it and the ways back (step 1's own exercise, the path)."""
    query = {"position": typed, "check": "1", "positions": "3", "leaves": "1"}
    response = client.get("/learn/step/1", query_string=query)
    assert response.status_code == 400, typed
    page = Page(response.text)
    assert "Request not understood" not in page.html
    assert page.form("tree-form")["position"] == DEFAULT and page.root.by_id("tree-answers") is None
    box = page["tree-position-text"].attrs
    assert box["value"] == typed and box["aria-invalid"] == "true" and "tree-position-error" in box["aria-describedby"]
    error = page["tree-position-error"]
    links = [(a.text, a.attrs["href"]) for a in error.iter("a")]
    assert links == [("Back to step 1's own exercise", "/learn/step/1#exercise"), ("the path", "/learn/")]
    said = " ".join(error.text.split())
    largest = max(len(calls(p)) for p in REACHABLE if not is_over(p) and 2 <= p.count(".") <= 4)
    assert said.endswith(
        f"a game not yet over with 2 to 4 empty cells, like its own, {DEFAULT} ({DEFAULT.count('.')} empty cells): "
        f"a tree of at most {largest} positions. Back to step 1's own exercise · the path"
    ), said
    return said


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_position_with_too_many_or_too_few_empty_cells_is_refused_saying_how_many_and_why(client):
    live = [p for p in REACHABLE if not is_over(p)]
    chosen = ["." * 9, "X........", "XOXOXOOX."]
    chosen += [random.Random(empty).choice([p for p in live if p.count(".") == empty]) for empty in (1, 5, 6, 7)]
    for pos in chosen:
        empty = pos.count(".")
        said = refused(client, pos)
        cells = f"{empty} empty cell{'' if empty == 1 else 's'}"
        why = "too many to draw by hand" if empty > 4 else "too few to make an exercise"
        assert said.startswith(f"{pos} has {cells}, and its game tree holds {len(calls(pos)):,} positions: {why}.")


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_finished_game_a_board_no_game_reaches_or_no_board_is_refused_saying_why(client):
    for pos in random.Random(3).sample(sorted(p for p in REACHABLE if is_over(p)), 6):
        winner = won_by(pos)
        line = f"{winner} has three in a row" if winner else "the board is full with no line"
        assert refused(client, pos).startswith(f"In {pos}, {line}: its tree is that one position.")
    for pos in ("XXXXXXXXX", "OO.......", "XXXOOO...", "XXXOO.O.."):
        reason = unreachable_reason(pos)
        assert reason in refused(client, pos), pos
    for typed, reason in [("abc", "this has 3"), ("XO.XO.XO.X", "this has 10"), ("XY.......", "'Y' is not a mark")]:
        assert reason in refused(client, typed), typed


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_position_of_the_students_own_in_the_box_is_the_exercise(client):
    pasted = "[[X, O, EMPTY], [EMPTY, X, O], [X, O, EMPTY]]"
    page = Page(client.get("/learn/step/1", query_string={"position": pasted}).text)
    assert page.form("tree-form")["position"] == "XO..XOXO."
    form = page["tree-position"]
    assert form.attrs["method"] == "get" and form.attrs["action"] == "/learn/step/1#exercise"
    assert page["tree-position-text"].attrs["value"] == "" and page.root.by_id("tree-position-error") is None
    below = calls("XO..XOXO.")
    got = graded(client, "XO..XOXO.", len(below), sum(is_over(p) for p in below))
    assert {a["data-right"] for a in got.values()} == {"true"}
