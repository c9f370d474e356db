"""The grader on the bugs students make and the files that attack it: each report names
the right function, the line in the student's file and the fix; nothing of the student's
outlives the grader; a hostile reply costs neither memory nor time."""

from __future__ import annotations

import contextlib
import os
import pty
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests import judge
from tests.grading import ROOT, STUDENTS, grade, graded, graded_json, mutant, on_a_terminal
from ttt_web.grade.checks import checks
from ttt_web.grade.judges import minimax
from ttt_web.grade.report import Failure, Tally, fix_first
from ttt_web.grade.wrong import INVALID_ACCEPTED, RAISES_ON_VALID, Wrong, failed

WRONG_PLAYER = {  # the bug's name in the report: (file, line, replacement)
    "max at the root": ("quick.py", "    pick = max if player(board) == X else min\n", "    pick = max\n"),
    "max(..., key=min_value) on O's turn": (
        "cs50.py",
        "    if player(board) == X:\n        return max(actions(board), key=lambda a: min_value(result(board, a)))\n"
        "    return min(actions(board), key=lambda a: max_value(result(board, a)))\n",
        "    return max(actions(board), key=lambda a: min_value(result(board, a)))\n",
    ),
    "min_value takes the max": (
        "cs50.py",
        "    v = math.inf\n    for action in actions(board):\n        v = min(v, max_value(",
        "    v = -math.inf\n    for action in actions(board):\n        v = max(v, max_value(",
    ),
}
PLAYER = "def player(board):\n"


def writes_to_every_descriptor(data: str) -> str:
    """A player() that writes `data` to every descriptor it can: the grader's reply channel is one."""
    return PLAYER + textwrap.indent(WRITES.replace("DATA", data), "    ")


WRITES = """import os
for fd in range(3, 30):
    try:
        os.write(fd, DATA)
    except OSError:
        pass
"""


@pytest.mark.server
@pytest.mark.parametrize("bug", list(WRONG_PLAYER))
def test_each_form_of_the_wrong_player_is_named(tmp_path, bug):
    base, line, replacement = WRONG_PLAYER[bug]
    code, report = graded_json(mutant(tmp_path, base, line, replacement), "--only", "minimax")
    assert code == 1 and [p["name"] for p in report["patterns"]] == [f"Wrong player: {bug}"]
    failures = report["functions"]["minimax"]["failures"]
    for failure in failures:
        cell = 3 * int(failure["explore"][-3]) + int(failure["explore"][-1])
        assert cell not in judge.optimal_moves(failure["position"]), failure
    on_o = all(judge.to_move(f["position"]) == "O" for f in failures)
    assert on_o == (bug != "min_value takes the max")
    assert ("Every one of the" in report["patterns"][0]["text"]) == on_o


@pytest.mark.server
@pytest.mark.parametrize(
    "replacement",
    [
        "    best, move = (-1, None) if player(board) == X else (1, None)\n    for action in choices:\n"
        "        v = value(freeze(result(board, action)))\n"
        "        if (v > best) if player(board) == X else (v < best):\n            best, move = v, action\n"
        "    return move\n",
        "    moves = {value(freeze(result(board, a))): a for a in choices}\n"
        "    want = 1 if player(board) == X else -1\n"
        "    return moves[want] if want in moves else moves[0]\n",
    ],
    ids=["None", "KeyError"],
)
def test_none_when_every_move_loses_is_named_with_a_losing_position_drawn(tmp_path, replacement):
    line = "    return pick(choices, key=lambda action: value(freeze(result(board, action))))\n"
    code, out = graded(mutant(tmp_path, "quick.py", line, replacement), "--only", "minimax")
    assert code == 1 and "This looks like a known bug: None when every move loses" in out
    assert "minimax      4,846 / 5,478   FAILED in 632" in out
    rows = out.split("None when every move loses", 1)[1].splitlines()[3:6]
    position = "".join("".join(row.split()[1:]) for row in rows)
    assert len(position) == 9 and not judge.is_over(position), rows
    assert all(judge.move_outcome(position, cell)[0] == "loss" for cell in judge.children(position))


@pytest.mark.server
def test_a_max_value_that_calls_itself_is_named_in_the_assignments_terms():
    code, out = graded(STUDENTS / "max_calls_max.py", "--only", "minimax")
    assert code == 1 and "This looks like a known bug: Wrong player: max_value calls max_value" in out
    assert "MIN's turns are played as MAX's" in out
    _, report = graded_json(STUDENTS / "cs50.py", "--only", "minimax")
    assert report["passed"] and not [p for p in report["patterns"] if p["failure"]]


