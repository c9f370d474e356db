"""The game's pages. Every request that changes the game names the game's token and, for
moves and undo, the move number it was shown; anything else gets a short message and
changes nothing."""

from __future__ import annotations

import functools
import hmac
import random
from dataclasses import dataclass, replace

from flask import (
    Blueprint,
    Response,
    current_app,
    redirect,
    render_template,
    request,
    session,
)
from werkzeug.exceptions import MethodNotAllowed
from werkzeug.routing import Map

from . import tictactoe as ttt
from .game import DEFAULTS, DIFFICULTIES, MODES, SIDES, Game, GameError

bp = Blueprint("game", __name__)
rng = random.SystemRandom()

BLANK = Game(token="", **DEFAULTS)  # what a visitor with no game yet is shown
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
    return page()


@bp.get("/move")
def move():
    if request.method == "HEAD":  # a link checker or preview must not play the move
        raise MethodNotAllowed(["GET"], "A move is played by following its link.")
    if any(request.headers.get(h, "").lower().startswith(v) for h, v in PREFETCH_HEADERS.items()):
        raise Rejected("Moves are not prefetched.", 403)
    number, row, col = (_int_arg(name) for name in ("n", "row", "col"))
    if not (0 <= row <= 2 and 0 <= col <= 2):
        raise Rejected("There is no such cell on the board.", 400)
    game, token = current_game(), request.args.get("game")
    if game is None:
        if token or number != 0:
            raise Rejected("That link is not from your game. Here is a fresh board.", 403)
        game = Game.start(rng, **DEFAULTS)
    else:
        if token:  # links shown before the game began carry no token: they are merely stale
            check_token(game, token)
        if not token or number != game.number:
            raise Rejected("That link is out of date: the board has changed since. Here it is now.")
    save(game.play(3 * row + col, rng))
    return back_to_board()


@bp.post("/new")
def new_game():
    options = {}
    for name, allowed in (("side", SIDES), ("difficulty", DIFFICULTIES), ("mode", MODES)):
        value = request.form.get(name, DEFAULTS[name])
        if value not in allowed:
            raise Rejected("Those game options are not on offer.", 400)
        options[name] = value
    check_form_token()
    current_app.session_interface.regenerate(session)
    save(Game.start(rng, **options))
    return back_to_board()


@bp.post("/undo")
def undo():
    game = current_game()
    if game is None:
        raise Rejected("There is no game to undo.")
    check_token(game, request.form.get("game"))
    if request.form.get("n") != str(game.number):
        raise Rejected("That undo button is out of date: the board has changed since. Here it is now.")
    save(game.undo())
    return back_to_board()


@bp.post("/teach")
def teach():
    """Teach mode is a preference of the browser's, kept in a cookie of its own: turning it
    on stores nothing on the server."""
    check_form_token()
    response = back_to_board()
    name = current_app.config["TEACH_COOKIE_NAME"]
    options = {"secure": current_app.config["HTTPS"], "httponly": True, "samesite": "Lax"}
    if teach_on():
        response.delete_cookie(name, **options)
    else:
        response.set_cookie(name, "1", max_age=current_app.permanent_session_lifetime, **options)
    return response


@bp.post("/score/reset")
def reset_score():
    check_form_token()
    session.pop("score", None)  # with no score to reset, nothing is stored
    return back_to_board()


@bp.get("/robots.txt")
def robots():
    return Response("User-agent: *\nDisallow: /move\n", mimetype="text/plain")


@bp.get("/favicon.ico")
def favicon():
    return redirect(cached_url_for("static", filename="favicon.svg"), 301)


def back_to_board() -> Response:
    """See Other: the browser fetches the board with GET, so a reload repeats nothing."""
    return redirect(cached_url_for("game.index"), 303)


@bp.app_template_global("url_for")
def cached_url_for(endpoint: str, **values: str) -> str:
    """The path of an endpoint, remembered: the site's links are the same on every request
    that comes in under the same script root. Built without the request's Host header, so
    that the error page for a malformed Host can still link home."""
    return _cached_url(current_app.url_map, request.script_root, endpoint, tuple(sorted(values.items())))


@functools.lru_cache(maxsize=128)
def _cached_url(url_map: Map, root: str, endpoint: str, values: tuple) -> str:
    return url_map.bind("localhost", script_name=root or "/").build(endpoint, dict(values))


# Session access: the game and score are written back whole, never changed in place.


def current_game() -> Game | None:
    return Game.from_data(session.get("game"))


def preferences(game: Game | None) -> dict[str, str]:
    if game is None:
        return dict(DEFAULTS)
    return {"side": game.side, "difficulty": game.difficulty, "mode": game.mode}


def save(game: Game) -> None:
    if game.over and not game.scored:
        game = replace(game, scored=True)
        score = dict(session.get("score") or {})
        key = score_key(game)
        tally = list(_tally(score.get(key)))
        tally[{"win": 0, "loss": 1, "draw": 2}[outcome(game)]] += 1
        score[key] = tally
        session["score"] = score
    session["game"] = game.to_data()


def check_token(game: Game, token: str | None) -> None:
    if not token or not hmac.compare_digest(token.encode(), game.token.encode()):
        raise Rejected("That link or button belongs to another game. Here is yours.", 403)


def check_form_token() -> None:
    """A form that changes anything must come from the page of the current game, if any."""
    game = current_game()
    if game is not None:
        check_token(game, request.form.get("game"))


def _int_arg(name: str) -> int:
    value = request.args.get(name, "")
    if not (value.isascii() and value.isdigit() and len(value) <= 3):
        raise Rejected("That move link is not valid.", 400)
    return int(value)


def _tally(value: object) -> tuple[int, int, int]:
    if isinstance(value, list) and len(value) == 3 and all(type(n) is int and n >= 0 for n in value):
        return tuple(value)
    return (0, 0, 0)


def score_key(game: Game) -> str:
    return f"ai-{game.difficulty}" if game.mode == "ai" else "friend"


def outcome(game: Game) -> str:
    """ "win", "loss" or "draw": the human's, in AI mode; X's, in friend mode."""
    if game.winner is None:
        return "draw"
    first = game.side if game.mode == "ai" else ttt.X
    return "win" if game.winner == first else "loss"


# The page.


def teach_on() -> bool:
    return request.cookies.get(current_app.config["TEACH_COOKIE_NAME"]) == "1"


def page(message: str | None = None) -> str:
    game = current_game()
    teaching = teach_on()
    view = board_view(game, teaching)
    wins, losses, draws = _tally((session.get("score") or {}).get(score_key(game or BLANK)))
    return render_template(
        "index.html",
        game=game,
        token=game.token if game else "",
        options=preferences(game),
        view=view,
        teach=teaching,
        message=message,
        score={"wins": wins, "losses": losses, "draws": draws},
        history=game.history() if game else [],
    )


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


def board_view(game: Game | None, teach_on: bool) -> BoardView:
    """What the template needs: cells, status and the AI's comment."""
    shown = game or BLANK
    mover = shown.to_move
    playable = shown.humans_turn
    move_url = cached_url_for("game.move")
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
        elif playable:
            value = values.get((row, col))
            hint = _hint(value) if value else ""
            label = f"{name}, empty: place {mover}" + (f": {hint}" if hint else "")
            href = f"{link}n={shown.number}&row={row}&col={col}"  # tokens are URL-safe
            cell = Cell(row, col, mark, classes, label, href, value, hint)
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
    result = outcome(game)
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
