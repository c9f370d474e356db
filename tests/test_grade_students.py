"""The grader on the bugs students make and the files that attack it: each report names
the right function, the line in the student's file and the fix; nothing of the student's
outlives the grader; a hostile reply costs neither memory nor time."""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import pty
import re
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from tests import judge
from tests.grading import ROOT, STUDENTS, finished, grade, graded, graded_json, mutant, on_a_terminal
from ttt_web.grade import PROCESSES, bundle
from ttt_web.grade.checks import checks
from ttt_web.grade.child import FILES_WRITTEN
from ttt_web.grade.judges import minimax
from ttt_web.grade.runner import FILE_BYTES, Student
from ttt_web.grade.wrong import RAISES_ON_VALID, failed

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
    listed = re.findall(r"^( +([\d,]+)  (.+)\n            at (.+))$", out, re.M)  # each exception, its count, its line
    kinds = dict(kind.rsplit(" ", 1) for kind in re.search(r"by kind: (.+)", out)[1].split(", "))
    assert ("IndexError: list index out of range", "tictactoe.py:28, in result") in {(e, at) for _, _, e, at in listed}
    assert sum(int(n.replace(",", "")) for _, n, _, _ in listed) == int(kinds["exceptions"].replace(",", ""))
    assert all(line.startswith(f"    {int(n.replace(',', '')):>6,}  ") for line, n, _, _ in listed), listed


@pytest.mark.server
def test_a_minimax_that_never_returns_is_stopped_and_shown_where(tmp_path):
    line = "    choices = sorted(actions(board))\n"
    path = mutant(tmp_path, "quick.py", line, "    while True:\n        pass\n" + line)
    started = time.monotonic()
    code, out = graded(path, "--only", "minimax", "--call-seconds", "1")
    assert time.monotonic() - started < 30
    said = "minimax took over 1 s of processor time on this board, and was not deep in a search when stopped: a loop"
    assert code == 1 and said + " that never ends?" in out
    measured = r"\n    measured  a textbook minimax, without memo, takes about \d+ s on the empty board on this machine"
    assert re.search(measured, out)
    assert "stopped in your file at" in out and "tictactoe.py:70, in minimax" in out and "while True:" in out
    assert "not checked (gave up after a call ran over 1 s" in out and "FAILED" not in out


BURNS = """    import time
    if board[0][0] is not EMPTY and not hasattr(minimax, "burnt"):  # its first call: half a second of work
        minimax.burnt, start = True, time.process_time()
        while time.process_time() - start < 0.5:
            pass
        with open(BURNT, "a") as burnt:  # said once in each process of the file
            burnt.write("burnt\\n")
"""


@pytest.mark.server
def test_a_loaded_machine_does_not_stretch_the_time_limit(tmp_path):
    """The limit counts the processor time of the student's process: with every core busy
    twice over, a call that works half a second answers within a 1-second limit (the cores are
    kept busy until each process of the file has made that call; beside them, it takes over a second)."""
    line = "    choices = sorted(actions(board))\n"
    burnt = tmp_path / "burnt"
    path = mutant(tmp_path, "quick.py", line, BURNS.replace("BURNT", repr(str(burnt))) + line)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2 * (os.cpu_count() or 1))]
    try:
        grader = grade(path, "--json", "--only", "minimax", "--call-seconds", "1")
        processes = min(PROCESSES, os.cpu_count() or 1)
        while grader.poll() is None and (not burnt.exists() or len(burnt.read_text().split()) < processes):
            time.sleep(0.1)
    finally:
        for process in busy:
            process.kill()
            process.wait()
    code, out = finished(grader)
    minimax_ = json.loads(out)["functions"]["minimax"]
    assert code == 0 and minimax_["ran_over"] == 0, minimax_
    assert len(burnt.read_text().split()) == processes  # each call that worked half a second ran beside the busy cores


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
def test_a_reply_that_is_not_one_is_refused_without_cost(tmp_path, calm, data, said):
    hostile = mutant(tmp_path, "quick.py", PLAYER, writes_to_every_descriptor(data), "hostile.py")
    code, out, peak, seconds = peak_and_seconds(hostile)
    assert code == 1 and said in out and "gave up after 3 calls broke the reply channel" in out
    assert "a file that tampers with the grader proves nothing" in out
    assert peak < calm[2] + 16_000 and seconds < 3 * calm[3] + 5


