"""The grader's side of the student's process: one call at a time, each under a time limit
counted in the process's processor time (so that a loaded machine does not shorten it).
A call that runs over, a process that dies or a reply that is not one costs that call
only: the process and everything it started are ended, and it is started again for the
next call. The student's process runs in a session of its own and a working folder of its
own (made for it, removed after), with its memory, file size and (for a user other than root,
whom Linux does not bound) process count limited."""

from __future__ import annotations

import contextlib
import importlib.resources
import json
import os
import resource
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import cast

from . import tree
from .tree import become_subreaper, die_with_parent, end_tree, reap_orphans, remember_children

CHILD = Path(__file__).with_name("child.py")
START_SECONDS = 30  # importing the student's file
MEMORY_BYTES = 2 << 30
FILE_BYTES = 1 << 20  # any file the student's code writes
REPLY_BYTES = 1 << 20  # one reply line; a longer one is not a reply
STOP_SECONDS = 2  # for the child to say where it was stopped, in its processor time
TEXTBOOK = 14_000  # yardsticks of processor time a textbook minimax (no memo) takes on the empty board
YARDSTICKS = 3 * TEXTBOOK  # the per-call limit, in yardsticks of processor time (about 14 s here)
WALL_SHARE = 6  # a call also ends after this many times its limit spent neither computing nor ready to (asleep)
WALL_MOST = 30  # and after this many times its limit in wall-clock time whatever it did (a machine that busy)
STARTING = threading.Lock()  # a process is started, or one's tree ended, by one thread at a time
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
KEYS = {"got", "raised", "missing"}
STOPPED = {"timeout", "crashed", "invalid"}  # replies after which the process was started again


class LoadError(Exception):
    """The student's file could not be imported: the message is Python's."""


class NotAReply(str):
    """What came on the reply channel instead of a reply."""


def limit_child() -> None:
    """In the student's process, before it runs their code."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))
    resource.setrlimit(resource.RLIMIT_FSIZE, (FILE_BYTES, FILE_BYTES))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    resource.setrlimit(resource.RLIMIT_NPROC, (0, 0))  # no fork, no thread; root is exempt
    die_with_parent()


def valid(reply: object) -> str | None:
    """What is wrong with a reply line, if anything."""
    if not isinstance(reply, dict):
        return f"a JSON {type(reply).__name__}, not an object"
    if not KEYS & reply.keys():
        return "an object with none of got, raised, missing"
    if "got" in reply and not isinstance(reply.get("type"), str):
        return "an answer without its type"
    if "raised" in reply and not (isinstance(reply["raised"], str) and isinstance(reply.get("message"), str)):
        return "an exception without its name and message"
    return None


def child_script() -> list[str]:
    """child.py as the student's Python runs it: its path, or its text when it is in a zipapp."""
    if CHILD.is_file():
        return [str(CHILD)]
    return ["-c", importlib.resources.files(__package__).joinpath("child.py").read_text()]


