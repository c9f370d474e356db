"""Loaded by every Python that tests/isolation/run starts (it is first on PYTHONPATH): records
each process started for a server or a browser in $TTT_STARTS_LOG, whatever starts it."""

import os
import sys

SERVERS = ("redis-server", "gunicorn", "chromium")


def record(event: str, args: tuple) -> None:
    if event != "subprocess.Popen":
        return
    argv = args[1] if isinstance(args[1], (list, tuple)) else [args[1]]
    command = " ".join(str(part) for part in argv)
    if any(server in command for server in SERVERS):
        with open(os.environ["TTT_STARTS_LOG"], "a") as log:
            log.write(f"{command}\n")


if os.environ.get("TTT_STARTS_LOG"):
    sys.addaudithook(record)
