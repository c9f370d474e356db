"""Exploring a position (/explore/<position>): every move's exact value, the principal
variation, refutations, the search costs, links into the tree; public pages."""

import pytest

from tests import judge
from tests.conftest import Player
from tests.page import Page
from ttt_web.app import create_app
from ttt_web.core import costs
from ttt_web.core.position import cell_name


def moves(page: Page) -> dict[str, dict]:
    return {item.attrs["data-cell"]: item.attrs for item in page["moves"].iter("li")}


def test_the_empty_board_shows_the_whole_games_costs(client):
    page = Page(client.get("/explore/.........").text)
    found = page["search-costs"].attrs
    expected = {"data-plain": "549946", "data-memo": "5478", "data-symmetry": "765"}
    assert {k: found[k] for k in expected} == expected
    assert int(found["data-alphabeta"]) == costs.costs(".........").alphabeta
    assert int(found["data-alphabeta-ordered"]) == costs.costs(".........").alphabeta_ordered
    assert found["data-alphabeta-quickest"] == "1892"
    assert "Alpha-beta, quickest win first: 1,892" in page["search-costs"].text
    assert len(moves(page)) == 9 and {m["data-value"] for m in moves(page).values()} == {"draw"}
    assert client.get("/explore/").text == client.get("/explore/.........").text


def test_a_position_shows_every_move_its_line_and_its_refutations(client):
    pos = "XX.OO...."  # X to move: c1 wins at once; anything else lets O win
    page = Page(client.get(f"/explore/{pos}").text)
    listed = moves(page)
    assert listed["c1"]["data-value"] == "win" and listed["c1"]["data-plies"] == "1"
    assert listed["c1"]["data-verdict"] == "best"
    assert listed["a3"]["data-value"] == "loss" and listed["a3"]["data-verdict"] == "blunder"
    assert "refuted by O c2 (1, 2)" in page["moves"].text
    assert page["principal-variation"].attrs["data-moves"] == "c1"
    links = [a.attrs["href"] for a in page["moves"].iter("a")]
    assert "/explore/XXXOO...." in links and len(links) == 5


MINUS = "\N{MINUS SIGN}"


def signed(value: int) -> str:
    return str(value).replace("-", MINUS)


def title(pos: str) -> str:
    """The page's title, in words from the judge's values."""
    who = {1: "X", -1: "O"}
    if judge.is_over(pos):
        return "Explore: " + (f"{who[judge.minimax(pos)]} won" if judge.won_by(pos) else "a draw")
    ending = f"{who[judge.minimax(pos)]} wins" if judge.minimax(pos) else "draw"
    return f"Explore: {judge.to_move(pos)} to move, {ending} with best play"


def tree_nodes(page: Page) -> list[tuple[str, int]]:
    nodes = [e.attrs for e in page["tree"].iter("a") if "data-position" in e.attrs]
    return [(node["data-position"], int(node["data-utility"])) for node in nodes]


def two_levels(pos: str) -> list[tuple[str, int]]:
    """Each move's position, then each reply's, in row order, with its minimax value."""
    below = []
    for kid in judge.children(pos).values():
        replies = [] if judge.is_over(kid) else list(judge.children(kid).values())
        below += [(p, judge.minimax(p)) for p in [kid, *replies]]
    return below


