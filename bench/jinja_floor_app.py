"""A yardstick for bench/wrk.py: the game's own page template, rendered by Flask and Jinja
from a fixed game, with none of the game's work per request (no session, no lock, no
limit, no security headers). What a page of this content costs in Jinja alone: the same
page as the game's, its links built by the game's own url_for, but for the game's token
and moves."""

import tempfile

from flask import Blueprint, Flask, render_template

from ttt_web.app import create_app
from ttt_web.core.game import Game
from ttt_web.core.options import DEFAULTS
from ttt_web.core.players import Players
from ttt_web.web import board_view as board
from ttt_web.web import score, urls

game = Game(token="A" * 22, moves=(0, 4), **DEFAULTS)
folder = tempfile.mkdtemp(prefix="ttt-floor-")
game_app = create_app({"SECRET_KEY": "yardstick", "DATABASE": folder + "/ttt.sqlite3"})
play = Blueprint("play", __name__)  # the game page's endpoint, which the menu marks as the current page


@play.get("/")
def index():
    return render_template(
        "play/index.html",
        game=game,
        past=None,
        here="/?g=ref&n=2#board",
        token=game.token,
        options=score.preferences(game),
        view=VIEW,
        teach=False,
        message=None,
        score=[("wins", "Wins", 0), ("losses", "Losses", 0), ("draws", "Draws", 0)],
        history=game.history(),
        review="0-4",
        players=PLAYERS,
        position="X...O....",
        start="",
    )


def floor_app(name: str = "jinja_floor") -> Flask:
    """A Flask app of the game's own class that serves only this page."""
    app = game_app.__class__(name, template_folder=game_app.template_folder, static_folder=None)
    app.jinja_env.globals.update(game_app.jinja_env.globals)
    app.jinja_env.filters.update(game_app.jinja_env.filters)
    app.jinja_env.globals["url_for"] = urls.paths(game_app.url_map, "")  # what the game's pages call
    app.register_blueprint(play)
    return app


app = floor_app()
PLAYERS = Players.of(game).query()

with game_app.test_request_context("/"):
    VIEW = board.board_view(game, False)