def peak_and_seconds(path: Path) -> tuple[int, str, int, float]:
    """The grader on `path`, --only player: its exit status, report, peak memory (KB) and wall-clock seconds."""
    started = time.monotonic()
    process = grade(path, "--only", "player", peak=True)
    out, err = process.communicate(timeout=300)
    assert "Traceback" not in err, err
    return process.returncode, out, int(err.rsplit("peak ", 1)[1]), time.monotonic() - started


@pytest.fixture(scope="module")
def calm(tmp_path_factory) -> tuple[int, str, int, float]:
    """A file that prints on every call, graded as the hostile files are: what they are measured against."""
    folder = tmp_path_factory.mktemp("calm")
    return peak_and_seconds(mutant(folder, "quick.py", "    x = sum(", "    print(board)\n    x = sum(", "calm.py"))


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
    open(PIDS, "a").close()
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
    assert started == []  # the student's code starts no process, root's included
    assert not [pid for pid in started if alive(pid)]


HIJACK = """import os, sys
with open(os.path.join(os.getcwd(), "tqdm.py"), "w") as f:
    f.write("import sys\\nprint('All checks passed.')\\nsys.exit(0)\\n")
"""


@pytest.mark.server
def test_a_file_cannot_plant_a_module_the_grader_imports(tmp_path):
    """A file that writes tqdm.py where it runs, on a terminal (where the grader draws tqdm's
    bar), neither runs it in the grader nor leaves it where the grader was started."""
    wrong = mutant(tmp_path, "quick.py", "    return 1 if w == X else -1 if w == O else 0\n", "    return 5\n")
    wrong.write_text(HIJACK + wrong.read_text())
    where = tmp_path / "cwd"
    where.mkdir()
    command = [
        sys.executable,
        "-c",
        f"import sys; sys.path.insert(0, {str(ROOT)!r}); import runpy; "
        "runpy.run_module('ttt_web.grade', run_name='__main__')",
        str(wrong),
        "--only",
        "utility",
    ]
    code, shown = on_a_terminal(command, cwd=where)
    assert code == 1 and "All checks passed." not in shown, shown
    assert not (where / "tqdm.py").exists() and not (ROOT / "tqdm.py").exists()
    code, shown = on_a_terminal(command, cwd=where)  # and a later run there is graded as any other
    assert code == 1 and "All checks passed." not in shown


SLEEPS_FOREVER = """import os, time
with open(PID, "w") as f:
    f.write(str(os.getpid()))
"""


@pytest.mark.server
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_the_students_process_ends_with_the_grader(tmp_path, signum):
    pid_file = tmp_path / "pid"
    looping = mutant(tmp_path, "quick.py", PLAYER, PLAYER + "    while True:\n        pass\n")
    looping.write_text(SLEEPS_FOREVER.replace("PID", repr(str(pid_file))) + looping.read_text())
    grader = grade(looping, "--only", "player")
    deadline = time.monotonic() + 30
    while not pid_file.exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    student = int(pid_file.read_text())
    grader.send_signal(signum)
    grader.communicate(timeout=30)
    assert grader.returncode == 128 + signum
    assert not alive(student)


FILLS_THE_DISK = """import os
for n in range(TRIED):  # on each call, more files than the grader lets it open
    try:
        with open(os.path.join(FOLDER, f"{n}.bin"), "wb") as f:
            f.write(b"x" * (1 << 20))
    except OSError:
        pass
""".replace("TRIED", str(3 * FILES_WRITTEN))


@pytest.mark.server
def test_the_disk_a_file_can_fill_is_bounded(tmp_path):
    folder = tmp_path / "filled"
    folder.mkdir()
    filling = mutant(tmp_path, "quick.py", PLAYER, PLAYER + textwrap.indent(FILLS_THE_DISK, "    "))
    filling.write_text(filling.read_text().replace("FOLDER", repr(str(folder))))
    graded(filling, "--only", "player")
    written = sum(path.stat().st_size for path in folder.iterdir())
    assert 0 < written <= FILES_WRITTEN * FILE_BYTES


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
    code, out = graded(path, "--only", "result")
    # 0 passed, and said not written yet: every check failed on a NotImplementedError (report.Tally.unwritten)
    assert code == 1 and "  result           0 / 29,726  not written yet (raises NotImplementedError)" in out
    assert "FAILED" not in out
    said = "Not written yet: result. Only result was checked: the other functions were not (--only)."
    assert out.rstrip().endswith(said)


