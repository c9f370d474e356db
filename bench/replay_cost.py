"""What a game made from another without replaying its moves saves (core/game.py's `_derived`),
run by hand: python bench/replay_cost.py

A move and the AI's reply on a game of three moves (`Game.play`, in-process, the best of 5
runs of 20,000), as the game makes them (each game it derives takes the board it already
knows), then with each derived game built by `dataclasses.replace`, which checks it as any
new game and replays its moves from the empty board.
"""

from __future__ import annotations

import dataclasses
import random
import sys
import timeit
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttt_web.core.game import Game

CALLS = 20000


def per_call(game: Game, cell: int) -> float:
    rng = random.Random(2)
    return min(timeit.repeat(lambda: game.play(cell, rng), number=CALLS, repeat=5)) / CALLS * 1e6


def main() -> None:
    game = Game.start(random.Random(1), moves=(4, 0))  # the AI replies: three moves
    cell = next(cell for cell in range(9) if cell not in game.moves)
    carried = per_call(game, cell)
    Game._derived = lambda self, board, **changes: dataclasses.replace(self, **changes)  # type: ignore[method-assign]
    replayed = per_call(game, cell)
    print(f"a move and the AI's reply: {carried:.1f} µs, the board carried over;", end=" ")
    print(f"{replayed:.1f} µs, every game replayed")


if __name__ == "__main__":
    main()