@pytest.mark.server
def test_a_raising_result_is_shown_once_at_its_line(tmp_path):
    path = mutant(
        tmp_path,
        "quick.py",
        "    i, j = action\n",
        "    i, j = action\n    if (i, j) == (2, 2):\n        return board[i][j + 1]\n",
    )
    code, out = graded(path, "--only", "result")
    assert code == 1 and "  result     " in out and "by kind: exceptions" in out
    assert out.count("raised in your file at") == 1
    assert "tictactoe.py:28, in result" in out and "return board[i][j + 1]" in out
    assert "IndexError: list index out of range" in out


@pytest.mark.server
def test_a_minimax_that_never_returns_is_stopped_and_shown_where(tmp_path):
    line = "    choices = sorted(actions(board))\n"
    path = mutant(tmp_path, "quick.py", line, "    while True:\n        pass\n" + line)
    started = time.monotonic()
    code, out = graded(path, "--only", "minimax", "--call-seconds", "2")
    assert time.monotonic() - started < 30
    assert code == 1 and "minimax took over 2 s of processor time on this board (a textbook minimax takes about" in out
    assert "and was not deep in a search when stopped: a loop that never ends?" in out
    assert "stopped in your file at" in out and "tictactoe.py:70, in minimax" in out and "while True:" in out
    assert "not checked (gave up after a call ran over 2 s" in out and "FAILED" not in out


BURNS = """    import time
    if board[0][0] is not EMPTY and not hasattr(minimax, "burnt"):  # its first call: a second of work
        minimax.burnt, start = True, time.process_time()
        while time.process_time() - start < 1:
            pass
"""


@pytest.mark.server
def test_a_loaded_machine_does_not_stretch_the_time_limit(tmp_path):
    """The limit counts the processor time of the student's process: with every core busy
    twice over, a call that works a second answers within a 2-second limit."""
    line = "    choices = sorted(actions(board))\n"
    path = mutant(tmp_path, "quick.py", line, BURNS + line)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    try:
        code, report = graded_json(path, "--only", "minimax", "--call-seconds", "2")
    finally:
        for process in busy:
            process.kill()
            process.wait()
    assert code == 0 and report["functions"]["minimax"]["ran_over"] == 0, report["functions"]["minimax"]


@pytest.mark.server
def test_score_in_place_of_utility_is_named_so(tmp_path):
    path = tmp_path / "tictactoe.py"
    path.write_text((STUDENTS / "quick.py").read_text().replace("utility(", "score("))
    code, out = graded(path, "--only", "utility")
    assert code == 0 and "  score          958 / 958     ok" in out
    assert "utility (found as `score`, CPSC 481's name): CS50's check50 needs it named `utility`." in out


@pytest.mark.server
def test_a_file_that_prints_is_graded_as_any_other(tmp_path):
    to_fd_1 = "    print('{', file=__import__('sys').__stdout__)\n"
    prints = f"print('loading')\n\n\n{PLAYER}    print('player', board)\n{to_fd_1}"
    code, out = graded(mutant(tmp_path, "quick.py", PLAYER, prints), "--only", "player")
    assert code == 0 and "  player       4,520 / 4,520   ok" in out


@pytest.mark.server
@pytest.mark.parametrize(
    "data, said",
    [
        ("b'garbage\\n'", "a line that is not JSON: b'garbage'"),
        ("b'[1, 2]\\n'", "a JSON list, not an object"),
        ("b'{\"got\": 1}\\n'", "an answer without its type"),
        ("b'x' * 40_000_000", "more than 1,048,576 bytes without a newline"),
    ],
)
def test_a_reply_that_is_not_one_is_refused_without_cost(tmp_path, data, said):
    hostile = mutant(tmp_path, "quick.py", PLAYER, writes_to_every_descriptor(data), "hostile.py")
    calm = mutant(tmp_path, "quick.py", "    x = sum(", "    print(board)\n    x = sum(", "calm.py")
    runs = {}
    for path in (calm, hostile):
        started = time.monotonic()
        process = grade(path, "--only", "player", peak=True)
        out, err = process.communicate(timeout=300)
        assert "Traceback" not in err, err
        runs[path] = (process.returncode, out, int(err.rsplit("peak ", 1)[1]), time.monotonic() - started)
    code, out, peak, seconds = runs[hostile]
    assert code == 1 and said in out and "gave up after 3 calls broke the reply channel" in out
    assert "a file that tampers with the grader proves nothing" in out
    assert peak < runs[calm][2] + 16_000 and seconds < 3 * runs[calm][3] + 5


