"""Ending the student's process and every process it started, even one that left its
process group: the grader becomes their "subreaper" (Linux), so that a process whose
parent died is handed to the grader rather than to init, and can still be found."""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from pathlib import Path

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36
ROUNDS = 20  # a process may fork while its tree is being ended; each round ends what appeared


def become_subreaper() -> bool:
    """Make orphans of the grader's descendants the grader's children (Linux only)."""
    try:
        return ctypes.CDLL(None, use_errno=True).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def die_with_parent() -> None:
    """In the student's process: be killed if the grader dies, even by SIGKILL (Linux only)."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None).prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)


def parents() -> dict[int, int]:
    """Every process's parent, from /proc (empty where there is no /proc)."""
    found = {}
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text()
            found[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
    return found


def descendants(root: int, parent_of: dict[int, int]) -> set[int]:
    found: set[int] = set()
    frontier = {root}
    while frontier:
        frontier = {pid for pid, parent in parent_of.items() if parent in frontier} - found
        found |= frontier
    return found


def end_tree(root: int) -> None:
    """SIGKILL `root`, its process group and all its descendants, and the orphans that were
    theirs (children of this process that it did not start itself)."""
    mine = os.getpid()
    for _ in range(ROUNDS):
        parent_of = parents()
        doomed = descendants(root, parent_of) | {pid for pid, parent in parent_of.items() if parent == mine} - {root}
        doomed = {pid for pid in doomed if pid not in _own_children and pid not in _roots}
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(root, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.kill(root, signal.SIGKILL)
        for pid in doomed:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if not doomed:
            return
        reap_orphans()


def reap_orphans() -> None:
    """Collect the exit status of orphans handed to the grader, so none stays a zombie."""
    for pid, parent in parents().items():
        if parent == os.getpid() and pid not in _own_children and pid not in _roots:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)


def remember_children() -> None:
    """The grader's own children before any student's process starts (left alone)."""
    if not _remembered:  # before the first student's process only: later ones are in _roots
        _own_children.update(pid for pid, parent in parents().items() if parent == os.getpid())
        _remembered.append(True)


def started(pid: int) -> None:
    """A student's process the grader started: left alone while another one's tree is ended
    (two processes of one file share its checks), until `ended(pid)`."""
    _roots.add(pid)


def ended(pid: int) -> None:
    _roots.discard(pid)


_own_children: set[int] = set()
_roots: set[int] = set()  # the students' processes started and not yet ended
_remembered: list[bool] = []
