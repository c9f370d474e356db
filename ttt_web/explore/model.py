"""What the explorer's page of a position shows, worked out in Python so that the template
only prints it: the position's value and role, its moves judged and in words, the tree below
it, alpha-beta's search and the search costs."""

from __future__ import annotations

import functools
import itertools

from ..core import search
from ..core import tictactoe as ttt
from ..core.costs import alphabeta, costs, moves
from ..core.judging import judge, principal_variation
from ..core.position import action_name, action_of, board, other, over, to_move, winner_of
from ..core.words import ending, in_words

MINUS = "\N{MINUS SIGN}"
SIGNED = {1: "1", 0: "0", -1: f"{MINUS}1"}  # utility as the page prints it


@functools.lru_cache(maxsize=1024)
def explained(text: str) -> dict:
    """All the page shows of a position, which is the same every time: computed once, and
    kept for the positions asked for most (all 5,478 would hold some 80 MB per process)."""
    here_ = board(text)
    searched = alphabeta(text)
    return {
        "position": text,
        "mover": to_move(text),
        "role": search.role(text),
        "utility": search.value(text),
        "moves": [listed(here_, action_of(n), child) for n, child in moves(text)],
        "line": [action_name(action) for action in principal_variation(here_)],
        "parents": search.parents(text),
        "tree": search.tree(text),
        "searched": searched if text.count(".") <= search.TREE_EMPTY_CELLS else None,
        "depths": list(
            itertools.zip_longest(search.per_depth(text), search.alphabeta_per_depth(searched), fillvalue=0)
        ),
        "steps": len(search.trace(text)) if text.count(".") <= search.TRACE_EMPTY_CELLS else 0,
        "costs": costs(text),
        "title": title(text),
    }


def listed(here_: ttt.Board, action: ttt.Action, child: str) -> dict:
    """A move as the move list shows it: its cell, value, words and judgement."""
    judged = judge(here_, action)
    mover = judged.mark
    words = in_words(judged.played, mover, other(mover))
    marks = itertools.cycle((other(mover), mover))
    line = [(mark, action_name(a)) for mark, a in zip(marks, judged.refutation, strict=False)]
    worse = judged.played.outcome != judged.best.outcome  # a refutation; else only a slower way
    return {
        "cell": action_name(action),
        "child": child,
        "utility": search.value(child),
        "judged": judged,
        "words": words,
        "refutation": line if judged.verdict != "best" else [],
        "refuted": worse,
    }


def title(text: str) -> str:
    """ "X to move, draw with best play", "O won", "a draw": the page's title in words."""
    if over(text):
        utility = search.value(text)
        return "a draw" if utility == 0 else f"{winner_of(utility)} won"
    return f"{to_move(text)} to move, {ending(search.value(text))} with best play"
