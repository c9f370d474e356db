"""The student's side of grading: a child process that imports their file and answers one
call per line. Standard library only, and run as a script by whichever Python the student
chose (`--python`), so it imports nothing of this project; nothing here trusts the
student's code to behave.

A request is a JSON line: {"call": name, "board": 9 characters, "action": [i, j]}. The
answer is {"got": value, "type": type name} or {"raised": exception name, "message": text,
"where": frames in the student's file}, with the call's wall-clock and processor seconds and
whether the input board changed; for `minimax`, also how many times the student's functions
were called. Boards travel as 9 characters ("X", "O", ".") and are built with the student's
own X, O and EMPTY. A request {"patch": [names]} puts a right version of each named function
(`reference`) in place of the student's, for the grader to see whether one function alone
explains the failures of those that call it. On SIGUSR1 (the grader's time limit) the child answers
{"stopped": frames} with where the student's code was, and the grader then ends it.
"""

from __future__ import annotations

import functools
import importlib.util
import json
import os
import signal
import sys
import time
import traceback

YARDSTICK_RUNS = 150  # each about 0.3 ms, under a scheduler's time slice; about 0.05 s in all
ITEMS = 50  # of a returned list or set, the first this many travel back
FRAMES = 3  # the innermost frames in the student's file, for an exception or a stop
COUNTED = ("player", "actions", "result", "winner", "terminal", "utility", "score", "minimax")
FILES_WRITTEN = 16  # files the student's code may open for writing, each under the grader's size limit
STARTS_PROGRAMS = {"os.fork", "os.forkpty", "os.exec", "os.posix_spawn", "os.spawn", "os.system", "subprocess.Popen"}
LOADS_LIBRARIES = {"ctypes.dlopen", "ctypes.dlsym"}  # the way around everything else here
WRITING = os.O_WRONLY | os.O_RDWR | os.O_APPEND | os.O_CREAT
calls = dict.fromkeys(COUNTED, 0)  # of each function of the student's file, in the current call


def load(path: str):
    spec = importlib.util.spec_from_file_location("student_tictactoe", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def counting(module) -> None:
    """Count the calls to the student's functions made through their module's names (the
    calls their minimax makes): the grader's evidence of a search that repeats itself."""
    for name in COUNTED:
        function = getattr(module, name, None)
        if callable(function):
            setattr(module, name, counted(function, name))


def counted(function, name: str):
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        calls[name] += 1
        return function(*args, **kwargs)

    return wrapper


LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))


def reference(module) -> dict:
    """Right versions of the six functions minimax builds on, in the student's own X, O and
    EMPTY. Here, not imported from the project: this file runs in the student's Python and
    imports nothing of ours. Each calls only the others here."""

    def marks() -> tuple:
        return getattr(module, "X", "X"), getattr(module, "O", "O"), getattr(module, "EMPTY", None)

    def player(board):
        x, o, _ = marks()
        cells = [cell for row in board for cell in row]
        return x if cells.count(x) == cells.count(o) else o

    def actions(board):
        empty = marks()[2]
        return {(i, j) for i in range(3) for j in range(3) if board[i][j] == empty}

    def result(board, action):
        if tuple(action) not in actions(board):
            raise ValueError(f"invalid action {action}")
        new = [list(row) for row in board]
        new[action[0]][action[1]] = player(board)
        return new

    def winner(board):
        x, o, _ = marks()
        cells = [cell for row in board for cell in row]
        for a, b, c in LINES:
            if cells[a] in (x, o) and cells[a] == cells[b] == cells[c]:
                return cells[a]
        return None

    def terminal(board):
        return winner(board) is not None or not actions(board)

    def utility(board):
        x, o, _ = marks()
        won = winner(board)
        return 1 if won == x else -1 if won == o else 0

    functions = (player, actions, result, winner, terminal, utility)
    return {function.__name__: function for function in functions}


def patched(module, names: list) -> dict:
    """The student's functions `names` replaced by right ones (`utility` by the name it was
    found under), still counted."""
    right = reference(module)
    done = []
    for name in (n for n in names if n in right):
        found = function_for(module, name)[1] if hasattr(module, "score") else name
        setattr(module, found, counted(right[name], name))
        done.append(found)
    return {"got": done, "type": "list"}


def to_board(module, text: str) -> list[list]:
    marks = {"X": getattr(module, "X", "X"), "O": getattr(module, "O", "O"), ".": getattr(module, "EMPTY", None)}
    cells = [marks[c] for c in text]
    return [cells[0:3], cells[3:6], cells[6:9]]


