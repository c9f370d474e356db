"""A yardstick for bench/wrk.py's page: bench/jinja_floor_app.py's page (the game's own
template, rendered from a fixed game) read under the game's own session interface on the
game's own store (Redis if REDIS_URL, else SQLite in TTT_INSTANCE_DIR): every request reads
the player's session, as any page of a game kept on the server must. No game, limit,
security header or check. A page can do no better than this on its store."""

import os

from flask import session

from bench import jinja_floor_app
from ttt_web.app import configure
from ttt_web.web import sessions, stored_games

instance = os.environ.get("TTT_INSTANCE_DIR") or jinja_floor_app.folder
os.makedirs(instance, exist_ok=True)
app = jinja_floor_app.floor_app("page_floor")
configure(app.config, instance)
app.config["SECRET_KEY"] = "yardstick"
sessions.init_app(app)
floor_page = app.view_functions["play.index"]


def page():
    session.get("game")
    return floor_page()


app.view_functions["play.index"] = page


@app.get("/start")
def start():
    """A stored session holding the fixed game, for the page to read."""
    session["game"] = stored_games.encode(jinja_floor_app.game)
    return "started"
