"""What a new student found confusing on the /learn/ path, each put right and checked against
the independent judge (tests/judge.py), depth-limited search (tests/depthlimit.py) and tracer
(tests/tracer.py): step 1 lets them try again, ties are said as ties, the drills read every
way of writing a number and lead on to the next step, a trace's step past the end and a
board no game reaches say what helps."""

import itertools
import random
import re
from functools import cache

import pytest

from tests import depthlimit, tracer
from tests.judge import calls, children, is_over, reachable, to_move, unreachable_reason, value
from tests.page import Page
from ttt_web.core import pasted

pytestmark = pytest.mark.unit
REACHABLE = reachable()
EMPTY = "." * 9
MINUS = "\N{MINUS SIGN}"


@pytest.fixture
def client(app):
    return app.test_client()


def shown(client, url: str, status: int = 200) -> Page:
    response = client.get(url)
    assert response.status_code == status, (url, response.status_code)
    return Page(response.text)


def tree_facts(pos: str) -> dict[str, int]:
    """Step 1's counts by the judge: the tree's nodes and leaves (each way play reaches a board
    counted), its different boards and different finished boards, and the leaves that fill the board."""
    below = calls(pos)
    return {
        "nodes": len(below),
        "leaves": sum(is_over(p) for p in below),
        "boards": len(set(below)),
        "ended_boards": len({p for p in below if is_over(p)}),
        "full": sum(is_over(p) and "." not in p for p in below),
    }


def answers_of(page: Page) -> dict[str, dict]:
    return {li.attrs["data-name"]: {**li.attrs, "text": li.text} for li in page["tree-answers"].iter("li")}


SMALL = sorted(p for p in REACHABLE if not is_over(p) and 2 <= p.count(".") <= 4)


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_wrong_count_says_what_is_wrong_and_not_the_answer_until_asked(client):
    for pos in ["..XOOXOX.", *random.Random(6).sample(SMALL, 10)]:
        facts = tree_facts(pos)
        nodes, leaves = facts["nodes"], facts["leaves"]
        for said_nodes, said_leaves in [(nodes + 3, leaves - 1), (nodes - 1, leaves + 2), (facts["boards"], 0)]:
            url = f"/learn/step/1?position={pos}&check=1&positions={said_nodes}&leaves={said_leaves}"
            page = shown(client, url)
            graded = answers_of(page)
            for name, said, truth in (("positions", said_nodes, nodes), ("leaves", said_leaves, leaves)):
                got = graded[name]
                if said == truth:
                    assert got["data-right"] == "true"
                    continue
                assert got["data-right"] == "false" and "data-truth" not in got, (pos, name)
                others = set(re.findall(r"\d+", got["text"])) - {str(said)}
                assert str(truth) not in others, (pos, name, got["text"])  # the answer is not given
                too = "many" if said > truth else "few"
                assert f"{said} is too {too}." in got["text"], (pos, name, got["text"])
                text = got["text"].lower()  # the slips that err this way: tests/test_learn_tree_exercise.py
                assert "gives" not in text
                if name == "positions" and said < truth:
                    assert "a position left out (the root" in text and "counted twice" not in text
                    assert ("a board reached two ways counted once" in text) == (facts["boards"] < truth)
                if name == "positions" and said > truth:
                    assert "a position counted twice" in text and "left out" not in text
                if name == "leaves" and said < truth:
                    assert ("a finished board reached two ways counted once" in text) == (facts["ended_boards"] < truth)
                    assert ("only the games that fill the board counted" in text) == (facts["full"] < truth)
                if name == "leaves" and said > truth:
                    assert "a finished game counted twice" in text and "fill the board" not in text
            assert page["tree-form"].by_id("tree-positions").attrs["value"] == str(said_nodes)  # kept, to change
            show = page["show-answers"].attrs["href"]
            assert "show=1" in show and page.root.by_id("tree-drawn") is None
            revealed = answers_of(shown(client, show))
            assert revealed["positions"]["data-truth"] == str(nodes)
            assert revealed["leaves"]["data-truth"] == str(leaves)


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_count_is_read_with_a_plus_or_either_minus_and_text_is_refused_by_name(client):
    facts = tree_facts("..XOOXOX.")
    page = shown(client, f"/learn/step/1?check=1&positions=%2B{facts['nodes']}&leaves=+{facts['leaves']}+")
    assert {a["data-right"] for a in answers_of(page).values()} == {"true"}
    page = shown(client, f"/learn/step/1?check=1&positions={MINUS}3&leaves=abc")
    graded = answers_of(page)
    assert "a count cannot be negative" in graded["positions"]["text"] and "too few" not in graded["positions"]["text"]
    assert "“abc” is not a whole number" in graded["leaves"]["text"] and "like 12" in graded["leaves"]["text"]
    assert "+1" not in graded["leaves"]["text"] and "sign" not in graded["leaves"]["text"]  # advice for counts


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_step_one_says_the_explorers_tree_only_as_the_link_to_it(client):
    page = shown(client, "/learn/step/1?check=1&positions=11&leaves=5")
    link = page["tree-in-explorer"]
    assert "tree two moves deep" in link.text and link.attrs["href"] == "/explore/..XOOXOX.#tree"
    drawn = page["tree-drawn"]
    outside = drawn.text
    for a in drawn.iter("a"):
        outside = outside.replace(a.text, "")
    assert "tree" not in outside  # nothing names the tree but the link that opens it
    explorer = shown(client, "/explore/..XOOXOX.")
    assert explorer["tree"].by_id("tree-title").text == "The tree, two moves deep"