@pytest.mark.server
def test_a_written_minimax_is_not_called_unwritten_for_the_terminal_it_calls(tmp_path):
    """minimax is written and calls terminal, which raises NotImplementedError: the report
    says terminal is not written yet, never minimax."""
    written = "def minimax(board):\n    if terminal(board):\n        return None\n"
    written += "    return sorted(actions(board))[0]\n"
    path = mutant(tmp_path, "unwritten.py", "def minimax(board):\n    raise NotImplementedError\n", written)
    code, out = graded(path, "--only", "minimax")
    assert code == 1 and "why       terminal is not written yet (it raises NotImplementedError)" in out
    assert "minimax is not written yet" not in out and "Not written yet: minimax" not in out
    code, out = graded(STUDENTS / "unwritten.py", "--only", "minimax")
    assert "Not written yet: minimax." in out


@pytest.mark.server
def test_only_says_what_was_checked(tmp_path):
    """unwritten.py's player is right and its terminal, utility and minimax are not written:
    --only player passes player and says nothing else was checked."""
    code, out = graded(STUDENTS / "unwritten.py", "--only", "player")
    assert code == 0 and "All checks passed." not in out
    said = "player: all checks passed. Only player was checked: the other functions were not (--only)."
    assert out.rstrip().endswith(said)


@pytest.mark.unit
def test_the_downloaded_graders_help_names_the_site_it_came_from(tmp_path):
    (tmp_path / "grader.pyz").write_bytes(bundle.for_site("https://ttt.example.org"))
    shown = subprocess.run([sys.executable, "-S", "grader.pyz", "--help"], cwd=tmp_path, capture_output=True, text=True)
    assert shown.returncode == 0 and "(default https://ttt.example.org)" in " ".join(shown.stdout.split())
    assert "127.0.0.1" not in shown.stdout


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


def mutated(folder: Path, base: str, *changes: tuple[str, str]) -> Path:
    """tests/students/`base` with each (line, replacement) made, each line found once."""
    path = mutant(folder, base, *changes[0])
    for line, replacement in changes[1:]:
        source = path.read_text()
        assert source.count(line) == 1, line
        path.write_text(source.replace(line, replacement))
    return path


NO_ANTI_DIAGONAL = (
    "    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]\n",
    "    lines += [[board[i][i] for i in range(3)]]\n",
)
ACCEPTS_INVALID = (
    '    if not (0 <= i < 3 and 0 <= j < 3) or board[i][j] is not EMPTY:\n        raise ValueError("invalid action")\n',
    "",
)
ALWAYS_X = ("    new[i][j] = player(board)\n", "    new[i][j] = X\n")


@pytest.mark.server
def test_fix_first_is_the_function_that_put_right_makes_its_callers_pass(tmp_path):
    """winner misses the anti-diagonal and result accepts taken cells (which winner does not
    explain): with a right winner patched in, terminal, utility and minimax pass, so winner is
    named first; a counting rule was blocked by result's failures."""
    code, out = graded(mutated(tmp_path, "cs50.py", NO_ANTI_DIAGONAL, ACCEPTS_INVALID))
    assert code == 1 and "  result      20,687 / 29,726  FAILED in 9,039" in out
    said = "Fix winner first: with a right winner put in place of yours, terminal, utility and minimax, which call it,"
    assert said in out.replace("\n", " ")


@pytest.mark.server
@pytest.mark.long
def test_no_fix_first_when_the_callers_still_fail_with_it_put_right(tmp_path):
    """result plays X on every move and minimax maximizes for O too: result's failures could
    explain minimax's by counting, but with a right result minimax still fails."""
    max_always = (
        "    if player(board) == X:\n        return max(actions(board), key=lambda a: min_value(result(board, a)))\n"
        "    return min(actions(board), key=lambda a: max_value(result(board, a)))\n",
        "    return max(actions(board), key=lambda a: min_value(result(board, a)))\n",
    )
    code, report = graded_json(mutated(tmp_path, "cs50.py", ALWAYS_X, max_always))
    assert code == 1 and set(failing_functions(report)) == {"result", "minimax"}
    assert report["fix_first"] is None and report["fixes"] == []
    code, report = graded_json(mutated(tmp_path, "cs50.py", ALWAYS_X))
    assert report["fix_first"] == "result" and report["fixes"][0]["callers"] == ["minimax"]