def plain(module, value: object, depth: int = 0) -> object:
    """The student's value as JSON: boards as 9 characters, marks as "X" and "O", tuples and
    sets as lists, everything bounded in size."""
    if value is None or isinstance(value, (bool, int, float)):
        return value if not isinstance(value, int) or abs(value) < 1 << 53 else repr(value)[:40]
    if isinstance(value, str):
        return mark(module, value)
    if isinstance(value, (list, tuple, set, frozenset)) and depth < 3:
        items = sorted(value, key=repr)[:ITEMS] if isinstance(value, (set, frozenset)) else list(value)[:ITEMS]
        return [plain(module, item, depth + 1) for item in items]
    return repr(value)[:200]


def mark(module, value: str) -> str:
    """ "X" or "O" for the student's own marks, else the string as Python shows it."""
    for name in ("X", "O"):
        if value == getattr(module, name, name):
            return name
    return repr(value)[:200]


def frames(tb_or_stack, path: str) -> list[dict]:
    """The innermost frames that are in the student's file: file, line, function, code."""
    own = os.path.abspath(path)
    if isinstance(tb_or_stack, list):
        stack = [f for f in tb_or_stack if os.path.abspath(f.filename) == own]
    else:  # only the student's frames have their lines read (result's refusals raise thousands of times)
        walked = [(f, n) for f, n in traceback.walk_tb(tb_or_stack) if os.path.abspath(f.f_code.co_filename) == own]
        stack = traceback.StackSummary.extract(iter(walked[-FRAMES:]))
    return [
        {"file": os.path.basename(f.filename), "line": f.lineno, "function": f.name, "code": (f.line or "")[:160]}
        for f in stack[-FRAMES:]
    ]


