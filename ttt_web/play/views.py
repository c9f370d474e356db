"""Playing: the game's page, moves, new games, undo, teach mode and the score. Every
request that changes the game names the game's token and, for moves and undo, the move
number and the game's version it was shown (every move and undo counts one more, so a
link from a board the game has left is out of date even at the same move number);
anything else gets a short message and changes nothing."""

from __future__ import annotations

import hmac
import random

from flask import Blueprint, Response, redirect, render_template, request
from werkzeug.wrappers import Response as BaseResponse

from ..core import tictactoe as ttt
from ..core.game import Game, GameError
from ..core.options import DEFAULTS, DIFFICULTIES, MODES, clean_name, name_problem
from ..core.position import SIDES, other, parse_moves
from ..web import cookies, score, session_data
from ..web.moves import requested_move
from ..web.urls import url_for
from .page import board_url, page

bp = Blueprint("play", __name__)
rng = random.SystemRandom()


class Rejected(Exception):
    """A request that must not change the game: shown to the player with its status."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class FormRejected(Rejected):
    """New-game choices that cannot start a game: said beside the form, the choices kept."""

    def __init__(self, message: str, choices: dict[str, object], field: str = "") -> None:
        super().__init__(message, 400)
        self.choices = choices
        self.field = field  # the form field the message is about, if one


@bp.errorhandler(Rejected)
def rejected(exc: Rejected):
    """A refused request (400, 403) is an error; a stale one (409) is only a note."""
    return page(message=exc.message, error=exc.status if exc.status != 409 else 0), exc.status


@bp.errorhandler(FormRejected)
def form_rejected(exc: FormRejected):
    return page(form_error=exc.message, choices=exc.choices, error_field=exc.field, error=exc.status), exc.status


@bp.errorhandler(GameError)
def game_error(exc: GameError):
    return page(message=str(exc)), 409


@bp.get("/")
def index():
    if not request.environ.get("QUERY_STRING"):  # the game's own address: nothing to read in it
        return page()
    moves, ref = requested_start(), request.args.get("g")
    if ref is None:
        return page(start=moves, **start_choices()) if moves else page()
    game = session_data.current_game()
    if game is None or ref != game.ref:
        return page(message="That board is from an earlier game. Here is your game now.")
    return past_page(game, request.args.get("n", ""))


def requested_start() -> tuple[int, ...] | None:
    """The moves to the position a link asks to play on from, or None for none; 400 if the
    link names no such position."""
    start = request.args.get("from")
    moves = None if start is None else playable_position(start)
    if start is not None and moves is None:
        raise Rejected("There is no game to play on from that position.", 400)
    return moves


def start_choices() -> dict:
    """The side and level that a review of a game against the AI chooses for playing on from
    its position (?you=X&ai=impossible), if it names them; 400 if it names them wrongly."""
    you, ai = request.args.get("you"), request.args.get("ai")
    if you is None and ai is None:
        return {}
    if you not in SIDES or ai not in DIFFICULTIES:
        raise Rejected(
            "A position to play on from names your side and the AI's level as a review does: ?you=X&ai=easy.", 400
        )
    return {"start_side": you, "start_level": ai}


def past_page(game: Game, number: str) -> str:
    """The game as it was after move `number` (the Back button's board), or as it is now."""
    shown = int(number) if number.isascii() and number.isdigit() and len(number) <= 1 else game.number
    if shown > game.number:
        return page(message="Those moves were taken back. Here is the game now.")
    return page(past=shown if shown < game.number else None)


@bp.get("/move")
def move():
    number, cell = requested_move(Rejected)
    game, token = session_data.current_game(), request.args.get("game")
    if game is None:
        if token or number != 0:
            raise Rejected("That link is not from your game. Here is a fresh board.", 403)
        game = Game.start(rng)  # of the DEFAULTS options
    else:
        if token:  # links shown before the game began carry no token: they are merely stale
            check_token(game, token)
        if not token or number != game.number or request.args.get("v") != str(game.version):
            raise Rejected("That link is out of date: the board has changed since. Here it is now.")
    game = game.play(cell, rng)
    session_data.save(game)
    return back_to_board(game)


@bp.post("/new")
def new_game():
    options = {}
    for name, allowed in (("side", SIDES), ("difficulty", DIFFICULTIES), ("mode", MODES)):
        value = request.form.get(name, DEFAULTS[name])
        if value not in allowed:
            raise Rejected("Those game options are not on offer.", 400)
        options[name] = value
    names = friends(options)
    if request.form.get("swap") == "1":  # play again, the other one starting
        options["side"] = other(options["side"])
        names = names[::-1]
    start = starting_position(request.form.get("from"))
    check_form_token()
    old = session_data.current_game()
    if old is not None and old.lost and not old.scored:
        session_data.leave_lost(old)  # walking away from a lost game loses it
    game = Game.start(rng, moves=start, names=names, **options)
    session_data.save(game)
    return back_to_board(game)


def friends(options: dict[str, str]) -> tuple[str, str]:
    """The two players' names from the new-game form, each optional; only with a friend. A
    refusal names the field it is about, and keeps what was typed."""
    fields = ("name_x", "name_o")
    names = (clean_name(request.form.get(fields[0], "")), clean_name(request.form.get(fields[1], "")))
    if options["mode"] != "friend" or names == ("", ""):
        return ("", "")
    typed: dict[str, object] = {**options, "names": tuple(request.form.get(f, "")[:40] for f in fields)}
    for field, name in zip(fields, names, strict=True):
        if name_problem(name):
            raise FormRejected(name_problem(name), typed, field)
    if names[0].casefold() == names[1].casefold():
        raise FormRejected("Give the two players different names.", typed, "name_o")
    return names


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
        if moves is not None and not Game.of_moves(moves).over:
            return moves
    except (GameError, ttt.InvalidMoveError):
        pass
    return None


@bp.post("/undo")
def undo():
    game = session_data.current_game()
    if game is None:
        raise Rejected("There is no game to undo.")
    check_token(game, request.form.get("game"))
    if request.form.get("n") != str(game.number) or request.form.get("v") != str(game.version):
        raise Rejected("That undo button is out of date: the board has changed since. Here it is now.")
    return back_to_board(session_data.undo(game))


@bp.post("/teach")
def teach():
    check_form_token()
    response = back_to_board(session_data.current_game())
    cookies.toggle_teach(response)
    return response


@bp.get("/score/reset")
def confirm_reset_score():
    """Resetting every score cannot be taken back: it asks first, on a page of its own."""
    game = session_data.current_game()
    return render_template("play/reset_score.html", token=game.token if game else "", scores=score.all_scores())


@bp.post("/score/reset")
def reset_score():
    check_form_token()
    score.reset_score()
    return back_to_board(session_data.current_game())


@bp.get("/robots.txt")
def robots():
    return Response("User-agent: *\nDisallow: /move\nDisallow: /room/\n", mimetype="text/plain")


@bp.get("/favicon.ico")
def favicon():
    return redirect(url_for("static", filename="favicon.svg"), 301)


def back_to_board(game: Game | None) -> BaseResponse:
    """See Other: the browser fetches the board with GET, so a reload repeats nothing."""
    return redirect(board_url(game), 303)


def check_token(game: Game, token: str | None) -> None:
    if not token or not hmac.compare_digest(token.encode(), game.token.encode()):
        raise Rejected("That link or button is from an earlier game. Here is your game now.", 403)


def check_form_token() -> None:
    """A form that changes anything must come from the page of the current game, if any."""
    game = session_data.current_game()
    if game is not None:
        check_token(game, request.form.get("game"))
