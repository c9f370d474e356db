"""The time that strangers can make a process spend on the pages it works out on demand: the
explorer's and the students' pages (a position's page the first time, a student's answer
marked, a drill, a pasted board). Each such page costs from a fraction of a millisecond (one
kept) to some 100 ms (a first page high in the tree), all of it on the event loop, where
every player of the process waits for it. So those pages share a budget per process: a
network may spend CPU_BUDGET_PER_NETWORK of the process's event loop on them (6 % by default), and
all networks together CPU_BUDGET (15 %); a request past either is refused at once, with a
page that says when to come back. Players' pages and moves never count, nor are refused.

The budget is a moving window of milliseconds, kept by the `limits` package in the process's
memory (the loop it bounds is the process's own), one per app. A page is charged the time it
held the event loop (its wall time: such a view never yields), which on a busy machine is
more than its CPU time, and is what players wait for. It is charged after it is made, so a
request is refused only once its network or everyone has spent the budget: measured in
docs/hostile-traffic.md (bench/attacks.py's page floods)."""

from __future__ import annotations

import time

from flask import Blueprint, Response, current_app, g
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import MovingWindowRateLimiter
from werkzeug.exceptions import ServiceUnavailable

from .limits import client_network

MESSAGE = (
    "The server is busy working out pages like this one for many people right now. Please try "
    "again in a few seconds: games under way are not affected."
)
STARTED = "ttt_loop_started"  # on flask.g: when the view began


class Budget:
    """One app's budget: its own limiter and storage, so that two apps never share one."""

    def __init__(self, per_network: str, in_all: str) -> None:
        self.limiter = MovingWindowRateLimiter(MemoryStorage())
        self.items: tuple[tuple[RateLimitItem, str], ...] = ((parse(per_network), "network"), (parse(in_all), "all"))

    def keys(self) -> list[tuple[RateLimitItem, str, str]]:
        network = client_network()
        return [(item, kind, network if kind == "network" else "") for item, kind in self.items]

    def refused_for(self) -> float:
        """Seconds until this request's network may spend again; 0 if it may now."""
        waits = [
            self.limiter.get_window_stats(item, "cpu", kind, key).reset_time - time.time()
            for item, kind, key in self.keys()
            if not self.limiter.test(item, "cpu", kind, key)
        ]
        return max(waits, default=0.0)

    def charge(self, milliseconds: int) -> None:
        """Spend `milliseconds` (at most what is left of each window: the excess is the wait)."""
        for item, kind, key in self.keys():
            left = self.limiter.get_window_stats(item, "cpu", kind, key).remaining
            if left > 0:
                self.limiter.hit(item, "cpu", kind, key, cost=min(milliseconds, left))


def budget() -> Budget:
    """The app's budget, made on its first such request."""
    found = current_app.extensions.get("ttt.cpu_budget")
    if found is None:
        config = current_app.config
        found = current_app.extensions["ttt.cpu_budget"] = Budget(
            config["CPU_BUDGET_PER_NETWORK"], config["CPU_BUDGET"]
        )
    return found


def counts(bp: Blueprint) -> None:
    """Make every request of `bp` (and of the blueprints inside it) spend the budget."""
    bp.before_request(check)
    bp.after_request(charge)


def check() -> None:
    wait = budget().refused_for()
    if wait > 0:
        raise ServiceUnavailable(MESSAGE, retry_after=max(1, round(wait)))
    setattr(g, STARTED, time.perf_counter())


def charge(response: Response) -> Response:
    started = g.get(STARTED)
    if started is not None:
        spent = round((time.perf_counter() - started) * 1000)
        if spent:  # a page kept already costs a fraction of a millisecond, as a player's does
            budget().charge(spent)
    return response
