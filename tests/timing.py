"""Timing under attack, against a yardstick from the same run: the machine is shared and
noisy, so no test holds a request to an absolute number of seconds. A stall (what the
attacks try for) costs seconds; a busy machine costs every request alike."""

import random
import time

from tests.conftest import Player

ROUNDS = 5  # quiet rounds that make the yardstick
SLOWER_AT_MOST = 20  # how many times its quiet slowest a request may take under attack
FLOOR = 0.05  # seconds: below this, a quiet round's time is noise, not a yardstick
PATIENCE = 60  # seconds a test client waits for an answer: what bounds a test, not what it claims


def timed(call, *args):
    start = time.perf_counter()
    result = call(*args)
    return result, time.perf_counter() - start


def play_timed(player: Player) -> float:
    """Seconds to load the board and play a move on it (starting over when it is over): the
    slower of the two."""
    page, load = timed(player.page)
    if page.state == "over":
        player.new_game()
        page, load = timed(player.page)
    _, move = timed(player.follow, random.choice(list(page.links.values())))
    return max(load, move)


def yardstick(player: Player) -> float:
    """The slowest of a few quiet rounds of play, before the attack: the unit the attack's
    rounds are measured in. The first round, which wakes the workers, does not count."""
    play_timed(player)
    return max(FLOOR, *(play_timed(player) for _ in range(ROUNDS)))


def unstalled(took: float, quiet: float) -> bool:
    return took <= SLOWER_AT_MOST * quiet