@pytest.mark.server
def test_every_distinct_exception_is_counted_at_its_line(tmp_path):
    """minimax without its terminal test raises ValueError (min() of no actions) on finished
    boards and, with max_value starting from None, TypeError nearly everywhere else: both are
    listed with their counts and their lines, not only the first few shown (as --json gives them; the
    text's list, in test_a_raising_result_is_shown_once_at_its_line)."""
    path = mutated(
        tmp_path,
        "cs50.py",
        ("def minimax(board):\n    if terminal(board):\n        return None\n", "def minimax(board):\n"),
        ("    v = -math.inf\n", "    v = None\n"),
    )
    code, report = graded_json(path, "--only", "minimax")
    minimax_ = report["functions"]["minimax"]
    lines = path.read_text().splitlines()
    at = {e["exception"].split(":")[0]: e["at"] for e in minimax_["exceptions"]}
    assert code == 1 and set(at) == {"TypeError", "ValueError"}
    assert sum(e["count"] for e in minimax_["exceptions"]) == minimax_["kinds"]["exceptions"]
    for name, code_line in (("TypeError", "        v = max(v, min_value("), ("ValueError", "    return min(actions(")):
        line = next(n for n, text in enumerate(lines, 1) if text.startswith(code_line))
        assert at[name] == f"tictactoe.py:{line}, in " + ("max_value" if name == "TypeError" else "minimax")


BY_ROW_INDEX = """def actions(board):
    moves = []
    for row in board:
        for j, cell in enumerate(row):
            if cell is EMPTY:
                moves.append((board.index(row), j))
    return moves
"""


@pytest.mark.server
def test_actions_built_with_row_index_are_told_the_cells_left_out_and_given_twice(tmp_path):
    """board.index(row) finds the first equal row: on the empty board it gives row 0 three
    times and leaves rows 1 and 2 out. That is said before the list-versus-set type."""
    line = "def actions(board):\n    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}\n"
    code, report = graded_json(mutant(tmp_path, "quick.py", line, BY_ROW_INDEX), "--only", "actions")
    actions_ = report["functions"]["actions"]
    assert code == 1 and actions_["kinds"]["wrong answers"] > 0
    for failure in (f for f in actions_["failures"] if f["kind"] == "wrong answers"):
        p = failure["position"]
        rows = [p[3 * i : 3 * i + 3] for i in range(3)]
        given = [(rows.index(rows[i]), j) for i in range(3) for j in range(3) if p[3 * i + j] == "."]
        empty = {divmod(n, 3) for n in judge.children(p)}
        left_out = ", ".join(map(str, sorted(empty - set(given))))
        twice = ", ".join(map(str, sorted({a for a in given if given.count(a) > 1})))
        assert failure["why"] == f"{left_out} left out; {twice} given more than once", failure


@pytest.mark.server
def test_a_minimax_that_plays_its_move_on_the_board_given_is_named(tmp_path):
    line = "    return pick(choices, key=lambda action: value(freeze(result(board, action))))\n"
    plays = line.replace("return ", "move = ") + "    board[move[0]][move[1]] = player(board)\n    return move\n"
    code, report = graded_json(mutant(tmp_path, "quick.py", line, plays), "--only", "minimax")
    changed = [f for f in report["functions"]["minimax"]["failures"] if f["kind"] == "changed the board"]
    assert code == 1 and changed
    for failure in changed:
        p, became = failure["position"], failure["got"].removeprefix("the board changed to ").replace(" / ", "")
        placed = [n for n in range(9) if p[n] != became[n]]
        assert len(placed) == 1 and p[placed[0]] == "." and became[placed[0]] == judge.to_move(p)
        said = "minimax changed the board it was given: it places a mark at "
        said += f"{divmod(placed[0], 3)} and does not take it back"
        assert failure["why"].startswith(said), failure


FORGETFUL = """answers = {}


def minimax(board):
    if terminal(board):
        return None
    key = sum(cell is EMPTY for row in board for cell in row)
    if key not in answers or answers[key] not in actions(board):
        answers[key] = best(board)
    return answers[key]


def best(board):
"""


@pytest.mark.server
def test_state_carried_across_calls_is_named_with_a_way_to_see_it(tmp_path):
    """A cache keyed by the number of empty cells: each board alone gets a right move, one
    after another does not. The boards the report names are checked in this process."""
    path = mutant(
        tmp_path, "quick.py", "def minimax(board):\n    if terminal(board):\n        return None\n", FORGETFUL
    )
    code, report = graded_json(path, "--only", "minimax")
    carried = next(p for p in report["patterns"] if p["name"] == "State carried across calls")
    earlier, board = re.search(r"call minimax on (\S+) and then on (\S+) in one run", carried["text"]).groups()
    assert code == 1 and f"and on {board} alone: the answers differ." in carried["text"]
    assert right(fresh_minimax(path, [board])[-1], board)
    assert not right(fresh_minimax(path, [earlier, board])[-1], board)


