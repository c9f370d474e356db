"""What the alpha-beta trace says when a value comes back, is cut off or returned, checked
against the independent alpha-beta of tests/judge.py and the judge's minimax values: a value
shown plain is the exact value; one marked ≤ or ≥ is that bound of it, from a call where
moves were pruned at or below; a cut at v = β (or α) is said to leave the caller indifferent."""

import random
import re

import pytest

from tests.judge import alphabeta_tree, fully_searched, is_over, minimax, preorder, reachable
from ttt_web.core import trace as core_trace
from ttt_web.learn import words

pytestmark = pytest.mark.unit
INF = float("inf")
FIRST = "X.O.X.O.."  # the trace /learn/ opens with
MARKED = re.compile(r"returned (−?\d) \(([≤≥]) (−?\d): only an? (upper|lower) bound, as moves were pruned at or below")
RETURNS = re.compile(
    r"returns v = (−?\d)(?: now| to its caller)"
    r"(?:, only an? (upper|lower) bound: the value is ([≤≥]) (−?\d), as moves)?"
)


def integer(text: str) -> int:
    return int(text.replace("−", "-"))


def check_value(said: str, returned: int, node: dict, kind: str | None, mark: tuple[str, str] = ("", "")) -> str:
    """The claim about one value returned, against the judge: the kind of claim it made."""
    exact = minimax(node["pos"])
    assert node["returned"] == returned, said
    if kind is None:
        assert exact == returned, said  # shown plain: the exact value
        return "="
    assert not fully_searched(node), said  # "moves were pruned at or below"
    assert (exact <= returned) if kind == "upper" else (exact >= returned), said
    sign, value = mark  # the mark and the value it bounds
    assert sign == ("≤" if kind == "upper" else "≥") and integer(value) == returned, said
    return "≤" if kind == "upper" else "≥"


def check_trace(position: str, seen: set[str]) -> None:
    calls = preorder(alphabeta_tree(position, -INF, INF))
    steps, count = core_trace.total(position, True)
    assert count == len(calls)
    before = None
    for number in range(1, steps + 1):
        step = core_trace.step(position, number, True)
        said = words.says(step)
        if step.event == "back":
            node = calls[before.top.call - 1]  # the call that just returned
            marked = MARKED.search(said)
            assert said.startswith(f"Action {words.action(step.action)} returned {words.number(step.returned)}")
            kind, mark = (marked.group(4), marked.group(2, 3)) if marked else (None, ("", ""))
            seen.add("back " + check_value(said, step.returned, node, kind, mark))
        elif (
            step.event in ("cut", "return") and step.top.function != core_trace.ROOT and not is_over(step.top.position)
        ):
            node = calls[step.top.call - 1]
            found = RETURNS.search(said)
            assert found and integer(found.group(1)) == step.returned, said
            seen.add(step.event + " " + check_value(said, step.returned, node, found.group(2), found.group(3, 4)))
            if step.event == "cut":
                seen.add(check_cut(said, step))
        before = step


def check_cut(said: str, step: core_trace.Step) -> str:
    frame = step.top
    limit = frame.beta if frame.v >= frame.beta else frame.alpha
    assert frame.v >= frame.beta or frame.v <= frame.alpha
    if frame.v == limit:
        assert "is indifferent to coming here" in said and "would never let" not in said, said
        return "indifferent"
    assert "would never let play come here" in said and "indifferent" not in said, said
    return "never"


def test_the_first_traces_cut_at_v_equal_to_beta_says_the_caller_is_indifferent():
    step = core_trace.step(FIRST, 30, True)
    assert step.event == "cut" and step.top.v == step.top.beta == 1
    said = words.says(step)
    assert "MIN is indifferent to coming here" in said and "would never let" not in said


def test_a_bound_returned_is_marked_as_the_explorers_tree_marks_it():
    step = core_trace.step("...XXOOXO", 42, True)  # at the root, X tries (0, 2) c1
    said = words.says(step)
    assert said.startswith("Action (0, 2) c1 returned 1 (≤ 1: only an upper bound")
    assert minimax("..XXXOOXO") == 0  # its true value: 1 was only a bound
    assert "not better than best = 1" in said


def test_every_sentence_on_a_value_returned_against_the_independent_alphabeta():
    seen: set[str] = set()
    small = sorted(p for p in reachable() if not is_over(p) and 3 <= p.count(".") <= 5)
    for position in [FIRST, *random.Random(45).sample(small, 60)]:
        check_trace(position, seen)
    assert {"back =", "back ≤", "back ≥", "cut =", "cut ≥", "cut ≤", "return =", "indifferent", "never"} <= seen, seen
