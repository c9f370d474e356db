"""The board as every page that draws one shows it: cells with their labels, links and
teach-mode values, the status line and the AI's comment. Plain slotted dataclasses, built
in Python, so that the template only prints them."""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import Markup

from ..core import tictactoe as ttt
from ..core.costs import EMPTY_BOARD, over, reachable
from ..core.game import DEFAULTS, SIDES, Game, cell_name, mark_of
from ..core.words import in_words, rank
from .urls import url_for

BLANK = Game(token="", **DEFAULTS)  # what a visitor with no game yet is shown


@dataclass(slots=True)
class Cell:
    """One cell as the board template shows it."""

    row: int
    col: int
    mark: str  # "X", "O" or ""
    classes: str
    label: str  # what a screen reader announces
    href: str = ""  # the move link, on a cell the human may play now
    value: ttt.MoveValue | None = None  # in teach mode: what playing here leads to
    hint: str = ""  # in teach mode: the value in the player's words, e.g. "you win now"
    best: bool = False  # in teach mode: one of the best moves
    places: str = ""  # the mark a move link places, for a script to draw it at once


@dataclass(slots=True)
class Status:
    state: str  # "playing" or "over"
    winner: str  # "X", "O" or ""
    lines: tuple[str, ...]  # one sentence each: the move just played, then whose turn it is
    result: str = ""  # when over: "win", "loss" or "draw", for the human (X, with two players)

    @property
    def text(self) -> str:
        return " ".join(self.lines)


@dataclass(slots=True)
class BoardView:
    rows: tuple[tuple[Cell, ...], ...]
    classes: str
    caption: str
    status: Status
    ai_says: str | None
    strike: tuple[float, float, float, float] | None  # the winning line, in cell units


CELL_NAMES = tuple(f"Row {n // 3 + 1}, column {n % 3 + 1}" for n in range(9))


def board_view(
    game: Game | None, teach_on: bool, links: bool = True, move_url: str = "", history: bool = True
) -> BoardView:
    """What the template needs: cells, status and the AI's comment. Without `links`, a
    read-only board (a review) whose teach values are for whoever is to move. Moves go to
    `move_url`, or else to the game's own. Without `history` (a position reached in an
    order nobody played), no mark is ringed as the last move."""
    shown = game or BLANK
    mover = shown.to_move
    playable = shown.humans_turn if links else not shown.over
    move_url = move_url or url_for("play.move")
    link = f"{move_url}?game={game.token}&" if game else f"{move_url}?"
    values = ttt.scores(shown.board) if teach_on and playable else {}
    top = max(values.values(), key=rank) if values else None
    me, them = ("you", _opponent(shown)) if links else (mover, ttt.O if mover == ttt.X else ttt.X)
    line = shown.winning_line
    last = shown.moves[-1] if shown.moves and history else None
    cells = []
    for n, name in enumerate(CELL_NAMES):
        row, col = divmod(n, 3)
        mark = shown.board[row][col] or ""
        classes = "cell" + (f" mark-{mark.lower()}" if mark else "")
        classes += (" in-line" if n in line else "") + (" last" if n == last else "")
        if mark:
            cells.append(Cell(row, col, mark, classes, f"{name}: {mark}" + (", the last move" if n == last else "")))
            continue
        if not playable:
            cells.append(Cell(row, col, mark, classes, f"{name}, empty"))
            continue
        value = values.get((row, col))
        hint = in_words(value, me, them) if value else ""
        best = value == top
        said = f": {hint}" + ("; a best move" if best else "") if hint else ""
        if links:
            href = f"{link}n={shown.number}&row={row}&col={col}"  # tokens are URL-safe
            label = f"{name}, empty: place {mover}{said}"
            cells.append(Cell(row, col, mark, classes, label, href, value, hint, best, places=mover))
        else:
            cells.append(Cell(row, col, mark, classes, f"{name}, empty{said}", "", value, hint, best))
    state = status(shown)
    whose = "game over" if shown.over else "your turn" if links and shown.mode == "ai" else f"{mover} to move"
    return BoardView(
        rows=(tuple(cells[0:3]), tuple(cells[3:6]), tuple(cells[6:9])),
        classes="board" + (" teaching" if teach_on else "") + (" finished" if shown.over else ""),
        caption=f"Game board, {whose}",
        status=state,
        ai_says=ai_says(shown, teach_on),
        strike=strike(line),
    )


