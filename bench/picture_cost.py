"""What a review's picture costs, run by hand: python bench/picture_cost.py [--pictures 200]

CPU time (process time, so other load on the machine counts little) of drawing and encoding
the pictures of random games, each named by two players of 12 random letters as the picture
flood names them (tests/attacks.py), none kept; then of the same pictures again, kept."""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests import attacks
from ttt_web.core.game import Game
from ttt_web.core.players import Players
from ttt_web.review import picture


def cpu_ms(cases: list[tuple[Game, Players]]) -> float:
    start = time.process_time()
    for game, players in cases:
        picture.of_game(game, players)
    return (time.process_time() - start) / len(cases) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pictures", type=int, default=200)
    args = parser.parse_args()
    rng = random.Random(5)
    cases = [
        (
            Game.of_moves(tuple(attacks.random_game(rng))),
            Players(names=tuple("".join(rng.choices(attacks.FRESH_LETTERS, k=12)) for _ in "xo")),
        )
        for _ in range(args.pictures)
    ]
    picture.parts()
    picture.png.cache_clear()
    print(f"drawn and encoded: {cpu_ms(cases):.2f} ms of CPU a picture")
    print(f"kept: {cpu_ms(cases[-picture.PICTURES :]):.2f} ms of CPU a picture")


if __name__ == "__main__":
    main()