PARTS = 16  # the positions in sixteen parts, each once: make test's two processes share them, none long alone


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
def test_every_reachable_position_explained_as_the_judge_says(tmp_path, part):
    unbounded = {"CPU_BUDGET_PER_NETWORK": "1000000 per second", "CPU_BUDGET": "1000000 per second"}
    client = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3"), **unbounded}).test_client()
    for pos in sorted(judge.reachable())[part::PARTS]:
        response = client.get(f"/explore/{pos}")
        assert response.status_code == 200, pos
        page = Page(response.text)
        assert page.marks == pos
        assert page["explore"].attrs["data-utility"] == str(judge.minimax(pos)), pos
        assert next(page.root.iter("title")).text == f"{title(pos)} · Tic-tac-toe", pos
        if judge.is_over(pos):
            assert page.root.by_id("moves") is None and page.root.by_id("tree") is None
            assert page["minimax"].text == f"The game is over: utility = {signed(judge.minimax(pos))}"
            continue
        kids = judge.children(pos)
        expected = {cell_name(n): judge.move_outcome(pos, n) for n in kids}
        found = {cell: (m["data-value"], int(m["data-plies"])) for cell, m in moves(page).items()}
        assert found == expected, pos
        assert [m["data-utility"] for m in moves(page).values()] == [str(judge.minimax(k)) for k in kids.values()]
        assert_pace_said(page, pos)
        role, pick = ("MAX", "max") if judge.to_move(pos) == "X" else ("MIN", "min")
        values = ", ".join(signed(judge.minimax(k)) for k in kids.values())
        assert (
            page["minimax"].text == f"{judge.to_move(pos)} is {role}: {pick}({values}) = {signed(judge.minimax(pos))}"
        )
        links = {a.attrs["href"] for cell in page.cells for a in cell.iter("a")}
        assert links == {f"/explore/{k}" for k in kids.values()}, pos
        assert tree_nodes(page) == two_levels(pos), pos
        principal = [e.attrs["data-position"] for e in page["tree"].iter("a") if "data-principal" in e.attrs]
        assert principal[0] in [kids[n] for n in judge.optimal_moves(pos)], pos
        line = page["principal-variation"].attrs["data-moves"].split()
        assert len(line) == judge.value(pos)[1], pos
        assert int(page["search-costs"].attrs["data-memo"]) == costs.costs(pos).memo
        assert_alphabeta_shown(page, pos)


def assert_alphabeta_shown(page: Page, pos: str) -> None:
    """The drawn alpha-beta tree, or the counts per depth, as an independent alpha-beta has them."""
    visited, pruned = [], []
    judge.alphabeta(pos, -2, 2, visited, pruned)
    shown = page["search-costs"].attrs
    assert int(shown["data-alphabeta"]) == len(visited), pos
    if pos.count(".") > 5:
        rows = [row.text.replace(",", "").split() for row in next(page["per-depth"].iter("tbody")).iter("tr")]
        assert [sum(int(row[n]) for row in rows) for n in (1, 2)] == [costs.tree_size(pos), len(visited)], pos
        return
    nodes = [e.attrs for e in page["alphabeta"].iter() if "data-returned" in e.attrs or "data-pruned" in e.attrs]
    assert [n["data-position"] for n in nodes if "data-pruned" not in n] == visited, pos
    assert [n["data-position"] for n in nodes if "data-pruned" in n] == pruned, pos
    assert_bounds_as_the_judge_proves(nodes, pos)
    counts = page["alphabeta-counts"].attrs
    assert int(counts["data-visited"]) == len(visited), pos
    assert int(counts["data-visited"]) + int(counts["data-skipped"]) == int(shown["data-plain"]), pos


def assert_bounds_as_the_judge_proves(nodes: list[dict], pos: str) -> None:
    """Each drawn node returns what an independent alpha-beta returns; "=" only where that is
    the minimax value, "≥" and "≤" only where it is a true bound, and a node searched fully,
    down to the end, is never labelled a bound."""
    searched = judge.preorder(judge.alphabeta_tree(pos, -2, 2))
    drawn = [n for n in nodes if "data-pruned" not in n]
    expected = [(s["pos"], s["returned"]) for s in searched]
    assert [(n["data-position"], int(n["data-returned"])) for n in drawn] == expected
    for node, found in zip(drawn, searched, strict=True):
        truth, returned, bound = judge.minimax(found["pos"]), found["returned"], node["data-bound"]
        assert {"=": truth == returned, "≥": truth >= returned, "≤": truth <= returned}[bound], (pos, node)
        assert bound == "=" or not judge.fully_searched(found), (pos, node)