def proc_text(path: str) -> str:
    """A small /proc file's text, read with os.read: Path.read_text took four times as long, and
    these are read at every wait for a reply (two files at its start, two at each check)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        return os.read(fd, 1 << 12).decode()
    finally:
        os.close(fd)


def cpu_seconds(pid: int) -> float | None:
    """The processor time (user and system) process `pid` has used, from /proc; None where
    it cannot be read."""
    try:
        fields = proc_text(f"/proc/{pid}/stat").rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / TICKS
    except (OSError, IndexError, ValueError):
        return None


def queued_seconds(pid: int) -> float | None:
    """The seconds process `pid` has waited for a processor while ready to run (its run
    queue delay, /proc/PID/schedstat's second field, in nanoseconds); None where unreadable."""
    try:
        return int(proc_text(f"/proc/{pid}/schedstat").split()[1]) / 1e9
    except (OSError, IndexError, ValueError):
        return None


def call_line(name: str, position: str, action: tuple[int, int] | None) -> bytes:
    """The request for a call of `name` (a function's name) on `position` (9 characters of X, O
    and .), as json.dumps writes it but formatted by hand: json.dumps took a third of the
    grader's time per call (5 us of 15), and these names and boards need no escaping."""
    given = f', "action": [{int(action[0])}, {int(action[1])}]' if action else ""
    return f'{{"call": "{name}", "board": "{position}"{given}}}\n'.encode()


class Overran:
    """A call's limit, in the processor time of the student's process: how much it used. Time
    it was ready to compute but waited for a processor (a busy machine) does not count towards
    the wall-clock bounds, so that a call that computes is stopped at its processor time
    whatever the load, and the report says the same of it on a quiet machine and a busy one."""

    def __init__(self, pid: int, seconds: float, textbook: float) -> None:
        self.pid, self.seconds, self.textbook = pid, seconds, textbook
        self.cpu_start, self.wall_start = cpu_seconds(pid), time.monotonic()
        self.queued_start = queued_seconds(pid)

    def used(self) -> float:
        now = cpu_seconds(self.pid)
        return 0.0 if now is None or self.cpu_start is None else now - self.cpu_start

    def queued(self) -> float:
        """The seconds since the call began that the process was ready to run but waited for a
        processor; 0 where Linux does not say (then waiting counts as asleep)."""
        now = queued_seconds(self.pid)
        return 0.0 if now is None or self.queued_start is None else now - self.queued_start

    def reached(self) -> bool:
        """Whether the call is over its limit: its processor time, or WALL_SHARE times as much
        time asleep (neither computing nor waiting for a processor), or WALL_MOST times as much
        wall-clock time whatever it did."""
        wall, used = time.monotonic() - self.wall_start, self.used()
        asleep = wall - used - self.queued()
        return used >= self.seconds or asleep >= WALL_SHARE * self.seconds or wall >= WALL_MOST * self.seconds

    def said(self) -> dict:
        """What the report says of the call: processor and wall-clock seconds it took, and the
        bound on the time it may spend asleep."""
        wall = time.monotonic() - self.wall_start
        cpu = self.used() if self.cpu_start is not None else wall
        return {
            "cpu": round(cpu, 1),
            "wall": round(wall, 1),
            "queued": round(self.queued(), 1),
            "asleep_limit": WALL_SHARE * self.seconds,
            "textbook": round(self.textbook, 1),
        }


class Student:
    """A student's tictactoe.py, run by `child.py` in a process of its own."""

    def __init__(
        self, path: str, python: str = sys.executable, call_seconds: float | None = None, yardstick: float = 0.0
    ) -> None:
        """The file loaded in a process of its own; `yardstick`, one measured already (by a
        process of the same file and Python: a second process for the same grading)."""
        self.path, self.python = os.path.abspath(path), python
        self.process: subprocess.Popen | None = None
        self.folder: str | None = None
        self.buffer = bytearray()
        self.yardstick = yardstick
        self.patches: tuple[str, ...] = ()  # the functions replaced by right ones, in every process started
        if become_subreaper():
            remember_children()
        self.start()
        self.call_seconds = call_seconds or max(5.0, round(YARDSTICKS * self.yardstick))

    @property
    def textbook_seconds(self) -> float:
        """About how long a textbook minimax takes on the empty board here, in processor time."""
        return TEXTBOOK * self.yardstick

    def start(self) -> None:
        environment = os.environ | {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
        self.folder = tempfile.mkdtemp(prefix="grader-")
        with STARTING:  # one at a time: limit_child runs between fork and exec, where another start must not be
            self.process = subprocess.Popen(
                [self.python, *child_script(), self.path, *([] if self.yardstick else ["--yardstick"])],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                preexec_fn=limit_child,
                start_new_session=True,
                env=environment,
                cwd=self.folder,
            )
            tree.started(self.process.pid)
        self.buffer = bytearray()
        try:
            loaded = self.read(START_SECONDS)
        except BaseException:  # the grader itself told to stop (ended_cleanly) while the file loads
            self.close()
            raise
        if not isinstance(loaded, dict) or not loaded.get("loaded"):
            self.close()
            error = loaded.get("error") if isinstance(loaded, dict) else None
            raise LoadError(error or f"the file did not load within {START_SECONDS} s")
        self.loaded(loaded)

    def loaded(self, said: dict) -> None:
        """After the file loaded: the yardstick it measured (the first time), and the patches."""
        yardstick = said.get("yardstick")
        if not self.yardstick:
            self.yardstick = yardstick if isinstance(yardstick, float) and 0 < yardstick < 1 else 0.0006
        if self.patches:
            self.send({"patch": list(self.patches)})
            self.read(START_SECONDS)

    def fresh(self, patches: tuple[str, ...] = ()) -> None:
        """A new process for the calls that follow, with right versions of `patches` in place
        of the student's: nothing a call left behind in the last one reaches them."""
        self.patches = patches
        self.restart()

    def send(self, *requests: dict) -> None:
        """The requests, written at once (one write, not one per request)."""
        self.write(b"".join(json.dumps(request).encode() + b"\n" for request in requests))

    def write(self, lines: bytes) -> None:
        assert self.process and self.process.stdin
        try:
            self.process.stdin.write(lines)
            self.process.stdin.flush()
        except BrokenPipeError:
            pass  # it died on an earlier call; read() sees the end

    def call(self, name: str, position: str, action=None, seconds: float | None = None, waiting=None) -> dict:
        """The student's answer to `name(board)` or `name(board, action)`: {"got": ...},
        {"raised": ...}, {"missing": name}, {"timeout": seconds, "where": frames},
        {"crashed": code} or {"invalid": what came instead}. Raises LoadError when the file
        no longer loads after a crash."""
        request = {"call": name, "board": position} | ({"action": list(action)} if action else {})
        return self.ask(request, name, seconds, waiting)

    def ended(self, overran: Overran) -> int | None:
        """The exit status of a process whose reply did not come: a read that stopped before
        the call's limit came to the end of its output, and the process is ending (poll may not
        see it yet); None for a call that ran over, still running."""
        assert self.process
        code = self.process.poll()
        if code is None and not overran.reached():
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.process.wait(STOP_SECONDS)
        return code

    def calls(self, made: list[tuple], seconds: float, waiting=None) -> list[dict]:
        """The replies to several calls (name, position, action) sent at once, with no round
        trip between them: one per call, in order, up to and including the first that ran
        over, ended the process or broke the reply channel (the process is then started again,
        and the calls after it were not made)."""
        self.write(b"".join(call_line(n, p, a) for n, p, a in made))
        replies = []
        for name, _, _ in made:
            replies.append(self.received(name, seconds, waiting))
            if STOPPED & replies[-1].keys():
                break
        return replies

    def ask(self, request: dict, name: str, seconds: float | None = None, waiting=None) -> dict:
        """The reply to `request` (a call of `name`, or its trace), as `call` says."""
        self.send(request)
        return self.received(name, seconds or self.call_seconds, waiting)

    def received(self, name: str, seconds: float, waiting=None) -> dict:
        """The reply to the call of `name` sent last but not yet answered."""
        reply = self.timed(seconds, waiting)
        assert self.process
        if isinstance(reply, Overran):
            took, code = reply.said(), self.ended(reply)  # before the process is ended
            where, depth = self.stopped() if code is None else ([], 0)
            self.restart()
            if code is not None:
                return {"crashed": code}
            return {"timeout": seconds, "call": name, "where": where, "depth": depth} | took
        if wrong := reply if isinstance(reply, NotAReply) else valid(reply):
            self.restart()  # the channel is out of step: what follows cannot be trusted
            return {"invalid": wrong}
        return cast(dict, reply)  # valid(reply) found nothing wrong: a dict

    def timed(self, seconds: float, waiting: Callable[[], None] | None) -> object:
        """The next reply, or an Overran when the call used `seconds` of processor time (or,
        where the process's processor time cannot be read, of wall-clock time), or was asleep
        WALL_SHARE times as long (Overran.reached), so that a loaded machine is no slower."""
        assert self.process
        if self.drained():  # the reply came already: nothing to measure
            return self.read(0)
        overran = Overran(self.process.pid, seconds, self.textbook_seconds)
        if overran.cpu_start is None:
            reply = self.read(seconds, waiting)
        else:
            reply = self.read(WALL_MOST * seconds, waiting, overran.reached)
        return overran if reply is None else reply

    def stopped(self) -> tuple[list, int]:
        """Where the student's code was when stopped, as the child tells it (if it can), and
        how many calls deep in the student's file."""
        assert self.process
        try:
            self.process.send_signal(signal.SIGUSR1)
        except ProcessLookupError:
            return [], 0
        answering = Overran(self.process.pid, STOP_SECONDS, 0.0)  # bounded as a call is: not shorter when busy
        reply = self.read(WALL_MOST * STOP_SECONDS, None, answering.reached)
        reply = reply if isinstance(reply, dict) else {}
        where, depth = reply.get("stopped"), reply.get("depth")
        return (where if isinstance(where, list) else []), (depth if type(depth) is int else 0)

    def read(self, seconds: float, waiting: Callable[[], None] | None = None, enough=lambda: False) -> object:
        """The next reply line, parsed; None if none comes within `seconds`, before `enough()`
        says so, or before the process ends; a NotAReply if the line is too long or not JSON."""
        trouble = self.fill(time.monotonic() + seconds, waiting, enough)
        if trouble is not True:
            return trouble
        end = self.buffer.index(b"\n")
        line = bytes(self.buffer[:end])
        del self.buffer[: end + 1]  # a bytearray drops its head without copying the rest
        if len(line) > REPLY_BYTES:
            return NotAReply(f"a line of {len(line):,} bytes")
        try:
            # a line of ASCII (what the child's json.dumps writes) read as text, the quick way; any other
            # as json.loads reads bytes (its first two bytes tell UTF-16 and UTF-32 from UTF-8)
            return json.loads(line.decode("ascii") if line.isascii() and 0 not in line[:2] else line)
        except ValueError:
            return NotAReply(f"a line that is not JSON: {line[:60]!r}")

    def fill(self, deadline: float, waiting: Callable[[], None] | None, enough) -> object:
        """Read until the buffer holds a whole line (True), the deadline passes, `enough()`
        or the process ends (None), or REPLY_BYTES come without a newline (a NotAReply)."""
        assert self.process and self.process.stdout
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or enough():
                return None
            if not select.select([fd], [], [], min(left, 0.25))[0]:
                _ = waiting and waiting()
                continue
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
            if len(self.buffer) > REPLY_BYTES and b"\n" not in self.buffer:
                self.buffer = bytearray()
                return NotAReply(f"more than {REPLY_BYTES:,} bytes without a newline")
        return True

    def drained(self) -> bool:
        """Whether a whole reply line is in the buffer after reading what the process has
        written so far, without waiting."""
        assert self.process and self.process.stdout
        fd = self.process.stdout.fileno()
        while b"\n" not in self.buffer and len(self.buffer) <= REPLY_BYTES and select.select([fd], [], [], 0)[0]:
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                break
            self.buffer += chunk
        return b"\n" in self.buffer

    def stopped_all(self) -> None:
        """The process, and everything it started, ended and collected; its pipes closed."""
        if self.process:
            end_tree(self.process.pid)
            self.process.wait()
            tree.ended(self.process.pid)
            for stream in (self.process.stdin, self.process.stdout):
                if stream:
                    with contextlib.suppress(BrokenPipeError):  # requests still buffered for a process now gone
                        stream.close()

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        with STARTING:  # a process another thread is starting is not yet known as a student's: not an orphan
            self.stopped_all()
            reap_orphans()
        if self.folder:
            shutil.rmtree(self.folder, ignore_errors=True)
            self.folder = None
