"""The grader's side of the student's process: one call at a time, each under a time limit.
A call that runs over, or a process that dies, costs that call only: the process is
started again for the next one."""

from __future__ import annotations

import json
import os
import resource
import select
import subprocess
import sys
import time
from pathlib import Path

CHILD = Path(__file__).with_name("child.py")
START_SECONDS = 30  # importing the student's file
MEMORY_BYTES = 2 << 30


class LoadError(Exception):
    """The student's file could not be imported: the message is Python's."""


def limit_memory() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_BYTES, MEMORY_BYTES))


class Student:
    """A student's tictactoe.py, run by `child.py` in a process of its own."""

    def __init__(self, path: str, call_seconds: float) -> None:
        self.path, self.call_seconds = path, call_seconds
        self.process: subprocess.Popen | None = None
        self.buffer = b""
        self.start()

    def start(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(CHILD), self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=limit_memory,
        )
        self.buffer = b""
        loaded = self.read(START_SECONDS)
        if not loaded or not loaded.get("loaded"):
            self.close()
            raise LoadError((loaded or {}).get("error", "the file did not load within 30 s"))

    def call(self, name: str, position: str, action: tuple[int, int] | None = None) -> dict:
        """The student's answer to `name(board)` or `name(board, action)`: {"got": ...},
        {"raised": ...}, {"missing": name}, {"timeout": seconds} or {"crashed": code}."""
        request = {"call": name, "board": position} | ({"action": list(action)} if action else {})
        assert self.process and self.process.stdin
        try:
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
        except BrokenPipeError:
            pass  # it died on an earlier call; read() sees the end
        reply = self.read(self.call_seconds)
        if reply is None:
            code = self.process.poll()
            self.restart()
            return {"timeout": self.call_seconds} if code is None else {"crashed": code}
        return reply

    def read(self, seconds: float) -> dict | None:
        """The next reply line, or None if none comes within `seconds` or the process ends."""
        assert self.process and self.process.stdout
        deadline, fd = time.monotonic() + seconds, self.process.stdout.fileno()
        while b"\n" not in self.buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                return None
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)

    def restart(self) -> None:
        self.close()
        self.start()

    def close(self) -> None:
        if self.process and self.process.poll() is None:
            self.process.kill()
        if self.process:
            self.process.wait()
            for stream in (self.process.stdin, self.process.stdout):
                if stream:
                    stream.close()