def estimates(pos: str, depth: int, evaluation: str) -> list[tuple[int, int]]:
    """(cell, depth-limited value) of each move, in row order, by the independent search."""
    return [(cell, depthlimit.limited(child, depth - 1, evaluation)[0]) for cell, child in children(pos).items()]


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_tie_is_said_where_the_choice_is_shown(client):
    live = sorted(p for p in REACHABLE if not is_over(p) and p.count(".") <= 7)
    cases = [("......O.X", d, e) for d in (1, 2, 3) for e in ("zero", "open-lines", "weighted")]
    cases += [(EMPTY, 1, "zero"), *((p, 2, e) for p in random.Random(3).sample(live, 8) for e in ("zero", "weighted"))]
    for pos, depth, evaluation in cases:
        page = shown(client, f"/learn/limited/{pos}?depth={depth}&evaluation={evaluation}")
        found = estimates(pos, depth, evaluation)
        pick = max if to_move(pos) == "X" else min
        best = pick(v for _, v in found)
        tied = [cell for cell, v in found if v == best]
        chosen = tied[0]
        assert page["limited"].attrs["data-chosen"] == f"{chosen // 3},{chosen % 3}"
        tie = page.root.by_id("limited-tie")
        if len(tied) == 1:
            assert tie is None, (pos, depth, evaluation)
            continue
        assert tie.attrs["data-tied"] == str(len(tied)), (pos, depth, evaluation)
        assert "a tie broken by order" in tie.text and "not a judgement" in tie.text
        if len(tied) == len(found):
            assert f"All {len(found)} actions have the same depth-{depth} value" in tie.text
        row = next(r for r in page["limited-moves"].iter("tr") if "chosen" in r.attrs.get("class", ""))
        assert f"the first of {len(tied)} tied" in row.text


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_depth_limited_page_says_utility_only_of_finished_games(client):
    page = shown(client, "/learn/limited/......O.X?depth=2&evaluation=open-lines")
    heads = [th.text for th in page["limited-moves"].iter("th") if th.attrs.get("scope") == "col"]
    assert heads == ["Action", "Depth-2 value", "Minimax value (exact)", "Nodes"]
    said = page["limited"].text + page["limited-verdict"].text
    assert "exact utility" not in said.lower() and "minimax value is 0" in said
    assert "Back the values up" in shown(client, "/learn/practice/backup?tree=((1,2),(3,4))")["drill-title"].text


