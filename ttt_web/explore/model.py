"""What the explorer's page of a position shows, worked out in Python so that the template
only prints it: the position's value and role, its moves judged and in words, the tree below
it, alpha-beta's search and the search costs."""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass

from ..core import search
from ..core import tictactoe as ttt
from ..core.costs import Costs, Searched, alphabeta, costs, moves
from ..core.judging import Judgement, judge, principal_variation
from ..core.position import action_name, action_of, board, other, over, to_move, winner_of
from ..core.words import ending, in_words

EXPLAINED = 256  # positions (docs/performance.md, "Memory")
MINUS = "\N{MINUS SIGN}"
SIGNED = {1: "1", 0: "0", -1: f"{MINUS}1"}  # utility as the page prints it


@dataclass(frozen=True)
class MoveShown:
    """A move as the move list shows it: its cell, the position it leads to and that
    position's value, its judgement and what it leads to in words, and (when it is not best)
    the line of perfect play after it, each move with its mark."""

    cell: str
    child: str
    utility: int
    judged: Judgement
    words: str
    refutation: list[tuple[str, str]]
    aside: str  # what the refutation line shows: "refuted by", or how much slower or faster


@dataclass(frozen=True)
class Explained:
    """All the explorer's page shows of a position, the same every time."""

    position: str
    mover: str
    role: str  # "MAX", "MIN", or "" for a finished game
    utility: int
    moves: list[MoveShown]
    line: list[str]  # the principal variation, as cell names
    parents: list[tuple[int, str]]
    tree: search.Node
    searched: Searched | None  # alpha-beta's tree, for a position small enough to draw it
    depths: list[tuple[int, int]]  # positions visited per depth: plain minimax, alpha-beta
    steps: int  # the steps of plain minimax's trace, 0 for a position too big to trace
    costs: Costs
    title: str


@functools.lru_cache(maxsize=EXPLAINED)
def explained(text: str) -> Explained:
    """All the page shows of a position, which is the same every time: kept for the last
    EXPLAINED positions asked for, for the pages that are not kept whole (a student's answer
    marked, a page no longer kept): all 5,478 would hold some 80 MB per process."""
    here_ = board(text)
    searched = alphabeta(text)
    return Explained(
        position=text,
        mover=to_move(text),
        role=search.role(text),
        utility=search.value(text),
        moves=[listed(here_, action_of(n), child) for n, child in moves(text)],
        line=[action_name(action) for action in principal_variation(here_)],
        parents=search.parents(text),
        tree=search.tree(text),
        searched=searched if text.count(".") <= search.TREE_EMPTY_CELLS else None,
        depths=list(itertools.zip_longest(search.per_depth(text), search.alphabeta_per_depth(searched), fillvalue=0)),
        steps=len(search.trace(text)) if text.count(".") <= search.TRACE_EMPTY_CELLS else 0,
        costs=costs(text),
        title=title(text),
    )


def listed(here_: ttt.Board, action: ttt.Action, child: str) -> MoveShown:
    """A move as the move list shows it: its cell, value, words and judgement."""
    judged = judge(here_, action)
    mover = judged.mark
    words = in_words(judged.played, mover, other(mover))
    marks = itertools.cycle((other(mover), mover))
    line = [(mark, action_name(a)) for mark, a in zip(marks, judged.refutation, strict=False)]
    return MoveShown(
        cell=action_name(action),
        child=child,
        utility=search.value(child),
        judged=judged,
        words=words,
        refutation=line if judged.verdict != "best" else [],
        aside=aside(judged),
    )


def aside(judged: Judgement) -> str:
    """What the line after a move shows, from its mover's side: a worse outcome is refuted;
    an outcome as good as the best move's is only reached at another depth ("a quicker loss
    than the best move's"). The best move wins soonest or, when it loses, loses latest."""
    played, best = judged.played, judged.best
    if played.outcome != best.outcome:
        return "refuted by"
    if played.plies == best.plies:
        pace = f"as fast a {played.outcome} as"
    else:
        pace = f"a {'slower' if played.plies > best.plies else 'quicker'} {played.outcome} than"
    return f"{pace} the best move's: perfect play then goes"


def title(text: str) -> str:
    """ "X to move, draw with best play", "O won", "a draw": the page's title in words."""
    if over(text):
        utility = search.value(text)
        return "a draw" if utility == 0 else f"{winner_of(utility)} won"
    return f"{to_move(text)} to move, {ending(search.value(text))} with best play"