FORKS = """import os, time
if not os.path.exists(PIDS):
    for _ in range(8):
        try:
            pid = os.fork()
        except OSError:
            continue
        if pid == 0:
            if os.fork() == 0:
                os.setsid()  # out of the process group, a grandchild of an orphan
                with open(PIDS, "a") as f:
                    f.write(f"{os.getpid()}\\n")
                time.sleep(300)
            os._exit(0)
    time.sleep(1)
"""


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.server
def test_nothing_the_file_starts_outlives_the_grader(tmp_path):
    pids = tmp_path / "pids"
    forks = PLAYER + textwrap.indent(FORKS.replace("PIDS", repr(str(pids))), "    ")
    code, _ = graded(mutant(tmp_path, "quick.py", PLAYER, forks), "--only", "player")
    assert code == 0
    started = [int(line) for line in pids.read_text().split()] if pids.exists() else []
    assert (len(started) == 8) == (os.getuid() == 0)  # a user other than root cannot fork at all
    assert not [pid for pid in started if alive(pid)]


@pytest.mark.server
def test_a_file_that_no_longer_loads_after_a_crash_is_reported(tmp_path):
    flag = tmp_path / "loaded"
    once = (
        f"import os as _os\nif _os.path.exists({str(flag)!r}):\n    raise RuntimeError('loaded twice')\n"
        f"open({str(flag)!r}, 'w').close()\n\n\n{PLAYER}    if board[0][0] == X:\n        _os._exit(3)\n"
    )
    code, out = graded(mutant(tmp_path, "quick.py", PLAYER, once), "--only", "player")
    assert code == 1 and "not checked (your file no longer loads after a crash: RuntimeError: loaded twice)" in out


@pytest.mark.server
def test_a_result_that_only_raises_not_implemented_passes_nothing(tmp_path):
    path = mutant(tmp_path, "quick.py", "    i, j = action\n", "    raise NotImplementedError\n")
    code, report = graded_json(path, "--only", "result")
    assert code == 1 and report["functions"]["result"]["passed"] == 0


@pytest.mark.server
def test_a_result_that_raises_on_every_move_refuses_no_invalid_move(tmp_path):
    """Raising on an invalid move shows nothing when the valid moves of the same board raise
    the same exception: each refusal check fails, saying which valid move raised it too."""
    code, report = graded_json(STUDENTS / "raises_always.py", "--only", "result")
    result = report["functions"]["result"]
    plan = list(checks("result"))
    refusals = sum(check.action not in {divmod(n, 3) for n in judge.children(check.position)} for check in plan)
    assert code == 1 and result["passed"] == 0
    assert result["kinds"][RAISES_ON_VALID] == refusals
    said = next(f for f in result["failures"] if f["kind"] == RAISES_ON_VALID)
    assert said["got"].startswith("TypeError, as the valid action (")
    assert "result must return a new board for a valid action" in said["why"]


@pytest.mark.server
def test_json_even_when_the_file_does_not_load(tmp_path):
    broken = tmp_path / "tictactoe.py"
    broken.write_text("import numpy_that_is_not_here\n")
    process = grade(broken, "--json")
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 2 and '"loaded": false' in out and "ModuleNotFoundError" in out


@pytest.mark.server
def test_the_grader_runs_on_the_standard_library_alone():
    """Python with no site packages (no tqdm, no click, no Flask) still grades, with a plain
    progress bar on a terminal that names the function it checks."""
    terminal, their_end = pty.openpty()
    command = [sys.executable, "-S", "-m", "ttt_web.grade", str(STUDENTS / "quick.py"), "--only", "winner"]
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=their_end, text=True) as process:
        os.close(their_end)
        shown = b""
        with contextlib.suppress(OSError):  # the terminal's end reads EIO once the grader is gone
            while chunk := os.read(terminal, 1 << 16):
                shown += chunk
        out = process.stdout.read()
    os.close(terminal)
    assert process.returncode == 0 and "  winner       5,478 / 5,478   ok" in out, shown
    assert b"Checking winner" in shown and b"Traceback" not in shown


def tally(name: str, *kinds: str) -> Tally:
    counted = Tally(name, unchecked=len(kinds))
    for kind in kinds:
        counted.record(Failure("." * 9, None, Wrong("a", "b", "", kind)))
    return counted