BOXES = "((3,12,8),(2,4,6),(14,5,2))"  # A MAX over B, C, D (MIN): 3, 2, 2; A = 3


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_value_box_takes_plus_and_either_minus_and_refuses_by_name(client):
    form = shown(client, f"/learn/practice/backup?tree={BOXES}")
    for box in form["drill-form"].iter("input"):
        assert "pattern" not in box.attrs and box.attrs.get("inputmode") != "numeric"
    tree = "((-3,12),(-2,4))"  # B = -3, C = -2, A = -2
    for minus in ("-", MINUS):
        for plus in ("", "+"):
            query = {"check": "1", "tree": tree, "v-root": f"{minus}2", "v-0": f" {minus}3", "v-1": f"{plus}2"}
            page = Page(client.get("/learn/practice/backup", query_string=query).text)
            assert page["drill-score"].attrs["data-right"] == "2", (minus, plus)  # C is -2, not 2
            assert page["drill-score"].attrs["data-asked"] == "3"
    query = {"check": "1", "tree": BOXES, "v-root": "three", "v-0": "3", "v-1": "", "v-2": "2"}
    response = client.get("/learn/practice/backup", query_string=query)
    assert response.status_code == 400
    page = Page(response.text)
    assert page.root.by_id("drill-score") is None and "Nothing was checked yet" in page["drill-refused"].text
    assert page["v-root"].attrs["value"] == "three" and page["v-root"].attrs["aria-invalid"] == "true"
    assert page["v-root-error"].text.startswith("“three” is not a whole number")
    assert f"1, +1, {MINUS}1 or -1" in page["v-root-error"].text
    assert page["v-1-error"].text.startswith("This box is empty")
    assert page["v-2"].attrs["value"] == "2" and page.root.by_id("v-2-error") is None


PATH_PAGES = [
    "/learn/",
    *(f"/learn/step/{n}" for n in range(1, 7)),
    "/learn/step/1?check=1&positions=12&leaves=4",
    f"/learn/practice/backup?tree={BOXES}",
    f"/learn/practice/prune?tree={BOXES}&check=1",
    "/learn/trace/X.O.X.O..?step=5",
    "/learn/limited/......O.X",
]


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_path_writes_minus_one_with_the_minus_sign(client):
    for url in PATH_PAGES:
        html = client.get(url).text
        main = html[html.index("<main") : html.index("</main>")]
        prose = re.sub(r"<(code|pre|script|style)\b.*?</\1>|<[^>]+>", " ", main, flags=re.S)
        prose = prose.replace("+1, −1 or -1", "")  # the forms a box reads, the hyphen among them
        assert not re.search(r"(?<![\w.])-\d", prose), (url, re.findall(r".{30}(?<![\w.])-\d.{10}", prose))


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_drill_opened_from_the_path_leads_on_to_the_next_step_once_answered(client):
    for number, mode, answered in [(2, "backup", {"v-root": "3"}), (5, "prune", {"cut-11": "on"})]:
        step = shown(client, f"/learn/step/{number}")
        opened = client.get(step["exercise-link"].attrs["href"])
        assert opened.status_code == 303 and "from=path" in opened.headers["Location"]
        drill = shown(client, opened.headers["Location"])
        assert drill.root.by_id("drill-next") is None  # not before it is answered
        kept = [i.attrs for i in drill["drill-form"].iter("input") if i.attrs.get("name") == "from"]
        assert kept == [{"type": "hidden", "name": "from", "value": "path"}]
        query = {"check": "1", "tree": BOXES, "from": "path", **answered}
        if mode == "backup":
            query |= {"v-0": "3", "v-1": "2", "v-2": "2"}
        page = Page(client.get(f"/learn/practice/{mode}", query_string=query).text)
        lead = page["drill-next"]
        form = next(lead.iter("form"))
        assert form.attrs["method"] == "post" and form.attrs["action"] == f"/learn/step/{number}"
        assert f"Next: step {number + 1}" in lead.text
        assert "from=path" in page["try-again"].attrs["href"]
        done = client.post(form.attrs["action"])
        assert done.headers["Location"] == f"/learn/step/{number + 1}"
        without = Page(client.get(f"/learn/practice/{mode}", query_string={**query, "from": ""}).text)
        assert without.root.by_id("drill-next") is None and without.root.by_id("drill-score") is not None
    ticked = [
        li.attrs["data-step"] for li in shown(client, "/learn/")["path"].iter("li") if li.attrs["data-done"] == "true"
    ]
    assert ticked == ["2", "5"]


