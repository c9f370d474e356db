"""The board as every page that draws one shows it: cells with their labels, links and
teach-mode values, the status line and the AI's comment. Plain slotted dataclasses, built
in Python, so that the template only prints them."""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from operator import attrgetter
from typing import TypedDict, Unpack

from cachetools import LRUCache

from ..core import tictactoe as ttt
from ..core.costs import moves_to
from ..core.game import Game
from ..core.position import SIDES, action_of, other
from ..core.words import Cast, ai_says, in_words, rank, status_lines
from .urls import url_for

BLANK = Game(token="")  # what a visitor with no game yet is shown: a game of the DEFAULTS options


class CellChanges(TypedDict, total=False):
    """What a page may draw otherwise on one cell (BoardView.with_cell)."""

    mark: str
    classes: str
    label: str
    href: str


@dataclass(frozen=True, slots=True)
class Cell:
    """One cell as the board template shows it."""

    row: int
    col: int
    mark: str  # "X", "O" or ""
    classes: str
    label: str  # what a screen reader announces
    href: str = ""  # a link to another page (a read-only board's cell)
    value: ttt.MoveValue | None = None  # in teach mode: what playing here leads to
    hint: str = ""  # in teach mode: the value in the player's words, e.g. "you win now"
    best: bool = False  # in teach mode: one of the best moves
    places: str = ""  # the mark a move link places, for a script to draw it at once
    move: str = ""  # on a cell the human may play now: the move link's end, after the board's `link`


@dataclass(frozen=True, slots=True)
class Status:
    state: str  # "playing" or "over"
    winner: str  # "X", "O" or ""
    lines: tuple[str, ...]  # one sentence each: the move just played, then whose turn it is
    result: str = ""  # when over: "win", "loss" or "draw", for the human (X, with two players)

    @property
    def text(self) -> str:
        return " ".join(self.lines)


@dataclass(frozen=True, slots=True)
class BoardView:
    rows: tuple[tuple[Cell, ...], ...]
    classes: str
    caption: str
    status: Status
    ai_says: str | None
    strike: tuple[float, float, float, float] | None  # the winning line, in cell units
    link: str = ""  # the start of every move link: the move's address, the game's token and version

    @property
    def has_links(self) -> bool:
        """Whether any empty cell is a link (a move, a try, a position to explore)."""
        return any(cell.move or cell.href for row in self.rows for cell in row)

    def linked(self, link: str) -> BoardView:
        return BoardView(self.rows, self.classes, self.caption, self.status, self.ai_says, self.strike, link)

    def with_cell(self, n: int, **changes: Unpack[CellChanges]) -> BoardView:
        """This board with one cell drawn otherwise (a try, an answer)."""
        cells = [cell for row in self.rows for cell in row]
        cells[n] = replace(cells[n], **changes)
        return replace(self, rows=(tuple(cells[0:3]), tuple(cells[3:6]), tuple(cells[6:9])))


CELL_NAMES = tuple(f"Row {n // 3 + 1}, column {n % 3 + 1}" for n in range(9))
DRAWN = 4096  # boards remembered per process, each a few KB: every player's board in a position
# What a board is drawn from: all but the token and the version, which are only in its link.
POSITION = attrgetter(*(f.name for f in fields(Game) if f.init and f.name not in ("token", "version")))


def board_view(
    game: Game | None,
    teach_on: bool,
    links: bool = True,
    move_url: str = "",
    history: bool = True,
    *,
    hrefs: dict[int, str] | None = None,
    action: str = "",
    played: int | None = None,
) -> BoardView:
    """What the template needs: cells, status and the AI's comment. Without `links`, a
    read-only board (a review) whose teach values are for whoever is to move. Moves go to
    `move_url`, or else to the game's own. Without `history` (a position reached in an
    order nobody played), no mark is ringed as the last move. `hrefs` links empty cells of
    a read-only board to other pages, announced with `action`; `played` marks the cell the
    game played where a better move is shown.

    A board is drawn once per process for everyone who is shown it (the game's token is
    only in its `link`) and kept, the DRAWN last asked for: after the template, drawing the
    board was a page's largest cost; the game's version is only in the `link` too."""
    shown = game or BLANK
    key = (POSITION(shown), teach_on, links, history, tuple(sorted(hrefs.items())) if hrefs else (), action, played)
    try:
        drawn = _DRAWN[key]
    except KeyError:
        drawn = _DRAWN[key] = _drawn(shown, teach_on, links, history, hrefs or {}, action, played)
    return drawn.linked(_move_link(game, move_url)) if links else drawn


_DRAWN: LRUCache[tuple, BoardView] = LRUCache(maxsize=DRAWN)


def _drawn(
    shown: Game, teach_on: bool, links: bool, history: bool, hrefs: dict[int, str], action: str, played: int | None
) -> BoardView:
    drawing = _Drawing.of(shown, teach_on, links, history)
    drawing = replace(drawing, hrefs=hrefs, action=action, played=played)
    cells = [drawing.cell(n) for n in range(9)]
    return BoardView(
        rows=(tuple(cells[0:3]), tuple(cells[3:6]), tuple(cells[6:9])),
        classes="board" + (" teaching" if teach_on else "") + (" finished" if shown.over else ""),
        caption=_caption(shown, links),
        status=status(shown),
        ai_says=ai_says(shown) if teach_on else None,
        strike=strike(shown.winning_line),
    )


