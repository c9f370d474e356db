"""Difficulty benchmark, run by hand: python bench/difficulty.py [--games 2000] [--seed 2026]

The AI's win, draw and loss rates at each difficulty against a uniformly random opponent,
the AI playing X in half the games and O in the other half (the same measure the tests
assert with a fixed seed).
"""

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ttt_web.core import tictactoe as ttt
from ttt_web.core.game import Game
from ttt_web.core.options import DIFFICULTIES
from ttt_web.core.position import SIDES, Outcome, cell_of


def win_rates(difficulty: str, games: int, seed: int) -> dict[str, float]:
    """The AI's win, draw and loss rates against a uniformly random opponent, the AI
    taking X in half the games and O in the other half."""
    rng = random.Random(seed)
    tally = dict.fromkeys(Outcome, 0)
    for n in range(games):
        game = Game.start(rng, side=SIDES[n % 2], difficulty=difficulty)
        while not game.over:
            game = game.play(rng.choice(sorted(cell_of(a) for a in ttt.actions(game.board))), rng)
        result = "draw" if game.winner is None else "win" if game.winner == game.ai_side else "loss"
        tally[result] += 1
    return {k: v / games for k, v in tally.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    print(f"{'difficulty':12} {'win':>7} {'draw':>7} {'loss':>7}   ({args.games} games, seed {args.seed})")
    for difficulty in DIFFICULTIES:
        r = win_rates(difficulty, args.games, args.seed)
        print(f"{difficulty:12} {r['win']:7.1%} {r['draw']:7.1%} {r['loss']:7.1%}")


if __name__ == "__main__":
    main()
