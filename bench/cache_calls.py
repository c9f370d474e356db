"""What each kept table off the page's and the move's path saves on the call it serves, run by
hand: python bench/cache_calls.py

In one process, after `create_app` (which fills some of them at start): for each cache, one
call on a typical argument with that cache emptied first (what the call costs without it: for
a recursive search, everything below the position worked out again) against the same call
that finds it kept. Wall time, the best of 3; the bench/cache_gains.py caches (paths, boards,
games) and the review's picture (bench/picture_cost.py) are measured there.
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttt_web.app import create_app
from ttt_web.core import bugs, costs, drill, limited, search, subtrees
from ttt_web.explore import model, pages
from ttt_web.practice import views as practice
from ttt_web.review import font
from ttt_web.review import views as review
from ttt_web.rooms import page as room_page

EMPTY = "." * 9
MIDGAME = "X.O.X...."  # a live position of the explorer, three marks in
WHOLE = (-math.inf, math.inf)


def seconds(call: Callable[[], object], before: Callable[[], object] = lambda: None) -> float:
    best = math.inf
    for _ in range(3):
        before()
        start = time.perf_counter()
        call()
        best = min(best, time.perf_counter() - start)
    return best


def shown(value: float) -> str:
    return f"{value * 1e3:.1f} ms" if value >= 1e-3 else f"{value * 1e6:.1f} µs"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"SECRET_KEY": "calls", "DATABASE": tmp + "/ttt.sqlite3"})
        client = app.test_client()
        cached = [
            ("core/costs.py costs (the explorer's five counts)", costs.costs, (MIDGAME,)),
            ("core/costs.py tree_size", costs.tree_size, (EMPTY,)),
            ("core/costs.py alphabeta", costs.alphabeta, (EMPTY,)),
            ("core/costs.py reachable", costs.reachable, (EMPTY,)),
            ("core/search.py per_depth", search.per_depth, (EMPTY,)),
            ("core/search.py value", search.value, (MIDGAME,)),
            ("core/bugs.py alternating", bugs.alternating, (EMPTY, True)),
            ("core/bugs.py longest_win", bugs.longest_win, (EMPTY, "X")),
            ("core/bugs.py slower_wins", bugs.slower_wins, ()),
            ("core/bugs.py first_worse (and telling_position)", bugs.first_worse, ("wrong-player",)),
            ("core/subtrees.py size", subtrees.size, (EMPTY, WHOLE, True, True)),
            ("core/subtrees.py steps_with_empty_cells", subtrees.steps_with_empty_cells, (4,)),
            ("core/subtrees.py kids (plain minimax)", subtrees.kids, (MIDGAME, WHOLE, False)),
            ("core/limited.py tables", limited.tables, ()),
            ("core/limited.py every_mistake", limited.every_mistake, ()),
            ("core/drill.py small_positions", drill.small_positions, ()),
            ("practice/views.py candidates", practice.candidates, ()),
            ("review/font.py faces", font.faces, ()),
            ("review/views.py judge_all (a game of 9 moves)", review.judge_all, ((4, 0, 8, 2, 1, 7, 6, 3, 5),)),
            ("rooms/page.py qr_svg", room_page.qr_svg, ("https://ttt.example/room/Abcdefghijklmnop",)),
            ("explore/model.py explained", model.explained, (MIDGAME,)),
        ]
        print("| cache | one call, emptied first | found kept |")
        print("| --- | --- | --- |")
        for name, function, args in cached:
            cold = seconds(lambda f=function, a=args: f(*a), function.cache_clear)  # type: ignore[attr-defined]
            warm = seconds(lambda f=function, a=args: f(*a))
            print(f"| {name} | {shown(cold)} | {shown(warm)} |")
        with app.app_context():
            path = f"/explore/{MIDGAME}"
            cold = seconds(lambda: client.get(path), pages.KEPT.clear)
            warm = seconds(lambda: client.get(path))
        print(f"| explore/pages.py KEPT (the explorer's page, GET) | {shown(cold)} | {shown(warm)} |")


if __name__ == "__main__":
    main()