def _opponent(game: Game) -> str:
    """Who plays against the human to move: "AI", or the other friend's name or mark."""
    if game.mode == "ai":
        return "AI"
    other = ttt.O if game.to_move == ttt.X else ttt.X
    return game.names[SIDES.index(other)] or other


def status(game: Game) -> Status:
    """The line above the board: whose turn it is and the move just played, or the result."""
    if not game.moves:
        by = ""
    elif game.mode == "friend":
        by = f"{game.name(mark_of(game.number - 1))} played {cell_name(game.moves[-1])}"
    else:
        by = f"The AI played {cell_name(game.moves[-1])}" if mark_of(game.number - 1) == game.ai_side else ""
    if not game.over:
        if game.mode == "friend":
            turn = f"{game.name(game.to_move)} to move."
        else:
            turn = "Your turn." if by else f"Your turn: place {game.to_move}."
        return Status("playing", "", (f"{by}.", turn) if by else (turn,))
    result = game.outcome
    if game.mode == "friend":
        text = {"win": f"{game.name(ttt.X)} wins!", "loss": f"{game.name(ttt.O)} wins!", "draw": "It's a draw."}[result]
    elif result == "loss":
        text = f"{by} and won."
    else:
        text = "You won!" if result == "win" else f"{by}: it's a draw." if by else "It's a draw."
    return Status("over", game.winner or "", (text,), result)


def ai_says(game: Game, teach_on: bool) -> str | None:
    """After the AI moves, in teach mode: what it expects from here, in moves of its own."""
    if not (teach_on and game.ai_side and game.moves and not game.over and game.humans_turn):
        return None
    value = ttt.evaluate(game.board)  # for the human, who is to move
    if value.outcome == "loss":
        mine = value.plies // 2
        return "I win on my next move, whatever you play." if mine == 1 else f"I can force a win in {mine} of my moves."
    if value.outcome == "win":
        yours = (value.plies + 1) // 2
        return (
            "I slipped: you can win right now."
            if yours == 1
            else f"I slipped: you can force a win in {yours} of your moves."
        )
    return "Best play from here is a draw."


def strike(line: tuple[int, ...]) -> tuple[float, float, float, float] | None:
    """The line through the winning cells, from beyond the first cell's centre to beyond the
    last's, with the board 3 units wide."""
    if not line:
        return None
    (y1, x1), (y2, x2) = (divmod(line[0], 3), divmod(line[-1], 3))
    dx, dy = (x2 - x1) / 2, (y2 - y1) / 2
    reach = 0.35 / (dx * dx + dy * dy) ** 0.5
    return (x1 + 0.5 - dx * reach, y1 + 0.5 - dy * reach, x2 + 0.5 + dx * reach, y2 + 0.5 + dy * reach)


def position_view(
    text: str, teach_on: bool, links: dict[int, str] | None = None, action: str = "explore this move"
) -> BoardView:
    """The board of a position written as 9 characters row by row ("X", "O", "."), read-only
    but for the empty cells `links` maps to an address (the explorer's children), which a
    screen reader announces with `action`."""
    view = board_view(Game(token="", mode="friend", moves=moves_to(text)), teach_on, links=False, history=False)
    for cell in (cell for row in view.rows for cell in row):
        href = (links or {}).get(3 * cell.row + cell.col)
        if href and not cell.mark:
            cell.href, cell.label = href, cell.label.replace(", empty", f", empty: {action}", 1)
    return view


def moves_to(text: str) -> tuple[int, ...]:
    """One order of play that reaches a reachable position, none of it after the end."""
    if text == EMPTY_BOARD:
        return ()
    last = ttt.X if text.count("X") > text.count("O") else ttt.O
    for cell, mark in enumerate(text):
        before = text[:cell] + "." + text[cell + 1 :]
        if mark == last and before in reachable(EMPTY_BOARD) and not over(before):
            return (*moves_to(before), cell)
    raise ValueError(f"{text} is not reachable")


def ij(cell: str | int | tuple[int, int]) -> Markup:
    """The assignment's action (i, j) for a cell named "c1", numbered 0-8 or given as an
    action: i is the row from the top, j the column from the left, both from 0."""
    if isinstance(cell, str):
        i, j = int(cell[1]) - 1, "abc".index(cell[0])
    elif isinstance(cell, int):
        i, j = divmod(cell, 3)
    else:
        i, j = cell
    return Markup(f'<span class="ij">({i}, {j})</span>')
