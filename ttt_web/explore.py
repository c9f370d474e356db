"""Inside the AI's head: any position at a stable URL (/explore/X.O.X....), every legal move
with its exact value, the principal variation, the refutation of each worse move, and what
five versions of minimax cost to search it. The tree opens one link at a time. The pages
are the same for every visitor: no session, and cacheable."""

from __future__ import annotations

import functools

from flask import Blueprint, Flask, Response, abort, render_template

from . import tictactoe as ttt
from .board import position_view
from .bugs import BUGS, game, telling_position
from .costs import EMPTY_BOARD, board, children, costs, over, reachable, to_move
from .game import Game, action_name, format_moves
from .judging import judge, principal_variation
from .review import CACHE, outlook, result_text

bp = Blueprint("explore", __name__, url_prefix="/explore")


@bp.get("/")
def start():
    return position(EMPTY_BOARD)


@bp.get("/bugs")
def bugs_shown():
    """Three classic minimax bugs: each one's line of code, why it is wrong, the first
    position where it plays a worse move, and its games against the real engine."""
    shown = []
    for bug in BUGS:
        text, action = telling_position(bug.slug)
        judged = judge(board(text), action)
        played = {side: game(bug, side) for side in (ttt.X, ttt.O)}
        games = {side: format_moves(cells) for side, cells in played.items()}
        results = {side: result_text(Game(token="", mode="friend", moves=cells)) for side, cells in played.items()}
        shown.append((bug, text, judged, games, results))
    response = Response(render_template("explore/bugs.html", shown=shown, outlook=outlook, cell=action_name))
    response.headers["Cache-Control"] = CACHE
    return response


@bp.get("/<text>")
def position(text: str):
    if len(text) != 9 or set(text) - set("XO."):
        abort(400, "A position is 9 characters read row by row: X, O or a dot for an empty cell, like X...O....")
    if text not in reachable(EMPTY_BOARD):
        abort(404, "No game of tic-tac-toe reaches that position.")
    response = Response(
        render_template("explore/position.html", **explained(text), outlook=outlook, cell_of=action_name, teach=True)
    )
    response.headers["Cache-Control"] = CACHE
    return response


def warm(app: Flask) -> None:
    """Work out and render the empty board's page (the explorer's first) before the first
    visitor asks for it."""
    with app.test_request_context("/explore/"):
        start()


@functools.lru_cache(maxsize=6000)
def explained(text: str) -> dict:
    """All the page shows of a position, which is the same every time: computed once."""
    here = board(text)
    pairs = [] if over(text) else zip(sorted(ttt.actions(here)), children(text), strict=True)
    return {
        "position": text,
        "mover": to_move(text),
        "value": None if over(text) else ttt.evaluate(here),
        "moves": [(judge(here, action), action_name(action), child) for action, child in pairs],
        "line": [action_name(action) for action in principal_variation(here)],
        "costs": costs(text),
        "view": position_view(text, teach_on=True),
    }