@cache
def plain_steps(pos: str) -> int:
    return len(list(tracer.trace(pos, False)))


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_step_past_the_end_of_a_trace_links_its_last_step_its_first_and_the_path(client):
    last = plain_steps("X.O.X.O..")
    for asked in (last + 1, 9999, 0):
        page = shown(client, f"/learn/trace/X.O.X.O..?step={asked}", 404)
        links = {a.text: a.attrs["href"] for a in page["lost-links"].iter("a")}
        assert links == {
            f"The last step, {last}": f"/learn/trace/X.O.X.O..?step={last}",
            "The first step": "/learn/trace/X.O.X.O..?step=1",
            "For students: the path": "/learn/",
        }
        assert f"steps 1 to {last}" in page["lost-description"].text
        assert "Back to your game" not in page.html
    assert shown(client, f"/learn/trace/X.O.X.O..?step={last}").root.by_id("trace") is not None
    for typed in ("-3", "abc", "1.5"):  # no whole number: the same links, and what a step is
        page = shown(client, f"/learn/trace/X.O.X.O..?step={typed}", 400)
        assert f"/learn/trace/X.O.X.O..?step={last}" in hrefs_in(page) and "/learn/" in hrefs_in(page)
        assert f"“{typed}” is not a step of this trace" in page["lost-description"].text
        assert f"steps are whole numbers, 1 to {last}" in page["lost-description"].text
    page = shown(client, "/learn/alphabeta/X.O.X.O..?call=-1", 400)
    assert "calls are whole numbers" in page["lost-description"].text and len(hrefs_in(page)) == 3
    pruned = len(list(tracer.trace("X.O.X.O..", True)))
    calls_made = sum(1 for s in tracer.trace("X.O.X.O..", True) if s[0] == "test")
    page = shown(client, f"/learn/alphabeta/X.O.X.O..?call={calls_made + 1}", 404)
    assert f"calls 1 to {calls_made}" in page["lost-description"].text
    assert f"/learn/alphabeta/X.O.X.O..?step={pruned}" in hrefs_in(page)
    small = "XOXOX...."
    last = plain_explorer_steps(small)
    page = shown(client, f"/explore/{small}/trace/{last + 1}", 404)
    hrefs = hrefs_in(page)
    assert f"/explore/{small}/trace/{last}" in hrefs and f"/explore/{small}/trace/1" in hrefs
    assert "/learn/" in hrefs and f"/explore/{small}" in hrefs


def hrefs_in(page: Page) -> list[str]:
    return [a.attrs["href"] for a in page["lost-links"].iter("a")]


def plain_explorer_steps(pos: str) -> int:
    """The explorer's own trace: a page as each call begins and one as it returns, one page for a
    finished game's call, which returns at once."""
    return sum(1 if is_over(p) else 2 for p in calls(pos))


UNREACHABLE = [board for board in map("".join, itertools.product("XO.", repeat=9)) if board not in REACHABLE]


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_board_no_game_reaches_says_why_in_every_form_and_address(client):
    assert {pasted.unreachable(p) is None for p in REACHABLE} == {True}
    picked = ["XXXOOO...", "OO.......", "XX.......", "XXXOO.O..", "OOOXX.XX."]
    picked += random.Random(8).sample(UNREACHABLE, 20)
    for pos in picked:
        why = pasted.unreachable(pos)
        assert why and unreachable_reason(pos) in why, pos
        counts = f"{number_word(pos.count('X'))} X and {number_word(pos.count('O'))} O"
        assert counts in why or "Both" in why, (pos, why)
        forms = {
            "/explore/paste?board=": "paste-error",
            "/learn/trace/?board=": "trace-board-error",
            "/learn/limited/?board=": "limited-board-error",
        }
        for form, ident in forms.items():
            response = client.get(form + pos.replace(".", "_"))
            assert response.status_code == 400
            assert Page(response.text)[ident].text == why, (form, pos)
        for address in (f"/explore/{pos}", f"/learn/trace/{pos}", f"/learn/alphabeta/{pos}", f"/learn/limited/{pos}"):
            response = client.get(address)
            assert response.status_code == 404 and why in " ".join(Page(response.text).root.text.split()), address