def test_fix_first_only_when_the_failure_can_explain_the_later_ones():
    harmless = {"result": tally("result", INVALID_ACCEPTED), "minimax": tally("minimax", "None returned")}
    assert fix_first(harmless) is None
    as_list = {"actions": tally("actions", "not a set"), "minimax": tally("minimax", "None returned")}
    assert fix_first(as_list) is None
    wrong = {"player": tally("player", "wrong answers"), "minimax": tally("minimax", "None returned")}
    assert fix_first(wrong) == "player"
    alone = {"winner": tally("winner", "wrong answers"), "actions": tally("actions")}
    assert fix_first(alone) is None
    chain = {name: tally(name, "wrong answers") for name in ("player", "result", "minimax")}
    assert fix_first(chain) == "player"
    apart = chain | {"winner": tally("winner", "missing")}
    assert fix_first(apart) is None


@pytest.mark.server
def test_unwritten_functions_are_said_once_and_not_blamed_on_another():
    """terminal, utility and minimax still raise NotImplementedError; winner, which they
    would call, has a bug of its own: it is not named as the cause of theirs."""
    code, out = graded(STUDENTS / "unwritten.py")
    assert code == 1 and "  winner       5,428 / 5,478   FAILED in 50" in out
    for function in ("terminal", "utility", "minimax"):
        assert out.count(f"  {function} ") == 1 and f"\n{function}: " not in out, out
    assert out.count("not written yet (raises NotImplementedError)") == 3
    assert "expected  an answer" not in out and "NotImplementedError:" not in out
    assert out.rstrip().endswith("Not passed: winner. Not written yet: terminal, utility, minimax.")


def thrown(name: str, where: str, message: str = "") -> Wrong:
    return failed({"raised": name, "message": message, "where": [{"function": where}]})


def test_a_function_is_fixed_first_only_for_failures_it_can_cause():
    wrong_winner = tally("winner", "wrong answers")
    unwritten = Tally("terminal", unchecked=1)
    unwritten.record(Failure("." * 9, None, thrown("NotImplementedError", "terminal")))
    assert unwritten.unwritten and fix_first({"winner": wrong_winner, "terminal": unwritten}) is None
    through = Tally("terminal", unchecked=1)
    through.record(Failure("." * 9, None, thrown("NotImplementedError", "winner")))
    assert not through.unwritten and fix_first({"winner": wrong_winner, "terminal": through}) == "winner"
    assert thrown("ValueError", "result").got == "ValueError"
    assert thrown("ValueError", "result", "occupied").got == "ValueError: occupied"


def test_minimax_answers_read_as_what_they_are():
    empty_tuple = minimax("X........", {"got": [], "type": "tuple", "changed": False})
    assert empty_tuple.kind == "not an action" and "not an empty cell" not in empty_tuple.why
    over = minimax("XXXOO....", {"raised": "KeyError", "message": "0", "changed": False})
    assert over.expected == "None" and over.kind == "exceptions"
    taken = minimax("X........", {"got": [0, 0], "type": "tuple", "changed": False})
    assert taken.kind == "illegal moves" and taken.why == "that cell is taken"


@pytest.mark.server
def test_python_runs_the_file_with_the_students_interpreter(tmp_path):
    """A file that imports what only the student's Python has (numpy, say) loads with --python."""
    (tmp_path / "site").mkdir()
    (tmp_path / "site" / "only_theirs.py").write_text("X = 'X'\n")
    theirs = tmp_path / "their-python"
    theirs.write_text(f'#!/bin/sh\nPYTHONPATH={tmp_path / "site"} exec {sys.executable} "$@"\n')
    theirs.chmod(0o755)
    path = mutant(tmp_path, "quick.py", 'X = "X"\n', "from only_theirs import X\n")
    assert graded_json(path, "--only", "player")[0] == 2
    code, report = graded_json(path, "--only", "player", "--python", str(theirs))
    assert code == 0 and report["functions"]["player"]["passed"] == 4520


@pytest.mark.server
def test_on_a_terminal_the_table_is_printed_once():
    command = [sys.executable, "-m", "ttt_web.grade", str(STUDENTS / "quick.py"), "--only", "winner"]
    code, shown = on_a_terminal(command)
    assert code == 0 and shown.count("  winner       5,478 / 5,478   ok") == 1, shown
    assert shown.count("Grading ") == 1 and "All checks passed." in shown


@pytest.mark.server
def test_a_missing_function_is_said_once_and_not_fixed_first_by_another():
    code, out = graded(STUDENTS / "raises_always.py", "--site", "https://ttt.example.org")
    assert code == 1 and "expected  a function by that name" not in out
    for function in ("winner", "terminal", "utility", "minimax"):
        assert out.count(f"MISSING: your file has no function named {function}") == 1, out
    assert "Missing from your file: winner, terminal, utility, minimax." in out and "first:" not in out
    assert "The explore links open the explorer at https://ttt.example.org." in out and "make run" not in out
