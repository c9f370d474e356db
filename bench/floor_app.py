"""The ceiling for bench/load.py: the game's traffic with none of the app's work.

Same routes as the game, same page size, same response headers, and the same perfect AI
replies, so games last as long and the players send the same requests. But the board
travels in a plain cookie and the page is a format string: no session store, no lock,
no template, no checks. What it reaches, as a ratio to the bare app, is about the most
any version of the game on Flask and gunicorn could reach in this benchmark.
"""

import random

from flask import Flask, redirect, request

from ttt_web.core import tictactoe as ttt
from ttt_web.core.options import choose_move
from ttt_web.web.security import HEADERS

app = Flask(__name__)
EMPTY_BOARD = "." * 9
PAGE_BYTES = 5800  # the game's page with an empty board


@app.get("/")
def page():
    cells = request.cookies.get("board", EMPTY_BOARD)
    over = ttt.terminal(_board(cells))
    html = "".join(_cell(n, mark, over) for n, mark in enumerate(cells))
    html = f'<table>{html}</table><input type="hidden" name="game" value="token">'
    return html.ljust(PAGE_BYTES)


@app.get("/move")
def move():
    cells = list(request.cookies.get("board", EMPTY_BOARD))
    cells[3 * int(request.args["row"]) + int(request.args["col"])] = ttt.X
    board = _board(cells)
    if not ttt.terminal(board):
        i, j = choose_move(board, "impossible", random)
        cells[3 * i + j] = ttt.O
    return _to_board("".join(cells))


@app.post("/new")
def new_game():
    return _to_board(EMPTY_BOARD)


@app.after_request
def set_headers(response):
    response.headers.extend(HEADERS.items())
    response.headers["Cache-Control"] = "no-store"
    return response


def _to_board(cells: str):
    response = redirect("/", 303)
    response.set_cookie("board", cells)
    return response


def _board(cells) -> ttt.Board:
    return [[None if c == "." else c for c in cells[r : r + 3]] for r in (0, 3, 6)]


def _cell(n: int, mark: str, over: bool) -> str:
    if mark != ".":
        return f'<td data-mark="{mark}"></td>'
    if over:
        return '<td data-mark=""></td>'
    return f'<td data-mark=""><a href="/move?game=token&amp;v=0&amp;n=0&amp;row={n // 3}&amp;col={n % 3}"></a></td>'
