"""The students' pages: what they state, checked against independent implementations
(tests/tracer.py, tests/depthlimit.py, tests/judge.py)."""

import random
import re
import time
from urllib.parse import parse_qsl, urlencode, urlsplit

import pytest

from tests import depthlimit, tracer
from tests.judge import alphabeta as judge_alphabeta
from tests.judge import children, is_over, reachable, to_move, won_by
from tests.judge import minimax as judge_minimax
from tests.page import Page
from ttt_web.core import drill as core_drill
from ttt_web.core import limited as core_limited
from ttt_web.core import trace as core_trace
from ttt_web.learn import words

EMPTY = "." * 9


@pytest.fixture
def client(app):
    return app.test_client()


def page(client, url: str, status: int = 200) -> Page:
    response = client.get(url)
    assert response.status_code == status, response.text
    return Page(response.text)


def test_the_students_page_leads_to_the_tools(client):
    code = page(client, "/learn/step/4")  # the path's step on your tictactoe.py
    assert "python3 grader.pyz path/to/tictactoe.py" in code["grade-command"].text
    assert client.get(code["grader-download"].attrs["href"]).status_code == 200
    for name in ("player", "actions", "result", "winner", "terminal", "utility", "minimax"):
        assert f"{name}(" in code["functions"].text
    shown = page(client, "/learn/")
    links = [a.attrs["href"] for a in shown["tools"].iter("a")]
    for link in links:
        assert client.get(link).status_code in (200, 303), link
    nav = [a for a in shown.root.iter("a") if a.attrs.get("aria-current") == "page"]
    assert [a.text for a in nav] == ["For students"]


