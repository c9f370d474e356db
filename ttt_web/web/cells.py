"""Template filters that say a cell: the assignment's action (i, j) beside a cell's name, and
a list of cells ("a2, b2 or c3")."""

from __future__ import annotations

from collections.abc import Callable, Iterable

from markupsafe import Markup, escape

from ..core.position import COLUMNS, action_of
from ..core.words import either


def ij(cell: str | int | tuple[int, int]) -> Markup:
    """The assignment's action (i, j) for a cell named "c1", numbered 0-8 or given as an
    action: i is the row from the top, j the column from the left, both from 0."""
    if isinstance(cell, str):
        i, j = int(cell[1]) - 1, COLUMNS.index(cell[0])
    elif isinstance(cell, int):
        i, j = action_of(cell)
    else:
        i, j = cell
    return Markup(f'<span class="ij">({i}, {j})</span>')


def said_either(items: Iterable, say: Callable = str) -> Markup:
    """core.words.either for a page, each item said by `say` (a cell's name by default):
    "a2, b2 or c3", each escaped unless it is markup."""
    return Markup(either([escape(say(item)) for item in items]))
