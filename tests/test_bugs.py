"""The three minimax bugs shown to students: what each one plays, checked against the
judge, and the page that shows them."""

import functools

import pytest

from tests import judge
from tests.page import Page
from tests.test_engine import LIVE, SAMPLE, board
from ttt_web.core import bugs
from ttt_web.core import tictactoe as ttt
from ttt_web.core.position import cell_name


def utility_value(pos: str) -> int:
    """Minimax value for X with no depth, by the judge's own rules."""
    return judge.value(pos)[0]


def values(pos: str) -> dict[int, int]:
    return {cell: utility_value(child) for cell, child in judge.children(pos).items()}


@pytest.mark.slow
def test_each_bug_chooses_exactly_as_its_code_says_in_every_live_position():
    check_choices(LIVE)


def test_each_bug_chooses_exactly_as_its_code_says_in_sampled_live_positions():
    check_choices(SAMPLE)


def check_choices(positions: list[str]) -> None:
    for pos in positions:
        found = values(pos)
        best = (max if judge.to_move(pos) == "X" else min)(found.values())
        equal = [divmod(cell, 3) for cell in sorted(found) if found[cell] == best]
        choices = {bug.slug: bug.choices(board(pos)) for bug in bugs.BUGS}
        assert choices["no-depth"] == equal, pos
        assert choices["first-tie"] == equal[:1], pos
        scored = {cell: alternating(child, False) for cell, child in judge.children(pos).items()}
        top = max(scored.values())  # min_value on each result, the largest kept, whoever is to move
        assert choices["wrong-player"] == [divmod(min(c for c, v in scored.items() if v == top), 3)], pos


@functools.cache
def alternating(pos: str, maximizing: bool) -> int:
    """A student's max_value / min_value, each calling the other: by the judge's rules alone."""
    if judge.is_over(pos):
        return {"X": 1, "O": -1, None: 0}[judge.won_by(pos)]
    got = [alternating(child, not maximizing) for child in judge.children(pos).values()]
    return max(got) if maximizing else min(got)


class StudentCode:
    """The assignment's functions written as a student writes them (lists of rows, None for an
    empty cell, actions a set), to run the bug's own line of code."""

    @staticmethod
    def player(board):
        flat = [c for row in board for c in row]
        return "O" if flat.count("X") > flat.count("O") else "X"

    @staticmethod
    def actions(board):
        return {(i, j) for i in range(3) for j in range(3) if board[i][j] is None}

    def result(self, board, action):
        copied = [list(row) for row in board]
        copied[action[0]][action[1]] = self.player(board)
        return copied

    @staticmethod
    def as_text(board) -> str:
        return "".join(c or "." for row in board for c in row)

    def terminal(self, board) -> bool:
        return judge.is_over(self.as_text(board))

    def utility(self, board) -> int:
        return {"X": 1, "O": -1, None: 0}[judge.won_by(self.as_text(board))]

    def max_value(self, board) -> float:
        if self.terminal(board):
            return self.utility(board)
        return max(self.min_value(self.result(board, a)) for a in self.actions(board))

    def min_value(self, board) -> float:
        if self.terminal(board):
            return self.utility(board)
        return min(self.max_value(self.result(board, a)) for a in self.actions(board))

    def buggy_minimax(self, board):
        min_value, result, actions = self.min_value, self.result, self.actions
        best = max(actions(board), key=lambda a: min_value(result(board, a)))  # the bug's line
        return best


def test_the_wrong_player_line_run_as_written_plays_what_the_page_says(client):
    bug = next(b for b in bugs.BUGS if b.slug == "wrong-player")
    assert "best = max(actions(board), key=lambda a: min_value(result(board, a)))" in bug.code
    pos, action = bugs.telling_position(bug.slug)
    played = StudentCode().buggy_minimax([[None if c == "." else c for c in pos[r : r + 3]] for r in (0, 3, 6)])
    assert (pos, played) == ("........X", (0, 1))  # the issue's own check: b1, not a1
    assert action == played and 3 * played[0] + played[1] not in judge.optimal_moves(pos)
    section = Page(client.get("/explore/bugs").text)["bug-wrong-player"]
    assert "with O to move, it plays b1 (0, 1)," in " ".join(section.text.split()).replace(" ,", ",")


def test_the_position_shown_for_each_is_the_first_fewest_marks_first_as_the_page_says(client):
    order = sorted((p for p in judge.reachable() if not judge.is_over(p)), key=lambda p: (9 - p.count("."), p))
    for bug in bugs.BUGS:
        slower = bug.slug == "no-depth"
        first = next(p for p in order if weaker(bug, p, slower))
        assert bugs.telling_position(bug.slug)[0] == first, bug.slug
    any_weaker = next(p for p in order if weaker(bugs.BUGS[1], p, False))
    assert any_weaker == ".....O.XX"  # the count: 3 marks, before .....XOOX
    assert all(judge.move_outcome(any_weaker, c)[0] == "loss" for c in judge.children(any_weaker))
    assert bugs.telling_position("first-tie")[0] == any_weaker
    page = Page(client.get("/explore/bugs").text)
    said = page["shown-first"]
    assert (
        said.attrs["data-no-depth-first"] == any_weaker
        and f"{any_weaker} (3 marks), where every move loses" in said.text
    )
    assert "for the version with no depth preference, the first where that move is a slower win" in said.text


def weaker(bug, pos: str, slower_win: bool) -> bool:
    """Whether the bug may play, in `pos`, a move the judge does not count optimal (a win, if
    `slower_win`)."""
    cells = [3 * i + j for i, j in bug.choices(board(pos))]
    bad = [c for c in cells if c not in judge.optimal_moves(pos)]
    return any(judge.move_outcome(pos, c)[0] == "win" for c in bad) if slower_win else bool(bad)