@pytest.mark.parametrize("pos", [".........", "XX.OO....", "X........", "XO.XO....", "XOXOX....", "XXOOOXX.."])
def test_the_tree_says_which_nodes_take_the_max_and_which_the_min(client, pos):
    page = Page(client.get(f"/explore/{pos}").text)
    kind = {"X": ("MAX", "max"), "O": ("MIN", "min")}
    role, pick = kind[judge.to_move(pos)]
    below = {judge.to_move(kid) for kid in judge.children(pos).values() if not judge.is_over(kid)}
    rule = page["tree-rule"].text
    assert f"this position is a {role} node: its value is the {pick} of its moves' values" in rule
    for mover in below:  # every live child has the other player to move
        other, pick = kind[mover]
        assert f"each move leads to a {other} node (or a finished game), whose value is the {pick}" in rule
    for link in page["tree"].iter("a"):
        child = link.attrs["data-position"]
        if child in judge.children(pos).values():
            label = link.text
            assert f" · {kind[judge.to_move(child)][0]} " in label or judge.is_over(child), (child, label)


@pytest.mark.parametrize(
    ("pos", "status"),
    [("abc", 400), ("XX.OO...", 400), ("XX.OO....x", 400), ("XXX......", 404), ("OO.......", 404), ("XXXOOOXO.", 404)],
)
def test_malformed_and_unreachable_positions_get_a_clear_page(client, pos, status):
    response = client.get(f"/explore/{pos}")
    assert response.status_code == status
    assert "Traceback" not in response.text and "position" in response.text


@pytest.mark.parametrize(
    ("asked", "canonical"),
    [
        ("/explore/x...o....", "/explore/X...O...."),
        ("/explore/X...o....?back=game", "/explore/X...O....?back=game"),
        ("/explore/xx.oo....?student=0,2", "/explore/XX.OO....?student=0,2"),
        ("/explore/xo.......", "/explore/XO......."),
        ("/explore/xoxox..../trace/2", "/explore/XOXOX..../trace/2"),
    ],
)
def test_a_position_in_small_letters_leads_to_its_address_in_capitals(client, asked, canonical):
    response = client.get(asked)
    assert response.status_code == 301 and response.headers["Location"] == canonical
    assert response.headers["Cache-Control"] == "public, max-age=86400"
    assert client.get(canonical).status_code == 200


def test_small_letters_do_not_make_an_unreachable_position_reachable(client):
    assert client.get("/explore/xxx......").headers["Location"] == "/explore/XXX......"
    assert client.get("/explore/XXX......").status_code == 404
    assert client.get("/explore/xx.oo...y").status_code == 400


def test_explore_pages_are_public_cacheable_and_store_nothing(client, stored):
    client.get("/move?n=0&row=1&col=1")
    before = stored()
    response = client.get("/explore/X...O....")
    assert response.headers["Cache-Control"] == "public, max-age=86400"
    assert "Set-Cookie" not in response.headers
    assert stored() == before


def test_the_game_and_each_review_step_link_here(play):
    assert play.page()["explore"].attrs["href"] == "/explore/.........?back=game"
    page = play.move(1, 1)
    assert play.page()["explore"].attrs["href"] == f"/explore/{page.marks}?back=game"
    review = Page(play.client.get("/review/4-0?ply=1").text)
    assert review["explore"].attrs["href"] == "/explore/....X...."


def test_a_player_can_follow_the_tree_from_the_root(client):
    player = Player(client)
    page = Page(client.get("/explore/").text)
    for _ in range(3):
        href = next(iter(page["moves"].iter("a"))).attrs["href"]
        page = Page(player.client.get(href).text)
    assert page.marks.count(".") == 6


