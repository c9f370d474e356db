"""Running the grader (python -m ttt_web.grade) as a student runs it, on files made by
changing one piece of a correct file, for tests/test_grade*.py."""

from __future__ import annotations

import contextlib
import json
import os
import pty
import subprocess
import sys
from pathlib import Path

STUDENTS = Path(__file__).with_name("students")
ROOT = Path(__file__).parents[1]
SITE = "http://127.0.0.1:5000"
PEAK = "import resource, sys; from ttt_web.grade import main; code = main(sys.argv[1:]); "
PEAK += "print('peak', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(code)"


def grade(path: Path, *options: str, python: str = sys.executable, peak: bool = False) -> subprocess.Popen:
    """The grader on `path`, started; `peak` makes it print its own peak memory (KB) on stderr."""
    start = [python, "-c", PEAK] if peak else [python, "-m", "ttt_web.grade"]
    command = [*start, str(path), "--site", SITE, *options]
    return subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def finished(process: subprocess.Popen, seconds: float = 600) -> tuple[int, str]:
    out, err = process.communicate(timeout=seconds)
    assert "Traceback" not in err, err
    return process.returncode, out


def graded(path: Path, *options: str) -> tuple[int, str]:
    return finished(grade(path, *options))


def graded_json(path: Path, *options: str) -> tuple[int, dict]:
    code, out = graded(path, "--json", *options)
    return code, json.loads(out)


def mutant(folder: Path, base: str, line: str, replacement: str, name: str = "tictactoe.py") -> Path:
    """A copy of tests/students/`base` with `line` (found exactly once) replaced."""
    source = (STUDENTS / base).read_text()
    assert source.count(line) == 1, line
    path = folder / name
    path.write_text(source.replace(line, replacement))
    return path


def on_a_terminal(command: list[str], cwd: Path = ROOT) -> tuple[int, str]:
    """`command` run with its stdout and stderr on one terminal, as a student runs it: its exit
    status and all the terminal showed."""
    terminal, their_end = pty.openpty()
    with subprocess.Popen(command, cwd=cwd, stdout=their_end, stderr=their_end) as process:
        os.close(their_end)
        shown = b""
        with contextlib.suppress(OSError):  # the terminal's end reads EIO once the command is gone
            while chunk := os.read(terminal, 1 << 16):
                shown += chunk
    os.close(terminal)
    return process.returncode, shown.decode(errors="replace")
