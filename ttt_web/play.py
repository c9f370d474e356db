"""Playing: the game's page, moves, new games, undo, teach mode and the score. Every
request that changes the game names the game's token and, for moves and undo, the move
number it was shown; anything else gets a short message and changes nothing."""

from __future__ import annotations

import hmac
import random

from flask import Blueprint, Response, current_app, redirect, render_template, request, session
from werkzeug.exceptions import MethodNotAllowed

from . import state
from . import tictactoe as ttt
from .board import BLANK, board_view
from .costs import position_of
from .game import DEFAULTS, DIFFICULTIES, MODES, SIDES, Game, GameError, format_moves, parse_moves
from .urls import url_for

bp = Blueprint("play", __name__)
rng = random.SystemRandom()

PREFETCH_HEADERS = {"Sec-Purpose": "prefetch", "Purpose": "prefetch", "X-Moz": "prefetch", "X-Purpose": "preview"}


class Rejected(Exception):
    """A request that must not change the game: shown to the player with its status."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@bp.errorhandler(Rejected)
def rejected(exc: Rejected):
    return page(message=exc.message), exc.status


@bp.errorhandler(GameError)
def game_error(exc: GameError):
    return page(message=str(exc)), 409


@bp.get("/")
def index():
    start = request.args.get("from")
    moves = None if start is None else playable_position(start)
    if start is not None and moves is None:
        raise Rejected("There is no game to play on from that position.", 400)
    return page(start=moves)


@bp.get("/move")
def move():
    if request.method == "HEAD":  # a link checker or preview must not play the move
        raise MethodNotAllowed(["GET"], "A move is played by following its link.")
    if any(request.headers.get(h, "").lower().startswith(v) for h, v in PREFETCH_HEADERS.items()):
        raise Rejected("Moves are not prefetched.", 403)
    number, row, col = (_int_arg(name) for name in ("n", "row", "col"))
    if not (0 <= row <= 2 and 0 <= col <= 2):
        raise Rejected("There is no such cell on the board.", 400)
    game, token = state.current_game(), request.args.get("game")
    if game is None:
        if token or number != 0:
            raise Rejected("That link is not from your game. Here is a fresh board.", 403)
        game = Game.start(rng, **DEFAULTS)
    else:
        if token:  # links shown before the game began carry no token: they are merely stale
            check_token(game, token)
        if not token or number != game.number:
            raise Rejected("That link is out of date: the board has changed since. Here it is now.")
    state.save(game.play(3 * row + col, rng))
    return back_to_board()


@bp.post("/new")
def new_game():
    options = {}
    for name, allowed in (("side", SIDES), ("difficulty", DIFFICULTIES), ("mode", MODES)):
        value = request.form.get(name, DEFAULTS[name])
        if value not in allowed:
            raise Rejected("Those game options are not on offer.", 400)
        options[name] = value
    start = starting_position(request.form.get("from"))
    check_form_token()
    current_app.session_interface.regenerate(session)
    state.save(Game.start(rng, moves=start, **options))
    return back_to_board()


def starting_position(text: str | None) -> tuple[int, ...]:
    """The position a new game starts from: () for the empty board, else the moves of a
    position to play on from (a review's "play on from this position")."""
    if not text:
        return ()
    moves = playable_position(text)
    if moves is None:
        raise Rejected("There is no game to play on from that position.", 400)
    return moves


def playable_position(text: str) -> tuple[int, ...] | None:
    """The moves written in `text` if they are legal and the game is not over, else None."""
    moves = parse_moves(text)
    try:
        if moves is not None and not Game(token="", mode="friend", moves=moves).over:
            return moves
    except (GameError, ttt.InvalidMoveError):
        pass
    return None


@bp.post("/undo")
def undo():
    game = state.current_game()
    if game is None:
        raise Rejected("There is no game to undo.")
    check_token(game, request.form.get("game"))
    if request.form.get("n") != str(game.number):
        raise Rejected("That undo button is out of date: the board has changed since. Here it is now.")
    state.save(game.undo())
    return back_to_board()


@bp.post("/teach")
def teach():
    check_form_token()
    response = back_to_board()
    state.toggle_teach(response)
    return response


@bp.post("/score/reset")
def reset_score():
    check_form_token()
    state.reset_score()
    return back_to_board()


@bp.get("/robots.txt")
def robots():
    return Response("User-agent: *\nDisallow: /move\n", mimetype="text/plain")


@bp.get("/favicon.ico")
def favicon():
    return redirect(url_for("static", filename="favicon.svg"), 301)


def back_to_board() -> Response:
    """See Other: the browser fetches the board with GET, so a reload repeats nothing."""
    return redirect(url_for("play.index"), 303)


def check_token(game: Game, token: str | None) -> None:
    if not token or not hmac.compare_digest(token.encode(), game.token.encode()):
        raise Rejected("That link or button belongs to another game. Here is yours.", 403)


def check_form_token() -> None:
    """A form that changes anything must come from the page of the current game, if any."""
    game = state.current_game()
    if game is not None:
        check_token(game, request.form.get("game"))


def _int_arg(name: str) -> int:
    value = request.args.get(name, "")
    if not (value.isascii() and value.isdigit() and len(value) <= 3):
        raise Rejected("That move link is not valid.", 400)
    return int(value)


def page(message: str | None = None, start: tuple[int, ...] | None = None) -> str:
    """The game's page; `start`, a position the new-game form offers to play on from."""
    game = state.current_game()
    teaching = state.teach_on()
    return render_template(
        "play/index.html",
        game=game,
        token=game.token if game else "",
        options=state.preferences(game),
        view=board_view(game, teaching),
        teach=teaching,
        message=message,
        score=state.score(game),
        history=game.history() if game else [],
        review=format_moves(game.moves) if game and game.moves else "",
        position=position_of((game or BLANK).board),
        start=format_moves(start) if start else "",
    )
