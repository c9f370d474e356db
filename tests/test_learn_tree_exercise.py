"""Step 1's exercise (count a small game tree), as a new student met it: a wrong count's hint
says only too many or too few and the likely slips that err that way on this tree, never which
one gives the count typed, each checked against counts made here from the independent judge
(tests/judge.py); fewer positions than finished games asks whether the counts were swapped; a
position the exercise does not take is refused by saying beside its box what is wrong with it,
with the ways back to step 1's own exercise and to the path; an empty position box is the
default exercise."""

import random
import re
from functools import cache

import pytest

from tests.judge import calls, children, is_over, reachable, unreachable_reason, won_by
from tests.page import Page

pytestmark = pytest.mark.unit
DEFAULT = "..XOOXOX."
REACHABLE = reachable()
# What each slip is called in the hint (the words it must hold when, and only when, it errs the typed count's way).
SAID = {
    "positions": {
        "left-out": "a position left out (the root, where you start, or the last position of a branch)",
        "boards": "a board reached two ways counted once (it is two positions",
        "played-on": "play counted on after a game is over (three in a row ends it",
        "twice": "a position counted twice",
    },
    "leaves": {
        "left-out": "a finished game left out",
        "boards": "a finished board reached two ways counted once (it is two finished games",
        "full": "only the games that fill the board counted",
        "played-on": "play counted on after three in a row",
        "twice": "a finished game counted twice",
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
        "positions": {
            "left-out": len(below) - 1,
            "boards": len(set(below)),
            "played-on": nodes,
            "twice": len(below) + 1,
        },
        "leaves": {
            "left-out": len(ended) - 1,
            "boards": len(set(ended)),
            "full": sum("." not in p for p in ended),
            "played-on": leaves,
            "twice": len(ended) + 1,
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
    swapped = page.root.by_id("tree-swapped")
    answers["swapped"] = " ".join(swapped.text.split()) if swapped is not None else None
    return answers


def assert_hint_says_the_slips_that_err_its_way(got: dict, name: str, said: int, truth: int, slips: dict[str, int]):
    """A wrong count's hint: too many or too few, then every slip that errs that way on this tree
    by the judge's counts (and none other), whatever count it gives."""
    assert got["data-right"] == "false" and "data-truth" not in got
    text = " ".join(got["text"].split())
    too = "many" if said > truth else "few"
    assert f"{said} is too {too}. Slips that count too {too}: " in text, text
    erring = [slip for slip, count in slips.items() if count != truth and (count > truth) == (said > truth)]
    assert erring, (name, said, slips)  # a slip always errs each way: one left out, one counted twice
    assert got["hint"].attrs.get("data-slips", "").split() == erring, (name, said, slips, text)
    for slip, words in SAID[name].items():
        assert (words.lower() in text.lower()) == (slip in erring), (name, said, slip, text)
    assert "gives" not in text and "Count each" not in text
    assert str(truth) not in set(re.findall(r"\d+", text)) - {str(said)}  # the answer is not given


def hint_without_count(got: dict, said: int) -> str:
    text = " ".join(got["text"].split())
    return text.replace(f"{said} is too", "N is too", 1)


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_ten_positions_on_the_default_exercise_says_too_few_and_not_which_slip_gives_ten(client):
    """The student's case: ..XOOXOX.'s tree holds 11 positions on 10 different boards. 10 is too
    few, and the hint for 10 is the hint for 9 or 3: the slips that count too few, not which one
    gives 10 (that would give the answer away)."""
    below = calls(DEFAULT)
    assert (len(below), len(set(below))) == (11, 10)
    question = " ".join(Page(client.get("/learn/step/1").text)["exercise"].text.split())
    assert "How many positions (nodes) does it hold, this one included, a board counted once for each way" in question
    got = graded(client, DEFAULT, 10, 4)
    text = " ".join(got["positions"]["text"].split())
    assert "10 is too few. Slips that count too few: a position left out" in text, text
    assert "a board reached two ways counted once (it is two positions, one for each way play reaches it)" in text
    assert "gives 10" not in text and "Each of these" not in text
    assert got["positions"]["hint"].attrs["data-slips"] == "left-out boards"
    ended = [p for p in below if is_over(p)]
    assert (len(ended), len(set(ended))) == (5, 4)
    assert got["leaves"]["hint"].attrs["data-slips"] == "left-out boards full"
    for positions, leaves in ((9, 3), (3, 0)):
        other = graded(client, DEFAULT, positions, leaves)
        assert hint_without_count(other["positions"], positions) == hint_without_count(got["positions"], 10)
        assert hint_without_count(other["leaves"], leaves) == hint_without_count(got["leaves"], 4)
    many = " ".join(graded(client, DEFAULT, 12, 6)["positions"]["text"].split())
    assert "12 is too many. Slips that count too many: play counted on after a game is over" in many, many
    assert "a position counted twice" in many and "root included" not in many


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_every_slip_a_hint_names_errs_the_way_it_says_by_the_judge(client):
    small = sorted(p for p in REACHABLE if not is_over(p) and 2 <= p.count(".") <= 4)
    for pos in [DEFAULT, *random.Random(1).sample(small, 24)]:
        slips = slip_counts(pos)
        below = calls(pos)
        truths = {"positions": len(below), "leaves": sum(is_over(p) for p in below)}
        tried = {}
        for name, truth in truths.items():
            near = {truth - 2, truth - 1, truth + 1, truth + 3, 0, *slips[name].values()}
            tried[name] = sorted(n for n in near if n >= 0 and n != truth)
        hints = {}
        longest = max(len(t) for t in tried.values())
        for k in range(longest):
            said = {name: counts[k % len(counts)] for name, counts in tried.items()}
            got = graded(client, pos, said["positions"], said["leaves"])
            for name in truths:
                assert_hint_says_the_slips_that_err_its_way(got[name], name, said[name], truths[name], slips[name])
                side = (name, said[name] > truths[name])
                hints.setdefault(side, set()).add(hint_without_count(got[name], said[name]))
            swapped = said["positions"] < said["leaves"]
            assert (got["swapped"] is not None) == swapped, (pos, said)
            if swapped:  # true by the judge: every finished game is a position of the tree
                assert truths["leaves"] <= truths["positions"]
                assert got["swapped"].endswith("did you swap the two counts?")
        assert all(len(said) == 1 for said in hints.values()), hints  # one hint a side: the count is not told


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_no_swap_is_asked_of_a_right_count_or_of_no_count(client):
    """Fewer positions than finished games asks about a swap only when both are wrong counts: a right
    one, or a negative number, swapped would be no better."""
    below = calls(DEFAULT)
    nodes, leaves = len(below), sum(is_over(p) for p in below)
    for positions, finished in ((leaves - 1, leaves), (-nodes, leaves), (-nodes, nodes)):
        assert graded(client, DEFAULT, positions, finished)["swapped"] is None, (positions, finished)
    assert graded(client, DEFAULT, leaves - 1, leaves + 1)["swapped"] is not None


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_an_empty_position_box_is_the_default_exercise(client):
    below = calls(DEFAULT)
    for query in ("position=", "position=+", "position=&check=1&positions=11&leaves=5"):
        response = client.get(f"/learn/step/1?{query}")
        assert response.status_code == 200, query
        page = Page(response.text)
        assert page.form("tree-form")["position"] == DEFAULT
    got = graded(client, "", len(below), sum(is_over(p) for p in below))
    assert {got[name]["data-right"] for name in ("positions", "leaves")} == {"true"} and got["swapped"] is None


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
    said = re.sub(r"\s+([,:;.)])(?=\s|$)", r"\1", error.text)  # Page.text spaces out a <code> board
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
    assert {got[name]["data-right"] for name in ("positions", "leaves")} == {"true"} and got["swapped"] is None


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_call_by_call_link_says_how_the_traces_steps_are_its_calls_and_returns(client):
    """The trace the link opens counts a step for each call and one for each return of a position
    not finished (a finished game's call returns in its own step): the sentence says so with the
    judge's numbers, and the trace's heading counts the same steps."""
    small = sorted(p for p in REACHABLE if not is_over(p) and 2 <= p.count(".") <= 4)
    for pos in [DEFAULT, *random.Random(8).sample(small, 6)]:
        below = calls(pos)
        nodes, leaves = len(below), sum(is_over(p) for p in below)
        query = {"position": pos, "check": 1, "positions": nodes, "leaves": leaves}
        page = Page(client.get("/learn/step/1", query_string=query).text)
        said = " ".join(page["tree-drawn"].text.split())
        steps = nodes + (nodes - leaves)
        assert (
            f"plain minimax calls itself once on each position, so the trace's {steps} steps are its {nodes} calls "
            f"and the {nodes - leaves} returns of the positions not finished (a finished game's call returns in the "
            "same step)."
        ) in said, said
        trace = Page(client.get(page["tree-call-by-call"].attrs["href"]).text)
        assert trace["trace-title"].text == f"Plain minimax, step 1 of {steps}"
