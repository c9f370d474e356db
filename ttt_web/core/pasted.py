"""A board as a student has it, pasted, read into the 9-character position the pages use
("X", "O", "."), or refused with the reason. Standard library only.

Two families of forms are read:

- **characters**: nine characters row by row in any case, an empty cell written as a space,
  a dot, an underscore or a dash; rows may be split by line breaks, slashes or bars, and
  the cells or rows may be separated by spaces (`X O . . X . O . .`, `XO. .X. O..`);
- **lists**: what Python prints for the assignment's board, `[[X, O, EMPTY], ...]` or
  `[['X', 'O', None], ...]`, a row per line, a flat list of nine, tuples, a trailing comma,
  `board = ...` in front. Commas and brackets only separate cells, whatever the spacing, so
  the line breaks a browser turns into spaces change nothing.
"""

from __future__ import annotations

import re

LONGEST = 200  # characters read at most: a pasted board is far shorter
EMPTY_CHARACTERS = " ._-"
EMPTY_WORDS = {"EMPTY", "NONE", "", ".", "_", "-"}
LINES = ((0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6))
FORMS = (
    "nine characters row by row, like X.O..X... (a space, dot or underscore for an empty cell), "
    "or the assignment's list of lists, like [[X, O, EMPTY], [EMPTY, X, EMPTY], [O, EMPTY, EMPTY]]"
)

ASSIGNMENT = re.compile(r"^[A-Za-z_]\w*\s*=\s*")  # `board = ` before the list
LISTED = re.compile(r"[,\[\]()'\"]|empty|none", re.IGNORECASE)  # what only the list forms have
ROW = re.compile(r"[\[(]([^\[\]()]*)[\])]")  # an innermost bracket: one row of a list of lists
TOKEN = re.compile(r"""'([^']*)'|"([^"]*)"|([A-Za-z_]\w*)|([,\[\]()\s]+)|(\S)""")
WORDS = re.compile(r"EMPTY|NONE|X|O|_", re.IGNORECASE)  # run together when line breaks were dropped
SEPARATORS = re.compile(r"[\s/|]+")


class BoardError(ValueError):
    """A pasted board that cannot be read, or that no game reaches: the message says why."""


def parse(text: str) -> str:
    """The position `text` writes, as 9 characters of "X", "O" and "."; BoardError if it is
    not a board or no game of tic-tac-toe reaches it."""
    if len(text) > LONGEST:
        raise BoardError(f"That is {len(text)} characters; a board is 9, or a list of lists well under {LONGEST}.")
    stripped = ASSIGNMENT.sub("", text.strip(), count=1)
    position = from_lists(stripped) if LISTED.search(stripped) else from_characters(text)
    check_reachable(position)
    return position


def from_characters(text: str) -> str:
    cells = re.sub(r"[\r\n/|]", "", text.strip("\r\n"))
    if len(cells) != 9:
        cells = cells.strip()
    if len(cells) != 9:
        cells = separated(text, len(cells))
    return "".join(mark(c) for c in cells)


def separated(text: str, length: int) -> str:
    """Nine cells or three rows of three, separated by spaces, slashes or bars."""
    parts = SEPARATORS.split(text.strip())
    if [len(p) for p in parts] in ([1] * 9, [3] * 3):
        return "".join(parts)
    raise BoardError(f"A board is 9 cells; this has {length}. Paste {FORMS}.")


def mark(character: str) -> str:
    if character.upper() in "XO":
        return character.upper()
    if character in EMPTY_CHARACTERS:
        return "."
    raise BoardError(f"{character!r} is not a mark: use X, O, or a space, dot or underscore for an empty cell.")


def from_lists(text: str) -> str:
    """The cells of a list of lists (or one flat list, or rows without brackets) in order:
    quoted or bare X, O, EMPTY or None, with commas, brackets and spaces between."""
    rows = ROW.findall(text)
    if len(rows) == 3:
        for n, row in enumerate(rows, 1):
            if (found := len(cells_in(row))) != 3:
                raise BoardError(f"Row {n} has {found} cells; each row has 3.")
    cells = cells_in(text)
    if len(cells) != 9:
        raise BoardError(f"This list has {len(cells)} cells; a board has 9, three rows of three. Paste {FORMS}.")
    return "".join(cells)


def cells_in(text: str) -> list[str]:
    """Each cell of `text` as "X", "O" or "."; BoardError at the first that is none of these."""
    cells = []
    for single, double, bare, between, other in TOKEN.findall(text):
        if bare:
            cells += words(bare)
        elif other:
            cells.append(word(other))
        elif not between:
            cells.append(word(single or double))
    return cells


def words(bare: str) -> list[str]:
    """A bare word: X, O, EMPTY or None, or several run together (`EMPTYEMPTY`)."""
    if not re.fullmatch(f"(?:{WORDS.pattern})+", bare, re.IGNORECASE):
        raise BoardError(f"{bare!r} is not a cell: use X, O, EMPTY or None.")
    return [word(w) for w in WORDS.findall(bare)]


def word(item: str) -> str:
    """One cell of a list: X, O, EMPTY or None, quoted or not (in quotes, empty too)."""
    bare = item.strip()
    if bare.upper() in ("X", "O"):
        return bare.upper()
    if bare.upper() in EMPTY_WORDS:
        return "."
    raise BoardError(f"{item!r} is not a cell: use X, O, EMPTY or None.")


def check_reachable(position: str) -> None:
    """BoardError with the reason when no game of tic-tac-toe, X first, reaches `position`."""
    if (why := unreachable(position)) is not None:
        raise BoardError(why)


def unreachable(position: str) -> str | None:
    """Why no game of tic-tac-toe, X first and the two taking turns, reaches `position` (9
    characters of X, O and "."), in a sentence that names what is wrong; None when one does.
    Counts and lines decide it exactly: tests/test_pasted.py checks it on all 3^9 boards."""
    xs, os = position.count("X"), position.count("O")
    marks = f"{count(xs)} X and {count(os)} O"
    if os > xs:
        return f"O has more marks than X ({marks}): X moves first and the two take turns, so O never has more."
    if xs > os + 1:
        return f"X has {count(xs - os)} more marks than O ({marks}), but they take turns: X is at most one ahead."
    x_won, o_won = won(position, "X"), won(position, "O")
    if x_won and o_won:
        return "Both X and O have three in a row: a game ends when the first line is made, so none reaches both."
    if x_won and xs == os:
        return f"X has three in a row, but O has as many marks ({marks}): O moved after X won, and a won game ends."
    if o_won and xs > os:
        return f"O has three in a row, but X has a mark more ({marks}): X moved after O won, and a won game ends."
    return None


def count(n: int) -> str:
    """A number of marks as the messages say it: "no", "one", ... "nine"."""
    return ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine")[n]


def won(position: str, player: str) -> bool:
    return any(all(position[n] == player for n in line) for line in LINES)
