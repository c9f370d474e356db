"""The instructions the game's page runs beyond its floor, counted, run by hand:
python bench/page_instructions.py [--redis] [--calls 100] [--parts]

A count of instructions does not move with the machine's load, where CPU time and wrk's
requests/s do (on this 2-core machine shared with other work, by 0.1-0.3 of a ratio from run
to run). So this counts them: the script runs itself again under Valgrind's callgrind
(Debian's valgrind), and, in one process through Flask's test client, as a gunicorn worker
runs (gevent's patches, the metrics in prometheus-client's multiprocess mode), counts the
instructions of `--calls` requests of the game's page (`GET /` with a game of two moves in
the session) and of bench/page_floor_app.py's page (the same page's bytes, after reading a
stored session on the same store, nothing else). With `--parts`, the game's page again with
each of its own parts taken out in turn (a middleware, a hook, or a part of the view replaced
by what it returned): what that part costs. The same code counts the same to within 0.1 %.

A count is not a time: a request that waits on a system call or misses the processor's
caches takes longer than its count says. The ratios to the Jinja floor are wrk.py's."""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

OUT = "page-instructions"  # callgrind's files, in a temporary folder
INSIDE = "PAGE_INSTRUCTIONS_INSIDE"  # set when this script runs under callgrind


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--redis", action="store_true", help="on a Redis server of its own, not SQLite")
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--parts", action="store_true", help="each of the game's own parts taken out in turn")
    args = parser.parse_args()
    if os.environ.get(INSIDE):
        counted(args)
        return
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from tests import servers

    valgrind = servers.require("valgrind", "valgrind")
    with tempfile.TemporaryDirectory() as tmp:
        command = [valgrind, "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={tmp}/{OUT}.%p"]
        command += [sys.executable, __file__, *sys.argv[1:]]
        environ = {**os.environ, INSIDE: tmp, "PROMETHEUS_MULTIPROC_DIR": tmp}
        lines = subprocess.run(command, env=environ, capture_output=True, text=True, check=True).stdout
    print(lines, end="")


def counted(args: argparse.Namespace) -> None:
    """Under callgrind: the counts per page, printed."""
    from gevent import monkey

    monkey.patch_all()  # as gunicorn's gevent worker does before it loads the app
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from page_gap import clients, store_config  # bench/, the directory of this script

    with tempfile.TemporaryDirectory() as tmp, contextlib.ExitStack() as stack:
        game, floor = clients(store_config(tmp, stack, args.redis, "count"))
        page, bottom = count(game, args.calls), count(floor, args.calls)
        print(f"instructions per page: the game's {page / 1e3:.0f}k, the page floor's {bottom / 1e3:.0f}k")
        print(f"the game's own work: {(page - bottom) / 1e3:.0f}k, {page / bottom - 1:.1%} more than the floor")
        if args.parts:
            print("| part taken out | instructions per page | the part's cost |\n| --- | --- | --- |")
            for name, taken_out in parts(game).items():
                with taken_out():
                    without = count(game, args.calls)
                print(f"| {name} | {without / 1e3:.0f}k | {(page - without) / 1e3:.0f}k |")


def count(client, calls: int) -> float:
    """Instructions per `GET /` of `client`, over `calls` requests after 20 uncounted."""
    for _ in range(20):
        client.get("/")
    own = str(os.getpid())

    def control(option: str) -> None:  # callgrind, asked to do it to this process
        subprocess.run(["callgrind_control", option, own], check=True, capture_output=True)

    control("--zero")
    control("--instr=on")
    for _ in range(calls):
        client.get("/")
    control("--instr=off")
    control("--dump")
    (dump,) = glob.glob(f"{os.environ[INSIDE]}/{OUT}.{own}.*")
    total = int(re.search(r"^totals: (\d+)", Path(dump).read_text(), re.M).group(1))
    os.remove(dump)
    return total / calls


def parts(client) -> dict[str, Callable[[], contextlib.AbstractContextManager]]:
    """Each of the game's own parts of its page, as a way to take it out."""
    from ttt_web.play import page as game_page
    from ttt_web.web import cookies, session_data

    app = client.application
    observe, interface = app.wsgi_app, app.session_interface
    hooks = app.before_request_funcs[None]
    kept = {}
    for name in ("about_the_game", "shown_board"):  # what each returned on this page
        original = getattr(game_page, name)
        with replaced(game_page, name, lambda *args, f=original, n=name: kept.setdefault(n, f(*args))):
            client.get("/")
    game = session_data.current_game
    with replaced(session_data, "current_game", lambda: kept.setdefault("game", game())):
        client.get("/")
    return {
        "the metrics and request id (observe.Observe)": lambda: replaced(app, "wsgi_app", observe.app),
        "the security headers and body guard (security.Guard), with the metrics": lambda: replaced(
            app, "wsgi_app", observe.app.app
        ),
        "the store's calls timed (observe.MeasuredStore)": lambda: replaced(interface, "store", interface.store.store),
        "the hooks before the view but the page floor's": lambda: replaced(
            app, "before_request_funcs", {**app.before_request_funcs, None: hooks[:1]}
        ),
        "the stored game decoded (session_data.current_game)": lambda: replaced(
            session_data, "current_game", lambda: kept["game"]
        ),
        "the score, moves and players (page.about_the_game)": lambda: replaced(
            game_page, "about_the_game", lambda game: dict(kept["about_the_game"])
        ),
        "the board's view (page.shown_board)": lambda: replaced(
            game_page, "shown_board", lambda *args: kept["shown_board"]
        ),
        "the teach-mode cookie (cookies.teach_on)": lambda: replaced(cookies, "teach_on", lambda: False),
    }


@contextlib.contextmanager
def replaced(owner: object, name: str, value: object) -> Iterator[None]:
    original = getattr(owner, name)
    setattr(owner, name, value)
    try:
        yield
    finally:
        setattr(owner, name, original)


if __name__ == "__main__":
    main()