@pytest.mark.parametrize("pruning", [False, True], ids=["plain", "alphabeta"])
def test_the_trace_page_marks_the_line_and_the_stack_of_the_independent_tracer(client, pruning):
    position, kind = "XO..X.O..", "alphabeta" if pruning else "trace"
    expected = list(tracer.trace(position, pruning))
    for number in (1, 2, 3, 4, 10, 57, len(expected) // 2, len(expected)):
        event, line, stack, _ = expected[number - 1]
        shown = page(client, f"/learn/{kind}/{position}?step={number}")
        trace = shown["trace"]
        assert (trace.attrs["data-event"], trace.attrs["data-line"]) == (event, str(line))
        assert shown["code"].by_id(f"line-{line}").attrs.get("aria-current") == "step"
        rows = list(shown["stack"].iter("tr"))[1:]
        assert [(r.attrs["data-function"], r.attrs["data-line"]) for r in rows] == [(f[0], str(f[5])) for f in stack]


@pytest.mark.parametrize("position", ["XO..X....", "XOXOXOOXX", "XXXOO...."])
def test_the_test_for_the_end_is_said_in_the_words_of_the_line_shown(client, position):
    """At the root the highlighted line is the Python `if terminal(board):`; below, the
    pseudocode's `if TERMINAL(state):`: the sentence quotes the line it stands beside."""
    expected = list(tracer.trace(position, False))
    tests = [n for n, (event, *_) in enumerate(expected, 1) if event == "test"][:6]
    for number in tests:
        shown = page(client, f"/learn/trace/{position}?step={number}")
        line = shown["code"].by_id(f"line-{shown['trace'].attrs['data-line']}").text
        said = shown["step-text"].text
        root = shown["trace"].attrs["data-function"] == "minimax"
        assert ("if terminal(board):" in line) == root and ("if TERMINAL(state):" in line) == (not root), line
        if root:
            assert said.startswith(f"terminal(board) returns {is_over(position)}: "), said
        else:
            assert said.startswith("TERMINAL(state) is "), said


STACK_LABEL = re.compile(
    r"(minimax|MAX-VALUE|MIN-VALUE) (?:the starting position|after ([XO]) plays \((\d), (\d)\) [a-c][1-3]): "
    r"(?:([XO]) to move \((MAX|MIN)\)|the game is over, (.+))"
)


def check_stack_label(text: str, position: str, parent: str | None) -> None:
    """The claim a stack row makes, checked against the position and the row above it."""
    label = STACK_LABEL.fullmatch(text)
    assert label, text
    function, mover, i, j, side, role, ending = label.groups()
    assert (parent is None) == (mover is None), text
    if mover:
        cell = 3 * int(i) + int(j)
        assert parent[cell] == "." and position == parent[:cell] + mover + parent[cell + 1 :], (text, parent, position)
    if ending:
        assert is_over(position), text
        assert ending == (
            f"{won_by(position)} has three in a row" if won_by(position) else "the board is full with no line"
        )
        return
    assert not is_over(position) and side == to_move(position), (text, position)
    assert role == {"X": "MAX", "O": "MIN"}[side]
    assert function == "minimax" if parent is None else function == f"{role}-VALUE", text


@pytest.mark.parametrize("pruning", [False, True], ids=["plain", "alphabeta"])
def test_each_stack_row_says_who_moved_and_whose_turn_it_is(client, pruning):
    position, kind = "XO..X.O..", "alphabeta" if pruning else "trace"
    steps, _ = core_trace.total(position, pruning)
    seen = set()
    for number in [*range(1, 40), *random.Random(7).sample(range(40, steps + 1), 40), steps]:
        rows = list(page(client, f"/learn/{kind}/{position}?step={number}")["stack"].iter("tr"))[1:]
        parent = None
        for row in rows:
            cells = list(row.iter("td"))
            shown = next(s for s in cells[1].iter("span") if "visually-hidden" in s.attrs.get("class", "")).text
            label = next(s for s in cells[0].iter("span") if "frame-label" in s.attrs.get("class", "")).text
            check_stack_label(label, shown, parent)
            seen.add(label.split(": ")[-1].split(" (")[0].split(",")[0])
            parent = shown
    assert {"X to move", "O to move", "the game is over"} <= seen


def test_a_board_pasted_on_the_students_page_opens_its_trace(client):
    printed = "[['X', 'O', None], [None, 'X', None], ['O', None, None]]"
    response = client.get("/learn/trace/", query_string={"board": printed})
    assert response.status_code == 303 and response.headers["Location"] == "/learn/trace/XO..X.O.."
    response = client.get("/learn/trace/", query_string={"board": "xo..x.o..", "pruning": "1"})
    assert response.status_code == 303 and response.headers["Location"] == "/learn/alphabeta/XO..X.O.."
    refused = page(client, "/learn/trace/?board=print(board)", 400)
    field = refused["trace-board-text"]
    assert field.attrs["value"] == "print(board)" and field.attrs["aria-invalid"] == "true"
    assert refused["trace-board-error"].text == "'print' is not a cell: use X, O, EMPTY or None."
    assert "X has two more" in page(client, "/learn/trace/?board=XX.......", 400)["trace-board-error"].text


def test_the_trace_links_jump_where_they_say(client):
    position = "X...O...."
    expected = list(tracer.trace(position, False))
    shown = page(client, f"/learn/trace/{position}?step=3")  # line 6: the first call
    over = shown["step-over"].attrs["href"]
    after = int(re.search(r"step=(\d+)", over).group(1))
    assert expected[after - 1][0] == "back" and len(expected[after - 1][2]) == 1  # back in the first call
    response = client.get(f"/learn/trace/{position}?call=2")
    assert response.status_code == 303
    number = int(re.search(r"step=(\d+)", response.headers["Location"]).group(1))
    assert expected[number - 1][0] == "test" and expected[number - 1][2][-1][4] == 2


def test_the_trace_refuses_with_a_message(client):
    assert "9 characters" in page(client, "/learn/trace/XXX", 400).html
    assert "No game of tic-tac-toe" in page(client, "/learn/trace/XXXXXXXXX", 404).html
    assert "steps 1 to 2,494,560" in page(client, f"/learn/trace/{EMPTY}?step=2494561", 404).html.replace(
        "2494560", "2,494,560"
    )
    assert "whole numbers" in page(client, f"/learn/trace/{EMPTY}?step=-1", 400).html
    assert "calls 1 to" in page(client, f"/learn/trace/{EMPTY}?call=0", 404).html


def test_a_step_deep_in_the_empty_board_costs_what_an_early_one_does():
    core_trace.total(EMPTY, False)  # counted once for all, at start-up
    rounds = 300

    def timed(number: int) -> float:
        start = time.perf_counter()
        for _ in range(rounds):
            core_trace.step(EMPTY, number, False)
        return time.perf_counter() - start

    early = min(timed(core_trace.step_of_call(EMPTY, 8, False)) for _ in range(5))  # the first call 7 deep
    late = min(timed(core_trace.step_of_call(EMPTY, 549_946, False)) for _ in range(5))  # the last call
    assert core_trace.step(EMPTY, core_trace.step_of_call(EMPTY, 8, False), False).top.depth == 7
    assert late < 10 * early  # each level scans at most 9 siblings: O(depth x branching), not O(k)


@pytest.mark.parametrize("evaluation", list(core_limited.EVALUATIONS))
def test_depth_limited_values_and_nodes_against_an_independent_search(evaluation):
    rng = random.Random(5)
    live = sorted(p for p in reachable() if not is_over(p))
    for position in rng.sample(live, 60):
        for depth in (0, 1, 2, 3):
            assert core_limited.limited(position, depth, evaluation) == depthlimit.limited(position, depth, evaluation)
    assert core_limited.limited(EMPTY, 9, evaluation) == (0, 549_946)


@pytest.mark.parametrize("evaluation", list(core_limited.EVALUATIONS))
@pytest.mark.parametrize("depth", [1, 2])
def test_the_limited_mistakes_are_every_live_position_the_independent_search_gets_wrong(depth, evaluation):
    """All of them, found in one pass for every depth and evaluation: none missed, none extra."""
    expected = []
    for position in (p for p in reachable() if not is_over(p)):
        kids, pick = children(position), max if to_move(position) == "X" else min
        estimates = {n: depthlimit.limited(child, depth - 1, evaluation)[0] for n, child in sorted(kids.items())}
        chosen = pick(estimates, key=estimates.get)
        if judge_minimax(kids[chosen]) != pick(judge_minimax(child) for child in kids.values()):
            expected.append(position)
    live, wrong = core_limited.mistakes(depth, evaluation)
    assert live == sum(not is_over(p) for p in reachable())
    assert sorted(wrong) == sorted(expected) and len(wrong) == len(set(wrong))
    assert [p.count(".") for p in wrong] == sorted((p.count(".") for p in wrong), reverse=True)


def test_the_limited_choice_and_the_exact_best():
    found = core_limited.compare("X...O....", 1, "zero")
    assert found.chosen == (0, 1)  # every estimate is 0: the first action
    for move in found.moves:
        assert move.exact == judge_minimax(move.child)
        assert (move.estimate, move.nodes) == depthlimit.limited(move.child, 0, "zero")
    best = max(judge_minimax(m.child) for m in found.moves)
    assert set(found.exact_best) == {m.action for m in found.moves if judge_minimax(m.child) == best}
    chosen = next(m for m in found.moves if m.action == found.chosen)
    assert found.wrong == (judge_minimax(chosen.child) < best)
    assert found.nodes == depthlimit.limited("X...O....", 1, "zero")[1]
    wrong = core_limited.compare("XO.......", 1, "zero")  # sees no win within 1 move: the first action
    assert wrong.chosen == (0, 2) and wrong.wrong
    assert judge_minimax("XOX......") < judge_minimax("XO.......") == 1


def test_the_limited_page_takes_a_board_in_any_pasted_form(client):
    assert page(client, "/learn/limited/X...O....")["limited-board"].attrs["value"] == "X...O...."
    printed = "[['X', 'O', None], [None, 'X', None], ['O', None, None]]"
    response = client.get("/learn/limited/", query_string={"board": printed, "depth": "3", "evaluation": "zero"})
    assert response.status_code == 303
    assert response.headers["Location"] == "/learn/limited/XO..X.O..?depth=3&evaluation=zero"
    assert "'Y' is not a mark" in page(client, "/learn/limited/?board=XY.......", 400)["limited-board-error"].text


@pytest.mark.parametrize(
    ("url", "typed", "said"),
    [
        ("/learn/limited/?board=XY.......&depth=3&evaluation=zero", "XY.......", "'Y' is not a mark"),
        ("/learn/limited/?board=XXX.OO...&depth=3&evaluation=zero", "XXX.OO...", "That game is over"),
        ("/learn/limited/XXX.OO...?depth=3&evaluation=zero", "XXX.OO...", "That game is over"),
    ],
)
def test_a_board_the_limited_search_cannot_take_comes_back_in_its_form(client, url, typed, said):
    shown = page(client, url, 400)
    board = shown["limited-board"].attrs
    assert board["value"] == typed and board["aria-invalid"] == "true"
    assert "limited-board-error" in board["aria-describedby"] and said in shown["limited-board-error"].text
    chosen = {
        s.attrs["name"]: o.attrs["value"]
        for s in shown["limited-form"].iter("select")
        for o in s.iter("option")
        if "selected" in o.attrs
    }
    assert chosen == {"depth": "3", "evaluation": "zero"}
    assert shown.root.by_id("error-description") is None and shown.root.by_id("limited-moves") is None


def test_a_board_the_trace_cannot_take_keeps_the_alphabeta_tick(client):
    shown = page(client, "/learn/trace/?board=XY&pruning=1", 400)
    tick = next(i for i in shown["trace-board"].iter("input") if i.attrs.get("name") == "pruning")
    assert "checked" in tick.attrs and shown["trace-board-text"].attrs["value"] == "XY"
    plain = page(client, "/learn/trace/?board=XY", 400)
    assert (
        "checked" not in next(i for i in plain["trace-board"].iter("input") if i.attrs.get("name") == "pruning").attrs
    )


def test_the_limited_page_states_the_values_of_the_independent_search(client):
    shown = page(client, "/learn/limited/X...O....?depth=2&evaluation=weighted")
    for row in shown["limited-moves"].iter("tr"):
        if "data-action" not in row.attrs:
            continue
        i, j = map(int, row.attrs["data-action"].split(","))
        child = "X...O...."[: 3 * i + j] + "X" + "X...O...."[3 * i + j + 1 :]  # X is to move
        assert int(row.attrs["data-estimate"]) == depthlimit.limited(child, 1, "weighted")[0]
        assert int(row.attrs["data-exact"]) == judge_minimax(child)
    assert "9 characters" in page(client, "/learn/limited/X?depth=2", 400).html
    listed = [a.attrs["href"] for a in shown["mistake-list"].iter("a")]
    for href in listed:  # each position listed goes wrong, by the independent search and judge
        position = href.split("/")[3].split("?")[0]
        kids, pick = children(position), max if to_move(position) == "X" else min
        estimates = {n: depthlimit.limited(child, 1, "weighted")[0] for n, child in kids.items()}
        chosen = pick(estimates, key=estimates.get)
        assert judge_minimax(kids[chosen]) != pick(judge_minimax(child) for child in kids.values())
    assert len(listed) == 6
    assert "depth limit" in page(client, "/learn/limited/X...O....?depth=10", 400).html


def test_practice_trees_against_an_independent_alphabeta():
    rng = random.Random(11)
    for _ in range(300):
        tree = core_drill.random_tree(rng)
        assert core_drill.parse(core_drill.text(tree)) == tree
        for maximizing in (True, False):
            seen = set()
            value = depthlimit.tree_alphabeta(tree, maximizing, seen=seen)
            assert core_drill.values(tree, maximizing)[""] == value == depthlimit.tree_values(tree, maximizing)
            _, pruned = core_drill.alphabeta(tree, maximizing)
            assert pruned == set(core_drill.paths(tree)) - seen


def test_trees_from_positions_prune_what_the_judge_prunes():
    for position in core_drill.small_positions()[::25]:
        tree, boards = core_drill.position_tree(position)
        maximizing = core_drill.maximizing_at(position)
        assert core_drill.values(tree, maximizing)[""] == judge_minimax(position)
        visited, pruned_positions = [], []
        judge_alphabeta(position, -2, 2, visited, pruned_positions)
        _, pruned = core_drill.alphabeta(tree, maximizing)
        topmost = [boards[p] for p in core_drill.paths(tree) if p in pruned and p[:-1] not in pruned]
        assert topmost == pruned_positions


def head_span(node, css_class: str) -> str | None:
    """The text of the span of class `css_class` in a practice node's own head, not its children's."""
    line = next(e for e in node.children if "node-line" in getattr(e, "attrs", {}).get("class", ""))
    head = next(e for e in line.children if getattr(e, "attrs", {}).get("class") == "node-head")
    return next((s.text for s in head.iter("span") if s.attrs.get("class") == css_class), None)


def child_nodes(node):
    return [
        li
        for ul in node.children
        if getattr(ul, "tag", "") == "ul"
        for li in ul.children
        if getattr(li, "tag", "") == "li"
    ]


@pytest.mark.parametrize("mode", ["backup", "prune"])
def test_each_practice_move_names_the_player_whose_turn_it_was(client, mode):
    shown = page(client, f"/learn/practice/{mode}?position=XOX.OOX..")
    moves = [
        (head_span(node, "role"), head_span(child, "quiet-text"))
        for node in shown.root.iter("li")
        if "tree-node" in node.attrs.get("class", "")
        for child in child_nodes(node)
    ]
    assert len(moves) >= 6
    for role, said in moves:
        assert said.startswith({"MAX": "X plays (", "MIN": "O plays ("}[role]), (role, said)


def test_backing_up_is_graded_and_a_wrong_node_shows_its_children(client):
    tree = "((3,12,8),(2,4,6),(14,5,2))"
    answers = {"v-root": "3", "v-0": "3", "v-1": "2", "v-2": "14"}
    shown = Page(client.get("/learn/practice/backup", query_string={"check": "1", "tree": tree, **answers}).text)
    assert shown["drill-score"].attrs["data-right"] == "3"
    assert shown.root.by_id("why") is None and "MIN(" not in shown.html and "→" not in shown.html  # not yet
    marked = {li.attrs["data-path"]: li for li in shown["tree"].iter("li") if "data-path" in li.attrs}
    assert [p for p, li in marked.items() if head_span(li, "answer wrong") is not None] == ["2"]
    boxes = {
        i.attrs["name"]: i.attrs.get("value") for i in shown["drill-form"].iter("input") if "v-" in i.attrs["name"]
    }
    assert boxes == answers  # kept in the form for another try
    shown = Page(client.get(shown["show-answers"].attrs["href"]).text)
    assert shown["drill-score"].attrs["data-right"] == "3"
    assert [li.attrs["data-path"] for li in shown["why"].iter("li")] == ["2"]
    assert "MIN(14, 5, 2) = 2" in shown["why"].text
    right = {**answers, "v-2": "2"}
    shown = Page(client.get("/learn/practice/backup", query_string={"check": "1", "tree": tree, **right}).text)
    assert shown["drill-score"].attrs["data-right"] == "4"


def test_pruning_is_graded_against_the_independent_alphabeta(client):
    tree = "((3,12,8),(2,4,6),(14,5,2))"
    seen = set()
    depthlimit.tree_alphabeta(core_drill.parse(tree), True, seen=seen)
    never = {p for p in core_drill.paths(core_drill.parse(tree)) if p not in seen}
    assert never == {"11", "12"}  # the textbook's figure: C's last two leaves
    ticked = {f"cut-{p}": "on" for p in never}
    shown = Page(client.get("/learn/practice/prune", query_string={"check": "1", "tree": tree, **ticked}).text)
    assert shown["drill-score"].attrs["data-right"] == shown["drill-score"].attrs["data-asked"] == "12"
    asked = {"check": "1", "tree": tree, "cut-11": "on"}
    shown = Page(client.get("/learn/practice/prune", query_string=asked).text)
    assert shown["drill-score"].attrs["data-right"] == "11"
    assert shown.root.by_id("why") is None and "2 ≤ α" not in shown.html and "returns" not in shown.html  # not yet
    ticked = [i.attrs["name"] for i in shown["drill-form"].iter("input") if "checked" in i.attrs]
    assert ticked == ["cut-11"]  # kept in the form for another try
    shown = Page(client.get("/learn/practice/prune", query_string={**asked, "show": "1"}).text)
    assert shown["drill-score"].attrs["data-right"] == "11"
    assert "2 ≤ α = 3" in shown["why"].text
    framed = [li.attrs["data-path"] for li in shown["tree"].iter("li") if "decides" in li.attrs["class"]]
    assert framed == ["1"]  # C, whose window and first leaf cut the branch off


def test_practice_refuses_with_a_message(client):
    assert "a bracket is left open" in page(client, "/learn/practice/backup?tree=((1,2)", 400).html
    assert "at most 4 empty" in page(client, f"/learn/practice/prune?position={EMPTY}", 400).html
    assert client.get("/learn/practice/other").status_code == 404
    assert client.get("/learn/practice/backup").status_code == 303


def test_the_explorer_trace_links_to_the_pseudocode(client):
    shown = page(client, "/explore/XOXOX..../trace/1")
    assert shown["to-pseudocode"].attrs["href"] == "/learn/trace/XOXOX...."


def test_each_checked_branch_says_whether_it_was_searched_or_pruned(client):
    tree = "((3,12,8),(2,4,6),(14,5,2))"  # alpha-beta prunes B's last two leaves, 11 and 12
    shown = Page(
        client.get(
            "/learn/practice/prune",
            query_string={"check": "1", "tree": tree, "cut-11": "on", "cut-0": "on", "show": "1"},
        ).text
    )
    said = {
        li.attrs["data-path"]: next(li.iter("label")).text for li in shown["tree"].iter("li") if li.attrs["data-path"]
    }
    assert said["1"].startswith("✓ right: searched (not pruned)")  # unticked, searched
    assert said["11"].startswith("✓ right: pruned")  # ticked, pruned
    assert said["12"].startswith("✗ wrong: pruned (you left it unticked)")
    assert said["0"].startswith("✗ wrong: searched (not pruned) (you ticked it)")


def test_the_prune_answers_say_what_alpha_beta_returned_apart_from_the_minimax_value(client):
    """The answers say what alpha-beta returned at each node it searched, and the minimax value
    (the judge's) as that of minimax without pruning where the two differ; a node it never
    searched gets only the latter: alpha-beta found nothing there."""
    tree = "(((3,5),(6,9)),((1,2),(0,-1)))"
    parsed = core_drill.parse(tree)
    inner = {path for path in core_drill.paths(parsed) if len(path) < 3}
    never = pruned_by_the_independent_alphabeta(parsed, True) & inner
    assert never == {"11"}  # after the first MIN node's 5, the second's first child's 2 ends it
    shown = page(client, "/learn/practice/prune?" + urlencode({"check": "1", "tree": tree, "show": "1"}))
    heads = {
        li.attrs["data-path"]: next(span for span in li.iter("span") if span.attrs.get("class") == "node-head").text
        for li in shown["tree"].iter("li")
    }
    heads = {path: " ".join(heads[path].split()) for path in inner}
    for path in inner:
        node = core_drill.at(parsed, path)
        maximizing = len(path) % 2 == 0
        value = depthlimit.tree_values(node, maximizing)
        if path in never:
            assert heads[path].endswith(f"never searched (minimax without pruning gives it {value})"), heads[path]
            assert "=" not in heads[path]
            continue
        alpha, beta = re.search(r"searched with α = (\S+), β = (\S+);", heads[path]).groups()
        alpha, beta = (int(bound.replace("−", "-").replace("∞", "1000")) for bound in (alpha, beta))
        returned = depthlimit.tree_alphabeta(node, maximizing, alpha, beta, seen=set())
        said = ", its minimax value" if returned == value else f" (minimax without pruning gives it {value})"
        assert heads[path].endswith(f"; returns {returned}{said}"), heads[path]
    assert sum("its minimax value" in head for head in heads.values()) == 4  # A, B, C and F


def test_a_prune_drill_all_right_still_links_the_search(client):
    tree = "((3,12,8),(2,4,6),(14,5,2))"  # alpha-beta prunes B's last two leaves, 11 and 12
    checked = page(
        client, "/learn/practice/prune?" + urlencode({"check": "1", "tree": tree, "cut-11": "on", "cut-12": "on"})
    )
    assert checked["drill-score"].text == "12 of 12 right."
    assert checked["show-answers"].text == "Show the search"
    assert "the α and β each node was searched with, and what it returned." in checked["drill-all-right"].text
    shown = page(client, checked["show-answers"].attrs["href"])
    assert " ".join(shown["tree"].text.split()).count("searched with α = ") == 4  # A, B, C and D
    backup = {"check": "1", "tree": tree, "v-root": "3", "v-0": "3", "v-1": "2", "v-2": "2"}
    assert page(client, "/learn/practice/backup?" + urlencode(backup)).root.by_id("drill-all-right") is None


def test_a_line_of_code_may_wrap_after_an_opening_bracket_never_inside_a_name():
    assert words.code("v = max_value(result(board, action))") == "v = max_value(<wbr>result(<wbr>board, action))"
    assert words.code("if a < b(c):") == "if a &lt; b(<wbr>c):"


def pruned_by_the_independent_alphabeta(tree, maximizing: bool) -> set[str]:
    seen = set()
    depthlimit.tree_alphabeta(tree, maximizing, seen=seen)
    return set(core_drill.paths(tree)) - seen


@pytest.mark.parametrize("kind", ["abstract", "position"])
def test_the_prune_drill_serves_only_trees_where_alpha_beta_prunes_something(client, kind):
    """About 1 in 4 random trees (abstract or from a position) prune nothing: the drill draws
    again, so every tree it serves has a branch to tick, by the independent alpha-beta."""
    for _ in range(60):
        response = client.get("/learn/practice/prune", query_string={"kind": kind} if kind == "abstract" else {})
        assert response.status_code == 303
        query = dict(parse_qsl(urlsplit(response.headers["Location"]).query))
        if kind == "abstract":
            tree, maximizing = core_drill.parse(query["tree"]), True
        else:
            position = query["position"]
            tree, maximizing = core_drill.position_tree(position)[0], to_move(position) == "X"
        assert pruned_by_the_independent_alphabeta(tree, maximizing), query


@pytest.mark.parametrize("asked", [{"tree": "((-7,7),(18,20,0),(5,18,-1))"}, {"position": "OXO.X.X.O"}])
def test_a_tree_where_alpha_beta_prunes_nothing_says_so_once_checked(client, asked):
    if "tree" in asked:
        tree, maximizing = core_drill.parse(asked["tree"]), True
    else:
        tree, maximizing = core_drill.position_tree(asked["position"])[0], to_move(asked["position"]) == "X"
    assert not pruned_by_the_independent_alphabeta(tree, maximizing)
    before = page(client, "/learn/practice/prune?" + "&".join(f"{k}={v}" for k, v in asked.items()))
    assert before.root.by_id("drill-nothing-pruned") is None  # not before the check: it would answer it
    shown = Page(client.get("/learn/practice/prune", query_string={"check": "1", **asked}).text)
    score = shown["drill-score"].attrs
    assert score["data-right"] == score["data-asked"] == str(len(core_drill.paths(tree)) - 1)
    said = " ".join(shown["drill-nothing-pruned"].text.split())
    assert said == "Alpha-beta prunes nothing here: every node is visited."
    textbook = {"check": "1", "tree": "((3,12,8),(2,4,6),(14,5,2))"}  # C's last two leaves pruned
    pruning = Page(client.get("/learn/practice/prune", query_string=textbook).text)
    assert pruning.root.by_id("drill-nothing-pruned") is None


ASKED = {"backup": {"v-root": "9", "v-0": "3", "v-1": "2", "v-2": "2"}, "prune": {"cut-0": "on"}}  # one wrong


@pytest.mark.parametrize(("number", "mode"), [(2, "backup"), (5, "prune")])
def test_steps_two_and_five_say_the_reasons_come_with_show_the_answers_as_the_drill_does(client, number, mode):
    """The step says Check only marks right or wrong and the reasons come with “show the
    answers”: the drill after Check shows no reason, and its link of that name shows them."""
    said = " ".join(page(client, f"/learn/step/{number}")["exercise"].text.split())
    assert "Check marks each " in said and " right or wrong; “show the answers” then gives " in said, said
    assert "Each wrong node shows" not in said and "each answer shows" not in said
    tree = "((3,12,8),(2,4,6),(14,5,2))"
    checked = page(client, f"/learn/practice/{mode}?" + urlencode({"check": "1", "tree": tree, **ASKED[mode]}))
    assert checked.root.by_id("why") is None and checked["show-answers"].text == "show the answers"
    assert "searched with α" not in checked.html and "→" not in checked["tree"].text
    shown = page(client, checked["show-answers"].attrs["href"])
    assert shown["why"].text
    gives = "searched with α = " if mode == "prune" else "✗ 9 → 3"  # each window; the wrong node's right value
    assert gives in shown["tree"].text


def test_the_backup_answers_say_the_wrong_nodes_are_framed_as_they_are(client):
    tree = core_drill.parse("((3,12,8),(2,4,6),(14,5,2))")
    truth = {"": depthlimit.tree_values(tree, True)}
    truth |= {str(n): depthlimit.tree_values(child, False) for n, child in enumerate(tree)}
    asked = {"check": "1", "tree": core_drill.text(tree), "v-root": "3", "v-0": "3", "v-1": "4", "v-2": "14"}
    asked["show"] = "1"
    shown = page(client, "/learn/practice/backup?" + urlencode(asked))
    wrong = sorted(p for p in ("", "0", "1", "2") if asked[f"v-{p or 'root'}"] != str(truth[p]))
    assert wrong == ["1", "2"]
    framed = sorted(li.attrs["data-path"] for li in shown["tree"].iter("li") if "decides" in li.attrs["class"])
    assert framed == wrong
    said = " ".join(shown["why-framed"].text.split())
    assert said == "Each wrong node is framed in the tree below; the children just under it decide its value."
    pruned = page(client, "/learn/practice/prune?" + urlencode({"check": "1", "tree": asked["tree"], "show": "1"}))
    said = " ".join(pruned["why-framed"].text.split())
    assert said.startswith("The node each wrong branch leaves from is framed in the tree below")


@pytest.mark.parametrize(
    ("mode", "query", "heading"),
    [
        ("prune", {"tree": "((1,2)"}, "Not a tree for this drill"),
        ("backup", {"tree": "(" * 6 + "1" + ")" * 6}, "Not a tree for this drill"),
        ("backup", {"position": "XXX......"}, "Not a position for this drill"),
        ("prune", {"position": "X........"}, "Not a position for this drill"),
    ],
)
def test_a_drill_address_that_holds_no_exercise_says_why_and_links_a_new_drill_and_the_path(
    client, mode, query, heading
):
    refused = page(client, f"/learn/practice/{mode}?" + urlencode(query), 400)
    assert refused["lost-title"].text == heading and refused["lost-description"].text
    links = [(a.text, a.attrs["href"]) for a in refused["lost-links"].iter("a")]
    name = "back up the values" if mode == "backup" else "alpha-beta pruning"
    assert links == [(f"A new drill: {name}", f"/learn/practice/{mode}"), ("For students: the path", "/learn/")]
    assert page(client, links[0][1] + "?" + urlencode({"tree": "((3,12,8),(2,4,6),(14,5,2))"}))["drill"]


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("((1,2)", "The tree's text ends too soon: a bracket is left open."),
        ("((1),(2)", "The tree's text ends too soon: a bracket is left open."),
        ("(100,2)", "Branches are separated by commas, and a leaf is a whole number from -99 to 99."),
        ("(1 2)", "Branches are separated by commas, and a leaf is a whole number from -99 to 99."),
        ("((1,2,3,4,5),(1))", "Each node has 1 to 4 branches, in brackets, separated by commas."),
        ("(1,,2)", "A branch is missing between brackets or commas."),
        ("", "No tree was given: write one like ((3,12,8),(2,4,6),(14,5,2))."),
        ("(" + "(1,2)," * 30 + "(1,2))", "A tree here has at most 40 nodes and 4 levels below the root."),
    ],
)
def test_a_tree_that_cannot_be_read_is_refused_saying_what_is_wrong_with_it(text, said):
    with pytest.raises(core_drill.TreeError) as refused:
        core_drill.parse(text)
    assert str(refused.value) == said


def test_an_unknown_drill_links_both_drills_and_the_path(client):
    lost = page(client, "/learn/practice/nonsense", 404)
    assert lost["lost-title"].text == "No such drill"
    links = [(a.text, a.attrs["href"]) for a in lost["lost-links"].iter("a")]
    assert links == [
        ("A drill: back up the values", "/learn/practice/backup"),
        ("A drill: alpha-beta pruning", "/learn/practice/prune"),
        ("For students: the path", "/learn/"),
    ]


def test_no_node_of_a_drill_is_named_with_a_sides_letter(client):
    tree = "(" + ",".join(["((1),(2),(3))"] * 4) + ")"  # 17 inner nodes: past O in the alphabet
    nodes = page(client, "/learn/practice/backup?" + urlencode({"tree": tree}))["tree"].iter("li")
    names = [li.attrs["data-name"] for li in nodes]
    inner = [name for name in names if name.isalpha()]
    assert len(inner) == 17 and not set("OXox") & set("".join(names)), names