@pytest.mark.parametrize("pos", ["XOXOX....", "XO.XO.X..", "XXOOOXX..", "XOXXOO...", "XOXOXOOX."])
def test_the_trace_steps_through_plain_minimaxs_calls_in_order(client, pos):
    page = Page(client.get(f"/explore/{pos}").text)
    href = next(a.attrs["href"] for a in page.root.iter("a") if a.text == "Trace, step by step")
    steps = []
    while href:
        page = Page(client.get(href).text)
        steps.append(page["trace"].attrs)
        href = next((a.attrs["href"] for a in page.root.iter("a") if a.attrs.get("rel") == "next"), None)
    assert [int(step["data-step"]) for step in steps] == list(range(1, len(steps) + 1))
    assert [step["data-position"] for step in steps if step["data-event"] == "call"] == judge.calls(pos)
    live_calls = [p for p in judge.calls(pos) if not judge.is_over(p)]
    assert len(steps) == len(judge.calls(pos)) + len(live_calls)  # a live call also returns, later
    assert steps[-1]["data-position"] == pos and steps[-1]["data-returns"] == str(judge.minimax(pos))
    stack = [e.attrs["data-position"] for e in page["stack"].iter("li")]
    assert stack == [pos]


def test_a_trace_step_says_what_returns_and_why(client):
    page = Page(client.get("/explore/XOXOX..../trace/3").text)
    assert [e.attrs["data-position"] for e in page["stack"].iter("li")] == ["XOXOX....", "XOXOXO...", "XOXOXOX.."]
    assert page["step-text"].text.startswith("min_value(board) is called on the position after X at a3 (depth 2).")
    assert "X has three in a row, so it returns utility(board) = 1" in page["step-text"].text
    last = Page(client.get("/explore/XOXOX..../trace/64").text)
    assert "min_value returns min(1, 1, 1, 1) = 1 to nobody" in last["step-text"].text
    assert "minimax(board) returns an action" in last["step-text"].text  # O cannot stop c1 and a3 both


def test_the_traces_step_links_land_on_the_step(client):
    """Previous, Next, First and Last scroll to the step (the #step fragment, no script
    needed), as the learn pages' trace does: on a phone the step is below the fold."""
    page = Page(client.get("/explore/XOXOX..../trace/5?back=game").text)
    steps = page["step"]  # the heading "step 5 of 64" and the buttons
    assert page["trace-title"] in list(steps.iter("h2"))
    assert {a.attrs["rel"] for a in steps.iter("a")} == {"prev", "next"}
    linked = [a for a in page["trace"].iter("a") if a.attrs["href"].startswith("/explore/XOXOX..../trace/")]
    assert [a.text for a in linked] == ["← Previous", "Next →", "First step", "Last step"]
    assert [a.attrs["href"] for a in linked] == [f"/explore/XOXOX..../trace/{n}?back=game#step" for n in (4, 6, 1, 64)]


@pytest.mark.parametrize(
    ("url", "status"),
    [("/explore/XO.XO..../trace/1", 404), ("/explore/XOXOX..../trace/0", 404), ("/explore/XOXOX..../trace/65", 404)],
)
def test_traces_only_where_they_fit_and_steps_that_exist(client, url, status):
    response = client.get(url)
    assert response.status_code == status and "Traceback" not in response.text
    page = Page(response.text)
    said = page.root.by_id("error-description") or page["lost-description"]  # a step outside: its own page
    assert "step" in said.text


def test_the_way_back_to_your_game_is_kept_while_exploring(client):
    plain = Page(client.get("/explore/X...O....").text)
    assert plain.root.by_id("back-to-game") is None
    page = Page(client.get("/explore/X...O....?back=game").text)
    assert page["back-to-game"].attrs["href"] == "/"
    hrefs = [
        a.attrs["href"] for a in page["main"].iter("a") if a.attrs["href"].startswith("/explore/")
    ]  # not the site nav
    assert hrefs and all(href.endswith("?back=game") for href in hrefs if "/bugs" not in href)


def test_one_move_back_lists_every_live_parent(client):
    page = Page(client.get("/explore/XX.OO....").text)  # O just played a2 or b2
    assert [a.attrs["data-position"] for a in page["parents"].iter("a")] == ["XX..O....", "XX.O....."]
    assert Page(client.get("/explore/").text).root.by_id("parents") is None


