"""The student's side of grading: a child process that imports their file and answers one
call per line. Standard library only; nothing here trusts the student's code to behave.

A request is a JSON line: {"call": name, "board": 9 characters, "action": [i, j]}. The
answer is {"got": value, "type": type name} or {"raised": exception name, "message": text};
for `result`, also whether the input board changed. Boards travel as 9 characters ("X",
"O", ".") and are built with the student's own X, O and EMPTY.
"""

from __future__ import annotations

import copy
import importlib.util
import json
import os
import sys
import traceback


def load(path: str):
    spec = importlib.util.spec_from_file_location("student_tictactoe", path)
    if spec is None or spec.loader is None:
        raise ImportError(f"{path} is not a Python file")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def to_board(module, text: str) -> list[list]:
    marks = {"X": getattr(module, "X", "X"), "O": getattr(module, "O", "O"), ".": getattr(module, "EMPTY", None)}
    cells = [marks[c] for c in text]
    return [cells[0:3], cells[3:6], cells[6:9]]


def plain(module, value: object) -> object:
    """The student's value as JSON: boards as 9 characters, marks as "X" and "O", tuples and
    sets as lists."""
    if value is None or isinstance(value, (bool, int, float)):
        return value
    if value == getattr(module, "X", "X") and isinstance(value, str):
        return "X"
    if value == getattr(module, "O", "O") and isinstance(value, str):
        return "O"
    if isinstance(value, (list, tuple, set, frozenset)):
        items = sorted(value, key=repr) if isinstance(value, (set, frozenset)) else value
        return [plain(module, item) for item in items]
    return repr(value)[:200]


def answer(module, request: dict) -> dict:
    name = request["call"]
    function = getattr(module, name, None)
    if name == "utility" and function is None:
        function = getattr(module, "score", None)  # CPSC 481's name for it
    if not callable(function):
        return {"missing": name}
    board = to_board(module, request["board"])
    before = copy.deepcopy(board)
    args = (board, tuple(request["action"])) if "action" in request else (board,)
    try:
        got = function(*args)
    except Exception as error:  # the student's exception is the answer
        return {"raised": type(error).__name__, "message": str(error)[:200], "changed": board != before}
    return {"got": plain(module, got), "type": type(got).__name__, "changed": board != before, "same": got is board}


def main(path: str) -> None:
    replies = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)  # the student's prints go nowhere
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - for the life of the process
    sys.path[0] = os.path.dirname(os.path.abspath(path))  # the student's own modules, not ours
    sys.setrecursionlimit(10_000)
    try:
        module = load(path)
    except BaseException as error:  # a syntax error, an import that fails, a sys.exit()
        lines = traceback.format_exception_only(type(error), error)
        replies.write(json.dumps({"loaded": False, "error": "".join(lines).strip()[-500:]}) + "\n")
        return
    replies.write(json.dumps({"loaded": True}) + "\n")
    for line in sys.stdin:
        replies.write(json.dumps(answer(module, json.loads(line))) + "\n")


if __name__ == "__main__":
    main(sys.argv[1])