def number_word(n: int) -> str:
    return ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")[n]


@pytest.mark.parametrize("pruning", [False, True])
def test_the_end_test_is_said_as_the_code_beside_it_writes_it(pruning):
    from ttt_web.core import trace as core_trace
    from ttt_web.core.pseudocode import code
    from ttt_web.learn import words

    for pos in ("X.O.X.O..", "XOXOX....", "XXOOX.O.."):
        steps, _ = core_trace.total(pos, pruning)
        for number in range(1, steps + 1):
            step = core_trace.step(pos, number, pruning)
            if step.event != "test":
                continue
            line = code(step.top.function, words.role(step.top) == "MAX", pruning)[step.top.line - 1]
            said = words.says(step)
            over = is_over(step.top.position)
            if "terminal(board)" in line:
                assert said.startswith(f"terminal(board) returns {over}:"), said
            else:
                assert "TERMINAL(state)" in line
                assert said.startswith(f"TERMINAL(state) is {'true' if over else 'false'}:"), said
            assert " is False" not in said and " is True" not in said


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_the_students_answer_is_named_right_above_the_board(client):
    html = client.get("/explore/XO..X.O..?student=0,2").text
    assert html.index('id="student-legend"') < html.index('id="board"') < html.index('id="student"')
    page = Page(html)
    assert page["student-legend"].text == "Ringed: your minimax 's answer, (0, 2) c1, not optimal. Why"
    assert page["student"].attrs["data-optimal"] == "false"
    assert value(children("XO..X.O..")[2])[0] == 0 < value("XO..X.O..")[0]  # the judge: c1 only holds the draw


BOARD_IN_PROSE = re.compile(r"(?<![\w.])[XO.]{9}(?![\w])")
PAGES_WITH_BOARDS = [
    ("/learn/", 200),
    *((f"/learn/step/{n}", 200) for n in range(1, 7)),
    ("/learn/step/1?position=X........", 400),
    ("/learn/step/1?position=abc", 400),
    ("/learn/step/1?position=XXXOOO...", 400),
    ("/learn/trace/?board=XY", 400),
    ("/learn/limited/?board=XY", 400),
    ("/learn/limited/......O.X?evaluation=weighted", 200),
]


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
@pytest.mark.parametrize(("url", "status"), PAGES_WITH_BOARDS)
def test_every_board_written_in_the_paths_prose_is_set_as_code(client, url, status):
    """In the body font a board's dots read as an ellipsis: each board the text shows (not a
    link's address or a screen reader's hidden words) sits in <code>, refusals included."""
    html = shown(client, url, status).html.split("<main", 1)[1]
    prose = re.sub(r'<span class="visually-hidden">.*?</span>|<code>.*?</code>', " ", html, flags=re.S)
    prose = re.sub(r"<[^>]+>", " ", prose)
    assert BOARD_IN_PROSE.findall(prose) == [], url
    if url not in ("/learn/step/2", "/learn/step/4"):  # the steps that name no board
        assert re.search(r"<code>[XO.]{9}</code>", html), url


@pytest.mark.parametrize("app_factory", ["sqlite"], indirect=True)
def test_a_refusal_sets_boards_as_code_and_what_was_typed_as_text(client):
    page = shown(client, "/learn/step/1?position=X........", 400)
    error = page["tree-position-error"]
    assert [c.text for c in error.iter("code")] == ["X........", "..XOOXOX."]
    for typed in ("<b>......", "[[<i>, X, O], [X, O, X], [O, X, O]]", "<script>alert(1)</script>"):
        response = client.get("/learn/step/1", query_string={"position": typed})
        assert response.status_code == 400
        said = response.text.split('id="tree-position-error"', 1)[1].split("</p>", 1)[0]
        assert "<b>" not in said and "<i>" not in said and "<script>" not in said, said
        tags = re.findall(r"<(\w+)", said)
        assert set(tags) == {"code", "a"} and tags.count("a") == 2, said  # the boards, and the two ways back
