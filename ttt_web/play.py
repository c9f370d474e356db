"""Playing: the game's page, moves, new games, undo, teach mode and the score. Every
request that changes the game names the game's token and, for moves and undo, the move
number it was shown; anything else gets a short message and changes nothing."""

from __future__ import annotations

import hmac
import random
from collections.abc import Callable

from flask import Blueprint, Response, redirect, render_template, request
from werkzeug.exceptions import MethodNotAllowed

from . import security, state
from . import tictactoe as ttt
from .board import BLANK, board_view
from .costs import position_of
from .game import (
    DEFAULTS,
    DIFFICULTIES,
    MODES,
    SIDES,
    Game,
    GameError,
    clean_name,
    format_moves,
    parse_moves,
    valid_name,
)
from .urls import url_for

bp = Blueprint("play", __name__)
rng = random.SystemRandom()

NOT_FROM_HERE = "A move can only be made by following its link on the game's own page. Nothing has changed."
PREFETCH_HEADERS = {"Sec-Purpose": "prefetch", "Purpose": "prefetch", "X-Moz": "prefetch", "X-Purpose": "preview"}


class Rejected(Exception):
    """A request that must not change the game: shown to the player with its status."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


class FormRejected(Rejected):
    """New-game choices that cannot start a game: said beside the form, the choices kept."""

    def __init__(self, message: str, choices: dict[str, str]) -> None:
        super().__init__(message, 400)
        self.choices = choices


@bp.errorhandler(Rejected)
def rejected(exc: Rejected):
    """A refused request (400, 403) is an error; a stale one (409) is only a note."""
    return page(message=exc.message, error=exc.status != 409), exc.status


@bp.errorhandler(FormRejected)
def form_rejected(exc: FormRejected):
    return page(form_error=exc.message, choices=exc.choices), exc.status


@bp.errorhandler(GameError)
def game_error(exc: GameError):
    return page(message=str(exc)), 409


@bp.get("/")
def index():
    start = request.args.get("from")
    moves = None if start is None else playable_position(start)
    if start is not None and moves is None:
        raise Rejected("There is no game to play on from that position.", 400)
    ref, number = request.args.get("g"), request.args.get("n", "")
    if ref is None:
        return page(start=moves)
    game = state.current_game()
    if game is None or ref != game.ref:
        return page(message="That board is from an earlier game. Here is your game now.")
    shown = int(number) if number.isascii() and number.isdigit() and len(number) <= 1 else game.number
    if shown > game.number:
        return page(message="Those moves were taken back. Here is the game now.")
    return page(past=shown if shown < game.number else None)


@bp.get("/move")
def move():
    number, cell = requested_move(Rejected)
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
    game = game.play(cell, rng)
    state.save(game)
    return back_to_board(game)


def requested_move(refuse: Callable[[str, int], Exception]) -> tuple[int, int]:
    """The move number and the cell (0-8) that a move link names. A link checker's HEAD, a
    prefetch, a request that another site's page made (an image, a frame, a link) or a
    malformed link must not play: `refuse(message, status)` is raised."""
    refuse_unless_followed(refuse)
    values = [request.args.get(name, "") for name in ("n", "row", "col")]
    if not all(value.isascii() and value.isdigit() and len(value) <= 3 for value in values):
        raise refuse("That move link is not valid.", 400)
    number, row, col = map(int, values)
    if not (0 <= row <= 2 and 0 <= col <= 2):
        raise refuse("There is no such cell on the board.", 400)
    return number, 3 * row + col


def refuse_unless_followed(refuse: Callable[[str, int], Exception]) -> None:
    """Refuse a move link that the player did not follow: a HEAD, a prefetch, or a request
    that another site's page (or a script, an image, a frame) made."""
    if request.method == "HEAD":
        raise MethodNotAllowed(["GET"], "A move is played by following its link.")
    if any(request.headers.get(h, "").lower().startswith(v) for h, v in PREFETCH_HEADERS.items()):
        raise refuse("Moves are not prefetched.", 403)
    if not security.own_navigation():
        raise refuse(NOT_FROM_HERE, 403)


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
        options["side"] = ttt.O if options["side"] == ttt.X else ttt.X
        names = names[::-1]
    start = starting_position(request.form.get("from"))
    check_form_token()
    old = state.current_game()
    if old is not None and old.lost and not old.scored:
        state.count(old, "loss")  # walking away from a lost game loses it
    game = Game.start(rng, moves=start, names=names, **options)
    state.save(game)
    return back_to_board(game)


