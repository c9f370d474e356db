"""The pseudocode trace against an independent instrumented minimax (tests/tracer.py): the
marked line, the stack and what is returned, at every step."""

import itertools
import random

import pytest

from tests import tracer
from tests.judge import calls, reachable
from ttt_web.core import trace as core_trace

EMPTY = "." * 9


def as_snapshot(step: core_trace.Step):
    frames = tuple(
        (f.function, f.position, f.depth, f.action, f.call, f.line, f.v, f.alpha, f.beta) for f in step.frames
    )
    return step.event, step.top.line, frames, step.returned


def check_whole_trace(position: str, pruning: bool) -> None:
    expected = list(tracer.trace(position, pruning))
    steps, _ = core_trace.total(position, pruning)
    assert steps == len(expected), position
    for number, snapshot in enumerate(expected, 1):
        assert as_snapshot(core_trace.step(position, number, pruning)) == snapshot, (position, number)


PARTS = 6  # the positions in six parts, each once: make test's two processes share them, none long alone


@pytest.mark.slow
@pytest.mark.parametrize("part", range(PARTS))
@pytest.mark.parametrize("pruning", [False, True], ids=["plain", "alphabeta"])
def test_every_step_of_every_position_with_at_most_five_empty_cells(pruning, part):
    small = sorted(p for p in reachable() if p.count(".") <= 5)
    assert len(small) > 4000
    for position in small[part::PARTS]:
        check_whole_trace(position, pruning)


@pytest.mark.parametrize("pruning", [False, True], ids=["plain", "alphabeta"])
def test_sampled_larger_positions(pruning):
    rng = random.Random(33)
    larger = sorted(p for p in reachable() if 6 <= p.count(".") <= 7)
    for position in rng.sample(larger, 5):
        check_whole_trace(position, pruning)


@pytest.mark.parametrize("pruning", [False, True], ids=["plain", "alphabeta"])
def test_the_empty_board_sampled(pruning):
    """Steps of the empty board's trace (several hundred thousand) at sampled numbers, each
    checked against the independent tracer run to that number."""
    rng = random.Random(7)
    wanted = {1, 2, *rng.sample(range(1, 60_000), 40)}
    expected = itertools.islice(enumerate(tracer.trace(EMPTY, pruning), 1), max(wanted))
    for number, snapshot in expected:
        if number in wanted:
            assert as_snapshot(core_trace.step(EMPTY, number, pruning)) == snapshot, number


def test_the_count_of_calls_from_the_empty_board_is_the_literatures():
    assert (core_trace.total(EMPTY, False)[1], core_trace.total(EMPTY, True)[1]) == (549_946, 18_297)


@pytest.mark.slow
def test_the_count_of_calls_from_the_empty_board():
    assert core_trace.total(EMPTY, False)[1] == 549_946 == len(calls(EMPTY))
    t = tracer.Tracer(pruning=True)
    last = list(t.minimax(EMPTY))[-1]
    assert core_trace.total(EMPTY, True)[1] == t.calls == 18_297
    steps = core_trace.total(EMPTY, True)[0]
    assert as_snapshot(core_trace.step(EMPTY, steps, True)) == last


def test_the_last_step_of_the_empty_board_returns_the_first_best_action():
    steps, _ = core_trace.total(EMPTY, False)
    last = core_trace.step(EMPTY, steps, False)
    assert (last.event, last.top.line, last.returned, len(last.frames)) == ("return", 9, (0, 0), 1)


@pytest.mark.parametrize("pruning", [False, True], ids=["plain", "alphabeta"])
def test_a_call_number_leads_to_the_step_where_that_call_begins(pruning):
    position = "X...O...."
    starts = {}
    for number, (event, _, frames, _) in enumerate(tracer.trace(position, pruning), 1):
        if event == "test":
            starts[frames[-1][4]] = number
    for call, number in starts.items():
        assert core_trace.step_of_call(position, call, pruning) == number


def test_steps_out_of_range_are_refused():
    with pytest.raises(ValueError, match="steps 1 to"):
        core_trace.step(EMPTY, 0, False)
    with pytest.raises(ValueError, match="calls 1 to 549946"):
        core_trace.step_of_call(EMPTY, 549_947, False)
