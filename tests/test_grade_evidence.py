"""The grader says only what its evidence shows: no minimax bug named from the answers on
boards minimax changed, no "memoize" without calls counted that repeat the search, no
"Not passed" for a call that ran over; what result's passed checks are; no progress drawn
in a redirected run; and its answers quoted alike and counted in the right number."""

from __future__ import annotations

import pytest

from tests.conftest import made_once
from tests.grading import STUDENTS, graded, graded_json, mutant
from ttt_web.core.costs import EMPTY_BOARD, reachable, tree_size
from ttt_web.grade import child
from ttt_web.grade.fixes import Fix
from ttt_web.grade.judges import actions, player
from ttt_web.grade.progress import Silent, progress_bar
from ttt_web.grade.report import Failure, Tally, link
from ttt_web.grade.text import fix_words, on_o_only, slow_lines, table_line, verdict
from ttt_web.grade.wrong import TIMEOUT, Wrong

SAME_AGAIN = "searches the same positions again and again"
WAITS = "it waits (time.sleep, a lock, input()?)"


@pytest.fixture(scope="module")
@made_once
def result_mutates() -> tuple[int, dict]:
    """result_mutates.py graded in full, its report as --json gives it."""
    return graded_json(STUDENTS / "result_mutates.py")


@pytest.mark.server
def test_no_bug_of_minimax_is_named_from_boards_it_changed(tmp_path, result_mutates):
    """result changes the board it is given: minimax fails, and its moves on the boards it
    changed are no evidence of how it chooses. Fixed, the same file passes."""
    code, report = result_mutates
    assert code == 1 and report["functions"]["minimax"]["kinds"]["changed the board"]
    assert report["patterns"] == []
    fixed = mutant(tmp_path, "result_mutates.py", "    new = board\n", "    new = [list(row) for row in board]\n")
    code, report = graded_json(fixed, "--only", "minimax")
    assert code == 0 and not [p for p in report["patterns"] if p["failure"]]


@pytest.mark.server
def test_a_board_that_result_changed_under_minimax_is_said_to_be_results_doing(result_mutates):
    """result places the mark on the board it is given, so minimax's boards change too: the
    report names result and how to mend it, and tells nothing to change in minimax (with a
    right result put in its place, minimax leaves its boards alone), in --json and in text; the
    exceptions result then raises on those boards are said to follow from it."""
    code, report = result_mutates
    changed = [f for f in report["functions"]["minimax"]["failures"] if f["kind"] == "changed the board"]
    assert code == 1 and report["fix_first"] == "result" and changed
    for failure in changed:
        p, became = failure["position"], failure["got"].removeprefix("the board changed to ").replace(" / ", "")
        placed = [divmod(n, 3) for n in range(9) if p[n] != became[n]]
        marks = f"the mark at {placed[0]} left on it was" if len(placed) == 1 else "the marks at "
        said = f"minimax's board changed, but by your result: {marks}"
        assert failure["why"].startswith(said) and "undo each move" not in failure["why"], failure
        assert "In result, return a new board: copy the board (copy.deepcopy(board))" in failure["why"]
    raised = [f for f in report["functions"]["minimax"]["failures"] if f["kind"] == "exceptions"]
    after = "it raised an exception (the board had been changed by your result earlier in the same search)"
    assert raised and all(f["why"] == after and "not a valid action" in f["got"] for f in raised), raised
    code, out = graded(STUDENTS / "result_mutates.py", "--only", "minimax")
    assert code == 1 and "minimax's board changed, but by your result: " in out and "undo each move" not in out
    assert f"    why       {after}" in out
    assert "minimax needs no change for this" in out


@pytest.mark.server
def test_results_passed_checks_are_said_to_be_the_invalid_moves():
    code, out = graded(STUDENTS / "result_mutates.py", "--only", "result")
    said = "  passed: 0 of 16,167 on valid moves, 13,559 of 13,559 on invalid moves (where result must raise"
    assert code == 1 and "result      13,559 / 29,726  FAILED in 16,167" in out and said in out
    assert "    got       the board changed to .X. / ... / ...\n" in out  # what result made of it


@pytest.mark.server
def test_a_call_that_waits_past_its_limit_is_no_failure_and_not_called_a_search(tmp_path):
    line = "    choices = sorted(actions(board))\n"
    sleeps = "    if board == initial_state():\n        __import__('time').sleep(60)\n"
    code, out = graded(mutant(tmp_path, "quick.py", line, sleeps + line), "--only", "minimax", "--call-seconds", "0.5")
    assert code == 1 and "minimax used only under 0.1 s of processor time in 3 s: is it waiting (sleep, a lock)?" in out
    assert "  minimax      5,477 / 5,478   1 call ran over the time limit (not a failure)" in out
    said = "Not checked in full, with no check failed: minimax. Only minimax was checked: the other functions were not"
    assert out.rstrip().endswith(said + " (--only).")
    assert "Not passed" not in out and "FAILED" not in out and SAME_AGAIN not in out


def slow(cpu_seconds: float, busiest: tuple = ()) -> Tally:
    return Tally("minimax", seconds=100.0, cpu_seconds=cpu_seconds, busiest=busiest)