def friends(options: dict[str, str]) -> tuple[str, str]:
    """The two players' names from the new-game form: both, or neither; only with a friend."""
    names = tuple(clean_name(request.form.get(field, "")) for field in ("name_x", "name_o"))
    if options["mode"] != "friend" or names == ("", ""):
        return ("", "")
    typed = {**options, "names": tuple(request.form.get(f, "")[:40] for f in ("name_x", "name_o"))}
    if not all(names) or not all(valid_name(name) for name in names):
        raise FormRejected(
            "Give both players a name of up to 12 letters, digits or spaces, or leave both empty.", typed
        )
    if names[0].casefold() == names[1].casefold():
        raise FormRejected("Give the two players different names.", typed)
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
    return back_to_board(state.undo(game))


@bp.post("/teach")
def teach():
    check_form_token()
    response = back_to_board(state.current_game())
    state.toggle_teach(response)
    return response


@bp.get("/score/reset")
def confirm_reset_score():
    """Resetting every score cannot be taken back: it asks first, on a page of its own."""
    game = state.current_game()
    return render_template("play/reset_score.html", token=game.token if game else "", scores=state.all_scores())


@bp.post("/score/reset")
def reset_score():
    check_form_token()
    state.reset_score()
    return back_to_board(state.current_game())


@bp.get("/robots.txt")
def robots():
    return Response("User-agent: *\nDisallow: /move\nDisallow: /room/\n", mimetype="text/plain")


@bp.get("/favicon.ico")
def favicon():
    return redirect(url_for("static", filename="favicon.svg"), 301)


def back_to_board(game: Game | None) -> Response:
    """See Other: the browser fetches the board with GET, so a reload repeats nothing."""
    return redirect(board_url(game), 303)


def board_url(game: Game | None) -> str:
    """The board's own address: it names the game and its move, so that Back shows the
    boards before, read-only; and it scrolls to the board."""
    if game is None:
        return url_for("play.index") + "#board"
    return f"{url_for('play.index')}?g={game.ref}&n={game.number}#board"


def check_token(game: Game, token: str | None) -> None:
    if not token or not hmac.compare_digest(token.encode(), game.token.encode()):
        raise Rejected("That link or button belongs to another game. Here is yours.", 403)


def check_form_token() -> None:
    """A form that changes anything must come from the page of the current game, if any."""
    game = state.current_game()
    if game is not None:
        check_token(game, request.form.get("game"))


def page(
    message: str | None = None,
    error: bool = False,
    start: tuple[int, ...] | None = None,
    past: int | None = None,
    form_error: str = "",
    choices: dict | None = None,
) -> str:
    """The game's page, with a note or an `error` message; `start`, a position to play on
    from, drawn instead of the game with a choice of who plays; `past`, an earlier move of
    the game to show read-only (the browser's Back); `form_error`, said beside the new-game
    form, which keeps the `choices` sent."""
    game = state.current_game()
    teaching = state.teach_on()
    start_game = Game(token="", mode="friend", moves=start) if start else None
    if start_game:
        view = board_view(start_game, False, links=False)
    elif past is not None:
        view = board_view(game.at(past), False, links=False)
    else:
        view = board_view(game, teaching)
    return render_template(
        "play/index.html",
        game=game,
        past=past,
        here=board_url(game) if past is not None else "",  # the way back from an earlier board
        token=game.token if game else "",
        options=choices or state.preferences(game),
        view=view,
        teach=teaching,
        message=message,
        error=error,
        form_error=form_error,
        score=state.score(game),
        history=game.history() if game else [],
        review=format_moves(game.moves) if game and game.moves else "",
        position=position_of((game or BLANK).board),
        start=format_moves(start) if start else "",
        start_game=start_game,
    )