def test_the_depthless_version_may_take_a_slower_win():
    pos, action = bugs.telling_position("no-depth")
    cell = 3 * action[0] + action[1]
    assert judge.move_outcome(pos, cell)[0] == "win" and cell not in judge.optimal_moves(pos)


@pytest.mark.parametrize("bug", bugs.BUGS, ids=lambda b: b.slug)
def test_each_bug_has_a_telling_position_where_its_move_is_worse(bug):
    pos, action = bugs.telling_position(bug.slug)
    cell = 3 * action[0] + action[1]
    assert cell not in judge.optimal_moves(pos)
    assert action in bug.choices(board(pos))


def test_the_wrong_player_bug_loses_to_the_engine_as_o():
    cells = bugs.game(next(b for b in bugs.BUGS if b.slug == "wrong-player"), "O")
    assert len(cells) % 2 == 1  # X moved last: X won


def test_the_page_shows_each_bug_with_its_position_and_games(client):
    response = client.get("/explore/bugs")
    assert response.status_code == 200 and response.headers["Cache-Control"].startswith("public")
    page = Page(response.text)
    for bug in bugs.BUGS:
        section = page[f"bug-{bug.slug}"]
        pos, _ = bugs.telling_position(bug.slug)
        assert section.attrs["data-position"] == pos and section.attrs["data-verdict"] != "best"
        links = [a.attrs["href"] for a in section.iter("a")]
        assert f"/explore/{pos}" in links and sum(href.startswith("/review/") for href in links) == 2


def mover_wins(pos: str) -> bool:
    return not judge.is_over(pos) and judge.minimax(pos) == (1 if judge.to_move(pos) == "X" else -1)


def slowest_win(pos: str, me: str, seen: dict) -> int:
    """`me`'s own moves to the end when `me` takes the slowest move that keeps the win and
    the opponent the move that lasts longest: the judge's own walk, no engine."""
    if judge.is_over(pos):
        return 0
    if pos not in seen:
        goal = 1 if me == "X" else -1
        kids = judge.children(pos).values()
        if judge.to_move(pos) == me:
            seen[pos] = 1 + max(slowest_win(k, me, seen) for k in kids if judge.minimax(k) == goal)
        else:
            seen[pos] = max(slowest_win(k, me, seen) for k in kids)
    return seen[pos]


def test_the_depthless_player_still_wins_every_won_position_at_most_two_moves_late(client):
    seen = {"X": {}, "O": {}}
    late = {}
    for pos in judge.reachable():
        if mover_wins(pos):
            me = judge.to_move(pos)
            late[pos] = slowest_win(pos, me, seen[me]) - (judge.value(pos)[1] + 1) // 2
    most = max(late.values())
    assert (len(late), most, late["XOOX....."]) == (2_836, 2, 2)
    shown = Page(client.get("/explore/bugs").text)["slower-wins"]
    assert int(shown.attrs["data-winning"]) == len(late) and f"{len(late):,} positions" in shown.text
    assert int(shown.attrs["data-slower"]) == sum(n > 0 for n in late.values())
    assert int(shown.attrs["data-most"]) == most and f"at most {most} more of its own moves" in shown.text
    assert late[shown.attrs["data-example"]] == most


def test_the_page_tells_real_bugs_from_legal_weaker_play(client):
    page = Page(client.get("/explore/bugs").text)
    for bug in bugs.BUGS:
        section = page[f"bug-{bug.slug}"]
        pos, action = bugs.telling_position(bug.slug)
        cell = 3 * action[0] + action[1]
        keeps_value = judge.minimax(judge.children(pos)[cell]) == judge.minimax(pos)
        assert section.attrs["data-kind"] == ("legal" if keeps_value else "bug"), bug.slug
        assert ("Both keep the minimax value" in section.text) == keeps_value
    first_tie, action = bugs.telling_position("first-tie")  # with depth, the first of the ties is the engine's
    engine = judge.optimal_moves(first_tie)[0]
    assert page["bug-first-tie"].text.count(f"the engine plays {cell_name(engine)} {divmod(engine, 3)} ,") == 1
    assert [judge.blocks(first_tie, c) for c in (3 * action[0] + action[1], judge.optimal_moves(first_tie)[0])] == [
        False,
        True,
    ]


def test_a_game_won_counts_the_winners_own_moves(client):
    page = Page(client.get("/explore/bugs").text)
    cells = bugs.game(next(b for b in bugs.BUGS if b.slug == "wrong-player"), "O")
    pos = "".join("XO"[cells.index(n) % 2] if n in cells else "." for n in range(9))
    assert judge.won_by(pos) == "X"
    assert f"X won in {(len(cells) + 1) // 2} of its moves ({len(cells)} in all)." in page["bug-wrong-player"].text


def test_the_first_tie_versions_weaker_move_comes_from_the_missing_depth_as_its_text_says():
    bug = next(b for b in bugs.BUGS if b.slug == "first-tie")
    pos, action = bugs.telling_position(bug.slug)
    cell = 3 * action[0] + action[1]
    same = [c for c, v in values(pos).items() if v == utility_value(judge.children(pos)[cell])]
    assert cell == min(same) and len(same) == len(judge.children(pos))  # every move ties without depth: the first
    outcome, plies = judge.move_outcome(pos, cell)
    assert (outcome, plies) == ("loss", 1 + 1)  # it loses at once
    slowest = judge.optimal_moves(pos)
    assert judge.move_outcome(pos, slowest[0])[1] > plies  # with depth the first slowest loss differs
    assert ttt.minimax(board(pos)) == divmod(slowest[0], 3)  # the engine's own move
    assert "No depth" in bug.name and "missing depth" in bug.explanation
