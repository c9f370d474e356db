"""What a process's kept games cost in memory, run by hand: python bench/kept_memory.py

In one process through Flask's test client: 5,000 players, each with a new game of one
move, each shown its page, more than the 4,096 games a process keeps decoded (with what the
page says of each, and its board with links). Prints how many each table keeps and how much
the process's resident memory grew."""

import gc
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttt_web.app import create_app
from ttt_web.play import page
from ttt_web.web import stored_games

PLAYERS = 5000


def resident_kb() -> int:
    return int(Path("/proc/self/status").read_text().split("VmRSS:")[1].split()[0])


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        many = "1000000 per minute"
        app = create_app({"SECRET_KEY": "m", "DATABASE": tmp + "/db", "NEW_SESSION_LIMIT": many})
        app.test_client().get("/")
        gc.collect()
        before = resident_kb()
        for number in range(PLAYERS):
            client = app.test_client()
            assert client.get(f"/move?row={number % 3}&col={number // 3 % 3}&n=0").status_code == 303
            assert client.get("/").status_code == 200
        gc.collect()
        print(f"games kept decoded: {stored_games.decoded.cache_info().currsize}")
        print(f"pages' descriptions kept: {page._described.cache_info().currsize}")
        print(f"boards with links kept: {page._own_board.cache_info().currsize}")
        print(f"resident memory grew by {(resident_kb() - before) / 1024:.0f} MB")


if __name__ == "__main__":
    main()