def _move_link(game: Game | None, move_url: str) -> str:
    """The start of a move link: to `move_url` (a room's, whose round token names the board
    with the move number), or to the game's own, with the game's token and version."""
    if move_url:
        return f"{move_url}?" + (f"game={game.token}&" if game else "")
    return f"{url_for('play.move')}?" + (f"game={game.token}&v={game.version}&" if game else "")


def _caption(shown: Game, links: bool) -> str:
    whose = "game over" if shown.over else "your turn" if links and shown.mode == "ai" else f"{shown.to_move} to move"
    return f"Game board, {whose}"


@dataclass(frozen=True)
class _Drawing:
    """What every cell of one board is drawn from."""

    game: Game
    links: bool  # whether the human's empty cells are move links
    playable: bool  # whether empty cells say what a move there is worth
    values: dict[ttt.Action, ttt.MoveValue]  # in teach mode, each move's value for the mover
    top: ttt.MoveValue | None  # the best of them
    me: str  # the mover, as the values are worded
    them: str
    last: int | None  # the cell to ring as the last move
    hrefs: dict[int, str] = field(default_factory=dict)
    action: str = ""
    played: int | None = None

    @classmethod
    def of(cls, shown: Game, teach_on: bool, links: bool, history: bool) -> _Drawing:
        playable = shown.humans_turn if links else not shown.over
        values = ttt.scores(shown.board) if teach_on and playable else {}
        me, them = ("you", _opponent(shown)) if links else (shown.to_move, other(shown.to_move))
        last = shown.moves[-1] if shown.moves and history else None
        top = max(values.values(), key=rank) if values else None
        return cls(shown, links, playable, values, top, me, them, last)

    def cell(self, n: int) -> Cell:
        row, col = action_of(n)
        mark = self.game.board[row][col] or ""
        made = self.marked_cell(n, mark) if mark else self.empty_cell(n)
        if n == self.played:
            return replace(made, classes=made.classes + " played-here", label=made.label + "; played in the game")
        return made

    def marked_cell(self, n: int, mark: str) -> Cell:
        row, col = action_of(n)
        label = f"{CELL_NAMES[n]}: {mark}" + (", the last move" if n == self.last else "")
        return Cell(row, col, mark, self.classes(n, mark), label)

    def classes(self, n: int, mark: str) -> str:
        classes = "cell" + (f" mark-{mark.lower()}" if mark else "")
        return classes + (" in-line" if n in self.game.winning_line else "") + (" last" if n == self.last else "")

    def empty_cell(self, n: int) -> Cell:
        (row, col), classes, href = action_of(n), self.classes(n, ""), self.hrefs.get(n, "")
        empty = f"{CELL_NAMES[n]}, empty" + (f": {self.action}" if href else "")
        if not self.playable:
            return Cell(row, col, "", classes, empty, href)
        value = self.values.get((row, col))
        hint = in_words(value, self.me, self.them) if value else ""
        best = value == self.top
        said = f": {hint}" + ("; a best move" if best else "") if hint else ""
        move = places = ""
        if self.links:
            move, href = f"n={self.game.number}&row={row}&col={col}", ""  # tokens are URL-safe
            empty, places = f"{CELL_NAMES[n]}, empty: place {self.game.to_move}", self.game.to_move
        return Cell(row, col, "", classes, f"{empty}{said}", href, value, hint, best, places, move)


def _opponent(game: Game) -> str:
    """Who plays against the human to move: "AI", or the other friend's name or mark."""
    if game.mode == "ai":
        return "AI"
    opponent = other(game.to_move)
    return game.names[SIDES.index(opponent)] or opponent


def status(game: Game) -> Status:
    """The line under the board: the move just played and whose turn it is, or the result."""
    lines = status_lines(game, Cast.of_game(game))
    if not game.over:
        return Status("playing", "", lines)
    return Status("over", game.winner or "", lines, game.outcome)


def strike(line: tuple[int, ...]) -> tuple[float, float, float, float] | None:
    """The line through the winning cells, from beyond the first cell's centre to beyond the
    last's, with the board 3 units wide."""
    if not line:
        return None
    (y1, x1), (y2, x2) = (action_of(line[0]), action_of(line[-1]))
    dx, dy = (x2 - x1) / 2, (y2 - y1) / 2
    reach = 0.35 / (dx * dx + dy * dy) ** 0.5
    return (x1 + 0.5 - dx * reach, y1 + 0.5 - dy * reach, x2 + 0.5 + dx * reach, y2 + 0.5 + dy * reach)


def position_view(
    text: str, teach_on: bool, links: dict[int, str] | None = None, action: str = "explore this move"
) -> BoardView:
    """The board of a position written as 9 characters row by row ("X", "O", "."), read-only
    but for the empty cells `links` maps to an address (the explorer's children), which a
    screen reader announces with `action`."""
    return board_view(
        Game.of_moves(moves_to(text)), teach_on, links=False, history=False, hrefs=links or {}, action=action
    )
