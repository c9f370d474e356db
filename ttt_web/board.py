"""The board as every page that draws one shows it: cells with their labels, links and
teach-mode values, the status line and the AI's comment. Plain slotted dataclasses, built
in Python, so that the template only prints them."""

from __future__ import annotations

from dataclasses import dataclass

from . import tictactoe as ttt
from .costs import EMPTY_BOARD, over, reachable
from .game import DEFAULTS, Game
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
    hint: str = ""  # in teach mode: the value in words, e.g. "win in 3"


@dataclass(slots=True)
class Status:
    state: str  # "playing" or "over"
    winner: str  # "X", "O" or ""
    text: str


@dataclass(slots=True)
class BoardView:
    rows: tuple[tuple[Cell, ...], ...]
    classes: str
    caption: str
    status: Status
    ai_says: str | None


CELL_NAMES = tuple(f"Row {n // 3 + 1}, column {n % 3 + 1}" for n in range(9))


def board_view(game: Game | None, teach_on: bool, links: bool = True) -> BoardView:
    """What the template needs: cells, status and the AI's comment. Without `links`, a
    read-only board (a review) whose teach values are for whoever is to move."""
    shown = game or BLANK
    mover = shown.to_move
    playable = shown.humans_turn if links else not shown.over
    move_url = url_for("play.move")
    link = f"{move_url}?game={game.token}&" if game else f"{move_url}?"
    values = ttt.scores(shown.board) if teach_on and playable else {}
    line = shown.winning_line
    last = shown.moves[-1] if shown.moves else None
    cells = []
    for n, name in enumerate(CELL_NAMES):
        row, col = divmod(n, 3)
        mark = shown.board[row][col] or ""
        classes = "cell" + (f" mark-{mark.lower()}" if mark else "")
        classes += (" in-line" if n in line else "") + (" last" if n == last else "")
        if mark:
            cell = Cell(row, col, mark, classes, f"{name}: {mark}")
        elif playable and links:
            value = values.get((row, col))
            hint = _hint(value) if value else ""
            label = f"{name}, empty: place {mover}" + (f": {hint}" if hint else "")
            href = f"{link}n={shown.number}&row={row}&col={col}"  # tokens are URL-safe
            cell = Cell(row, col, mark, classes, label, href, value, hint)
        elif playable:
            value = values.get((row, col))
            hint = _hint(value) if value else ""
            label = f"{name}, empty" + (f": for {mover}, {hint}" if hint else "")
            cell = Cell(row, col, mark, classes, label, "", value, hint)
        else:
            cell = Cell(row, col, mark, classes, f"{name}, empty")
        cells.append(cell)
    state = status(shown)
    whose = "your" if shown.mode == "ai" else f"{mover}'s"
    return BoardView(
        rows=(tuple(cells[0:3]), tuple(cells[3:6]), tuple(cells[6:9])),
        classes="board" + (" teaching" if teach_on else "") + (" finished" if state.state == "over" else ""),
        caption=f"Game board, {whose} {'turn' if state.state == 'playing' else 'game over'}",
        status=state,
        ai_says=ai_says(shown, teach_on),
    )


def _hint(value: ttt.MoveValue) -> str:
    """A move's value for the player who makes it: "win in 3", "draw" or "lose in 4"."""
    if value.outcome == "draw":
        return "draw"
    return f"{value.outcome.replace('loss', 'lose')} in {value.plies}"


def status(game: Game) -> Status:
    if not game.over:
        text = f"{game.to_move} to move." if game.mode == "friend" else f"Your turn: place {game.to_move}."
        return Status("playing", "", text)
    result = game.outcome
    if game.mode == "friend":
        text = {"win": "X wins!", "loss": "O wins!", "draw": "It's a draw."}[result]
    else:
        text = {"win": "You won!", "loss": "The AI won.", "draw": "It's a draw."}[result]
    return Status("over", game.winner or "", text)


def ai_says(game: Game, teach_on: bool) -> str | None:
    """After the AI moves, in teach mode: what it expects from here."""
    if not (teach_on and game.ai_side and game.moves and not game.over and game.humans_turn):
        return None
    value = ttt.evaluate(game.board)  # for the human, who is to move
    if value.outcome == "loss":
        return f"I can force a win in {value.plies} moves."
    if value.outcome == "win":
        return f"I slipped: you can force a win in {value.plies} moves."
    return "Best play from here is a draw."


def position_view(text: str, teach_on: bool) -> BoardView:
    """A read-only board of a position written as 9 characters row by row ("X", "O", ".")."""
    return board_view(Game(token="", mode="friend", moves=moves_to(text)), teach_on, links=False)


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