@pytest.mark.parametrize("pos", [".........", "XX.OO....", "X...O....", "XO.XO....", "XOXOX....", "XXXOO...."])
def test_a_students_answer_is_marked_and_judged_as_the_judge_says(client, pos):
    answers = [None, *((i, j) for i in range(3) for j in range(3))]
    value = judge.minimax(pos)
    right = [] if judge.is_over(pos) else [n for n, kid in judge.children(pos).items() if judge.minimax(kid) == value]
    for answer in answers:
        asked = "none" if answer is None else f"{answer[0]},{answer[1]}"
        page = Page(client.get(f"/explore/{pos}?student={asked}").text)
        cell = None if answer is None else 3 * answer[0] + answer[1]
        optimal = cell is None if judge.is_over(pos) else cell in right
        assert page["student"].attrs["data-optimal"] == str(optimal).lower(), (pos, asked)
        verdict = page["student-verdict"].text
        assert verdict.startswith(f"Your minimax returned {'None' if answer is None else str(answer)}"), verdict
        assert ("optimal: it keeps the minimax value" in verdict) == (optimal and cell is not None), verdict
        if right:
            shown = page["student-right"].text
            assert [c for c in range(9) if f"{divmod(c, 3)} {cell_name(c)}" in shown] == right, shown
        if cell is not None and pos[cell] == "." and not judge.is_over(pos):
            marked = [td for td in page["board"].iter("td") if "student" in td.attrs["class"].split()]
            assert [(int(td.attrs["data-row"]), int(td.attrs["data-col"])) for td in marked] == [answer]
            outcome, plies = judge.move_outcome(pos, cell)
            mine = (plies + 1) // 2
            words = {"draw": "holds the draw", "win": "wins at once" if mine == 1 else f"wins in {mine} of its moves"}
            assert words.get(outcome, "loses") in verdict, verdict


def test_a_students_answer_written_otherwise_gets_a_clear_page(client):
    response = client.get("/explore/XX.OO....?student=c1")
    assert response.status_code == 400 and "i,j" in Page(response.text)["error-description"].text


def pace(pos: str, cell: int) -> str:
    """What the page must say after a move, from the judge: nothing for a best move, "refuted
    by" for a worse outcome, else how the move's depth compares with the best move's for its
    mover (the best move wins soonest, or loses latest)."""
    if cell in judge.optimal_moves(pos):
        return ""
    outcome, plies = judge.move_outcome(pos, cell)
    best_outcome, best_plies = judge.move_outcome(pos, judge.optimal_moves(pos)[0])
    if outcome != best_outcome:
        return "refuted by"
    if plies == best_plies:
        return f"as fast a {outcome} as the best move's"
    return f"a {'slower' if plies > best_plies else 'quicker'} {outcome} than the best move's"


def test_a_losing_move_that_loses_sooner_is_called_quicker_not_slower(client):
    page = Page(client.get("/explore/XO.X.....").text)
    said = {item.attrs["data-cell"]: item.text for item in page["moves"].iter("li")}
    assert "quicker loss than the best move's: perfect play then goes X a3" in said["c1"]
    assert "slower" not in page["moves"].text and "quicker" not in said["a3"]


def assert_pace_said(page: Page, pos: str) -> None:
    """Each move's line compares its depth with the best move's as the judge says (pace); every
    live position's page is checked so by test_every_reachable_position_explained_as_the_judge_says."""
    items = {item.attrs["data-cell"]: item.text for item in page["moves"].iter("li")}
    for cell in judge.children(pos):
        expected, text = pace(pos, cell), items[cell_name(cell)]
        assert (expected in text) if expected else ";" not in text, (pos, cell_name(cell), text)


@pytest.mark.slow
def test_the_pages_walked_whole_meet_every_kind_of_line():
    """assert_pace_said, run on every live position's page, meets each thing a line may say."""
    live = [p for p in judge.reachable() if not judge.is_over(p)]
    said = {pace(pos, cell).split(" the")[0] for pos in live for cell in judge.children(pos)}
    assert said == {"", "refuted by", "a slower win than", "a quicker loss than"}