def fresh_minimax(path: Path, boards: list[str]) -> list:
    """The answers of the file's minimax, freshly imported, called on `boards` in turn."""
    spec = importlib.util.spec_from_file_location(f"student_{len(boards)}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    marks = {"X": module.X, "O": module.O, ".": module.EMPTY}
    return [module.minimax([[marks[c] for c in b[r : r + 3]] for r in (0, 3, 6)]) for b in boards]


def right(move: tuple, p: str) -> bool:
    """Does `move` keep the value of `p` (any such move is right)?"""
    cell = 3 * move[0] + move[1]
    return cell in judge.children(p) and judge.value(judge.children(p)[cell])[0] == judge.value(p)[0]


def failing_functions(report: dict) -> list[str]:
    return [name for name, f in report["functions"].items() if f["passed"] != f["checked"]]


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


@pytest.mark.unit
def test_an_exception_reads_with_its_message():
    thrown = {"raised": "ValueError", "message": "", "where": [{"function": "result"}]}
    assert failed(thrown).got == "ValueError"
    assert failed(thrown | {"message": "occupied"}).got == "ValueError: occupied"


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
    assert shown.count("Grading ") == 1 and "winner: all checks passed. Only winner was checked" in shown


@pytest.mark.server
def test_a_missing_function_is_said_once_and_not_fixed_first_by_another():
    code, out = graded(STUDENTS / "raises_always.py", "--site", "https://ttt.example.org")
    assert code == 1 and "expected  a function by that name" not in out
    for function in ("winner", "terminal", "utility", "minimax"):
        assert out.count(f"MISSING: your file has no function named {function}") == 1, out
    assert "Missing from your file: winner, terminal, utility, minimax." in out and "first:" not in out
    assert "The explore links open the explorer at https://ttt.example.org." in out and "make run" not in out


TRACED_LINE = re.compile(
    r"^(>>|  ) *(\d+)  ( *)(\w+)\(([XO.]{3} / [XO.]{3} / [XO.]{3})\) -> (\S+)   minimax value (-?\d)$"
)


@pytest.mark.server
def test_trace_lists_the_students_calls_beside_each_boards_value_and_marks_where_the_error_starts():
    """max_calls_max.py's max_value calls max_value: on XO.X.O... its trace marks the first
    call whose value is wrong while every call under it is right, a max_value on O's turn.
    Each minimax value said is the judge's."""
    code, out = graded(STUDENTS / "max_calls_max.py", "--trace", "XO.X.O...")
    listed = [TRACED_LINE.match(line) for line in out.splitlines()]
    listed = [m for m in listed if m]
    assert code == 0 and len(listed) > 20
    for m in listed:
        assert int(m[7]) == judge.value(m[5].replace(" / ", ""))[0], m[0]
    marked = [m for m in listed if m[1] == ">>"]
    assert len(marked) == 1 and marked[0][4] == "max_value" and int(marked[0][6]) != int(marked[0][7])
    assert judge.to_move(marked[0][5].replace(" / ", "")) == "O"
    first_wrong = next(n for n, m in enumerate(listed) if int(m[6]) != int(m[7]))
    assert listed.index(marked[0]) > first_wrong  # not merely the first wrong value: where it starts
    under = listed[listed.index(marked[0]) + 1 :]
    under = under[: next((n for n, m in enumerate(under) if len(m[3]) <= len(marked[0][3])), len(under))]
    assert under and all(int(m[6]) == int(m[7]) for m in under)
    assert "explore   http://127.0.0.1:5000/explore/XO.X.O..." in out
    code, out = graded(STUDENTS / "cs50.py", "--trace", "XO.X.O...")
    assert ">>" not in out and "Every call that returned a value returned its board's minimax value." in out
    code, out = graded(STUDENTS / "cs50.py", "--trace", "XXX......")
    assert code == 2


@pytest.mark.server
def test_the_call_limit_is_the_same_from_one_run_to_the_next():
    limits = []
    for _ in range(5):
        student = Student(str(STUDENTS / "quick.py"))
        limits.append(student.call_seconds)
        student.close()
    assert max(limits) <= 1.2 * min(limits), limits
