"""A board as a student has it, pasted: nine characters row by row in any case, an empty
cell written as a space, a dot, an underscore or a dash (rows may be split by line breaks
or slashes), or the assignment's list of lists, `[[X, O, EMPTY], ...]` or
`[["X", "O", None], ...]`. Read into the 9-character position the pages use ("X", "O",
"."), or refused with the reason. Standard library only.
"""

from __future__ import annotations

import re

LONGEST = 200  # characters read at most: a pasted board is far shorter
EMPTY_CHARACTERS = " ._-"
EMPTY_WORDS = {"EMPTY", "NONE", "", ".", "_", "-", " "}
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
ROWS = re.compile(r"^\[\s*\[(.*?)\]\s*,\s*\[(.*?)\]\s*,\s*\[(.*?)\]\s*,?\s*\]$", re.DOTALL)
COUNT_WORDS = {2: "two", 3: "three", 4: "four", 5: "five"}


class BoardError(ValueError):
    """A pasted board that cannot be read, or that no game reaches: the message says why."""


def parse(text: str) -> str:
    """The position `text` writes, as 9 characters of "X", "O" and "."; BoardError if it is
    not a board or no game of tic-tac-toe reaches it."""
    if len(text) > LONGEST:
        raise BoardError(f"That is {len(text)} characters; a board is 9, or a list of lists well under {LONGEST}.")
    stripped = text.strip()
    position = from_lists(stripped) if stripped.startswith("[") else from_characters(text)
    check_reachable(position)
    return position


def from_characters(text: str) -> str:
    cells = re.sub(r"[\r\n/|]", "", text.strip("\r\n"))
    if len(cells) != 9:
        cells = cells.strip()
    if len(cells) != 9:
        raise BoardError(
            f"A board is 9 cells row by row, like X.O..X... (a space, dot or underscore for an empty cell); "
            f"this has {len(cells)}."
        )
    return "".join(mark(c) for c in cells)


def mark(character: str) -> str:
    if character.upper() in "XO":
        return character.upper()
    if character in EMPTY_CHARACTERS:
        return "."
    raise BoardError(f"{character!r} is not a mark: use X, O, or a space, dot or underscore for an empty cell.")


def from_lists(text: str) -> str:
    rows = ROWS.match(text)
    if not rows:
        raise BoardError("A list of lists is three rows of three, like [[X, O, EMPTY], [EMPTY, X, EMPTY], [O, O, X]].")
    cells = []
    for n, row in enumerate(rows.groups(), 1):
        items = row.split(",")
        if len(items) != 3:
            raise BoardError(f"Row {n} has {len(items)} cells; each row has 3.")
        cells += [word(item) for item in items]
    return "".join(cells)


def word(item: str) -> str:
    """One cell of a list of lists: X, O, EMPTY or None, quoted or not."""
    bare = item.strip().strip("\"'").strip()
    if bare.upper() in ("X", "O"):
        return bare.upper()
    if bare.upper() in EMPTY_WORDS:
        return "."
    raise BoardError(f"{item.strip()!r} is not a cell: use X, O, EMPTY or None.")


def check_reachable(position: str) -> None:
    """BoardError with the reason when no game of tic-tac-toe, X first, reaches `position`."""
    xs, os = position.count("X"), position.count("O")
    if os > xs:
        raise BoardError("O has more marks than X, but X moves first.")
    if xs > os + 1:
        raise BoardError(f"X has {COUNT_WORDS.get(xs - os, xs - os)} more marks than O; they take turns.")
    x_won, o_won = won(position, "X"), won(position, "O")
    if x_won and o_won:
        raise BoardError("Both have three in a row; the game ends at the first.")
    if x_won and xs == os:
        raise BoardError("X won but O moved after; the game ends when X completes the line.")
    if o_won and xs > os:
        raise BoardError("O won but X moved after; the game ends when O completes the line.")


def won(position: str, player: str) -> bool:
    return any(all(position[n] == player for n in line) for line in LINES)