def queued() -> float:
    """The seconds this process has waited for a processor while ready to run (Linux's
    /proc/self/schedstat, its second field, in nanoseconds); 0 where it cannot be read."""
    try:
        with open("/proc/self/schedstat") as stat:
            return int(stat.read().split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return 0.0


def function_for(module, name: str):
    function = getattr(module, name, None)
    if name == "utility" and not callable(function) and callable(getattr(module, "score", None)):
        return module.score, "score"  # CPSC 481's name for it
    return function, name


def answer(module, path: str, request: dict) -> dict:
    function, found = function_for(module, request["call"])
    if not callable(function):
        return {"missing": request["call"]}
    board = to_board(module, request["board"])
    before = [list(row) for row in board]  # the marks are the student's X, O and EMPTY: compared, never changed
    args = (board, tuple(request["action"])) if "action" in request else (board,)
    calls.update(dict.fromkeys(calls, 0))
    searches = request["call"] == "minimax"  # the one call long enough for its wait to be worth reading
    start, cpu_start, queued_start = time.perf_counter(), time.process_time(), queued() if searches else 0.0
    reply = called(module, path, function, args)
    reply |= {
        "seconds": time.perf_counter() - start,
        "cpu": time.process_time() - cpu_start,
        "changed": board != before,
    }
    if reply["changed"]:
        reply["became"] = plain(module, board)
    if searches:
        reply["queued"] = queued() - queued_start
        reply["calls"] = {name: count for name, count in calls.items() if count}
    if found != request["call"]:
        reply["found"] = found
    return reply


def called(module, path: str, function, args: tuple) -> dict:
    """The student's function called on `args`: what it returned, or what it raised."""
    try:
        got = function(*args)
    except Exception as error:  # the student's exception is the answer
        return {"raised": type(error).__name__, "message": str(error)[:200], "where": frames(error.__traceback__, path)}
    return {"got": plain(module, got), "type": type(got).__name__, "same": got is args[0]}


TRACED = 5000  # calls of the student's functions a trace records, at most


def traced(module, path: str, request: dict) -> dict:
    """minimax on the board under a profiler: each call of a function of the student's file,
    in the order made, as [depth, function, board (9 characters, or None), value returned]."""
    own = os.path.abspath(path)
    calls_: list[list] = []
    open_: list[int | None] = []

    def profiler(frame, event: str, arg) -> None:
        code = frame.f_code
        if event not in ("call", "return") or code.co_name.startswith("<") or os.path.abspath(code.co_filename) != own:
            return  # not the student's, or a comprehension or lambda of theirs
        if event == "call":
            first = frame.f_locals.get(frame.f_code.co_varnames[0]) if frame.f_code.co_argcount else None
            calls_.append([len(open_) + 1, frame.f_code.co_name, plain(module, first), None])
            open_.append(len(calls_) - 1 if len(calls_) <= TRACED else None)
        elif open_:
            index = open_.pop()
            if index is not None:
                calls_[index][3] = plain(module, arg)
        del calls_[TRACED:]

    board = to_board(module, request["trace"])
    sys.setprofile(profiler)
    try:
        module.minimax(board)
    except Exception as error:  # the student's exception ends their trace
        return {"got": calls_, "type": "trace", "raised": type(error).__name__, "message": str(error)[:200]}
    finally:
        sys.setprofile(None)
    return {"got": calls_, "type": "trace"}


def yardstick() -> float:
    """Seconds of processor time this Python takes for a fixed piece of plain work (a small
    game tree walked naively), so that the grader can scale its time limits to the machine:
    processor time, which other processes on a loaded machine do not stretch. The least of
    many short runs, so that the limit stays the same from one grading to the next: a run
    shorter than a time slice mostly runs whole, while a long one is cut by every other process
    on the core and pays for the caches each cut leaves cold (13 s against 16 s under make test)."""

    def walk(cells: list, mark: str) -> int:
        count = 1
        for n in range(len(cells)):
            if cells[n] is None:
                cells[n] = mark
                count += walk(cells, "O" if mark == "X" else "X")
                cells[n] = None
        return count

    times = []
    for _ in range(YARDSTICK_RUNS):
        start = time.process_time()
        walk([None] * 6, "X")
        times.append(time.process_time() - start)
    return min(times)  # a busy machine only ever adds to a run's processor time (caches shared, a core's twin)


def guarded() -> None:
    """From here on, the student's code starts no program, loads no library and opens at most
    FILES_WRITTEN files for writing (with RLIMIT_FSIZE, a bound on the disk it can fill).
    Python's audit hooks (PEP 578) see every such call; once added, none can be removed."""
    opened = 0

    def hook(event: str, args: tuple) -> None:
        nonlocal opened
        if event in STARTS_PROGRAMS or event in LOADS_LIBRARIES:
            raise PermissionError(f"the grader runs your functions only: {event} is not allowed")
        if event == "open" and writes(args):
            opened += 1
            if opened > FILES_WRITTEN:
                raise PermissionError(f"the grader lets your code open {FILES_WRITTEN} files for writing")

    sys.dont_write_bytecode = True  # no __pycache__ beside the student's file
    sys.addaudithook(hook)


def writes(args: tuple) -> bool:
    """Whether an "open" audit event's (path, mode, flags) open a file for writing."""
    _, mode, flags = args
    if isinstance(mode, str):
        return any(letter in mode for letter in "wax+")
    return isinstance(flags, int) and bool(flags & WRITING)


def when_stopped(path: str, replies) -> None:
    """On SIGUSR1, say where the student's code is, then wait to be ended."""

    def handler(signum, frame) -> None:
        stack = traceback.extract_stack(frame)
        depth = sum(os.path.abspath(f.filename) == os.path.abspath(path) for f in stack)
        replies.write(json.dumps({"stopped": frames(stack, path), "depth": depth}) + "\n")
        replies.flush()
        os._exit(0)

    signal.signal(signal.SIGUSR1, handler)


def main(path: str, measure: bool) -> None:
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    requests = os.fdopen(os.dup(0), "r")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the student's prints go nowhere
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)  # and their input() reads nothing of ours
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    sys.stdin = open(os.devnull)  # noqa: SIM115 - likewise
    sys.path[0] = os.path.dirname(os.path.abspath(path))  # the student's own modules, not ours
    sys.setrecursionlimit(10_000)
    when_stopped(path, replies)
    guarded()
    try:
        module = load(path)
    except BaseException as error:  # a syntax error, an import that fails, a sys.exit()
        lines = traceback.format_exception_only(type(error), error)
        replies.write(json.dumps({"loaded": False, "error": "".join(lines).strip()[-500:]}) + "\n")
        return
    replies.write(json.dumps({"loaded": True, "yardstick": yardstick() if measure else None}) + "\n")
    counting(module)
    for line in requests:
        request = json.loads(line)
        if "patch" in request:
            reply = patched(module, request["patch"])
        else:
            reply = traced(module, path, request) if "trace" in request else answer(module, path, request)
        replies.write(json.dumps(reply) + "\n")


if __name__ == "__main__":
    main(sys.argv[1], "--yardstick" in sys.argv[2:])