def test_a_slow_minimax_is_told_why_from_the_evidence_only():
    textbook = (tree_size(EMPTY_BOARD) - 1, "result", EMPTY_BOARD)
    memoized = (16_167, "result", EMPTY_BOARD)  # once per move of every position
    waits = " ".join(slow_lines(slow(5.0, memoized), 101.0))
    assert (
        "Your minimax's calls took 100 s added up, 99% of the time your code ran, and computed for only 5.0 s" in waits
    )
    assert WAITS in waits and SAME_AGAIN not in waits and "Memoize" not in waits
    searches = " ".join(slow_lines(slow(95.0, textbook), 101.0))
    assert WAITS not in searches and SAME_AGAIN in searches and "Memoize" in searches
    assert f"from which 5,478 positions can be reached, your code called result {textbook[0]:,} times" in searches
    both = " ".join(slow_lines(slow(5.0, textbook), 101.0))
    assert WAITS in both and SAME_AGAIN in both
    unknown = " ".join(slow_lines(slow(95.0), 101.0))
    assert (
        unknown
        == "Your minimax's calls took 100 s added up, 99% of the time your code ran. Being slow is not a failure."
    )


def test_the_student_process_counts_the_calls_its_minimax_makes():
    module = child.load(str(STUDENTS / "textbook.py"))
    child.counting(module)
    position = "XO......."
    reply = child.answer(module, str(STUDENTS / "textbook.py"), {"call": "minimax", "board": position})
    assert reply["calls"]["result"] == tree_size(position) - 1 > 10 * len(reachable(position))
    assert reply["calls"]["minimax"] == 1 and reply["cpu"] <= reply["seconds"] + 0.01


def test_a_call_that_ran_over_is_no_failure_in_the_verdict():
    ran_over = Tally("minimax", unchecked=1)
    ran_over.record(Failure(EMPTY_BOARD, None, Wrong("a move", "no answer", "", TIMEOUT)))
    failed = Tally("player", unchecked=1)
    failed.record(Failure(EMPTY_BOARD, None, Wrong("'X'", "'O'")))
    assert table_line(ran_over).endswith("1 call ran over the time limit (not a failure)")
    assert verdict({"minimax": ran_over}) == "Not checked in full, with no check failed: minimax."
    said = verdict({"player": failed, "minimax": ran_over})
    assert said.startswith("Not passed: player. Not checked in full, with no check failed: minimax.")


def test_answers_are_quoted_alike_and_counted_in_the_right_number():
    wrong = player("X........", {"got": "X", "type": "str", "changed": False})
    assert (wrong.expected, wrong.got) == ("'O'", "'X'")
    assert wrong.why == "X has 1 mark and O has 0, so O is to move"
    assert "2 marks" in player("XX.O.....", {"got": "X", "type": "str", "changed": False}).why
    offered = actions("XO.......", {"got": [[0, 0], [0, 2]], "type": "set", "changed": False})
    assert offered.expected.startswith("{(0, 2), (1, 0),") and offered.got == "{(0, 0), (0, 2)}"


def test_progress_where_no_bar_can_be_drawn_is_nothing():
    """Redirected, no line of progress is left in the output: the report is the final lines
    (tests/test_grade_batch_pace.py runs it)."""
    bar = progress_bar([], shown=False)
    assert isinstance(bar, Silent)
    bar.set_description("minimax")
    bar.update(10)


def test_the_explorer_marks_minimax_answer_only_when_the_answer_is_the_failure():
    """A move returned on a board minimax changed may well be optimal: the explorer, shown
    it, would say so beside a failure; a wrong move is marked."""
    changed = Wrong("the board given left as it was", "the board changed", "it changed the board", "changed the board")
    wrong = Wrong("one of (0, 0)", "(1, 1)", "it loses", "wrong move")
    assert link("http://s", Failure(".OOOXXOXX", None, changed, (0, 0))) == "http://s/explore/.OOOXXOXX"
    assert link("http://s", Failure("X........", None, wrong, (1, 1))) == "http://s/explore/X........?student=1,1"


def test_who_was_to_move_is_counted_from_wrong_answers_only():
    """'Every position minimax gets wrong has O to move' is about how it chooses: calls that
    raised or changed the board are no evidence of that."""
    raised = Wrong("a move", "KeyError: 3", "it raised an exception", "exceptions")
    changed = Wrong("the board given left as it was", "the board changed", "it changed the board", "changed the board")
    wrong = Wrong("one of (0, 0)", "(1, 1)", "it loses", "wrong answers")
    tally = Tally("minimax", unchecked=3)
    tally.record(Failure("X........", None, raised, None))
    tally.record(Failure("X.O.X....", None, changed, (2, 2)))
    assert not on_o_only(tally)
    tally.record(Failure("X........", None, wrong, (1, 1)))
    assert on_o_only(tally)


def test_fix_first_is_said_in_the_number_of_its_callers():
    one, many = Fix("result", ("minimax",), 5, 5, True), Fix("winner", ("terminal", "utility"), 7, 7, True)
    assert "result put in place of yours, minimax, which calls it, pass all 5 checks it failed." in fix_words(one)
    assert "terminal and utility, which call it, pass all 7 checks they failed." in fix_words(many)
