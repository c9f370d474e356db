"""A yardstick for bench/wrk.py's move: only the parts of a move that no game can skip. Flask
with the game's own session interface on the game's own store (Redis if REDIS_URL, else
SQLite in TTT_INSTANCE_DIR): every move and undo reads the session with its version, changes
it, and writes it back by compare-and-set, then redirects as the game does. No game, limit,
security header or check. A move that reaches the goal (0.5 of bare's requests/s) can do no
better than this."""

import os
import tempfile

from flask import Flask, redirect, session

from ttt_web.app import configure
from ttt_web.web import sessions

instance = os.environ.get("TTT_INSTANCE_DIR") or tempfile.mkdtemp(prefix="ttt-session-floor-")
os.makedirs(instance, exist_ok=True)
app = Flask(__name__)
configure(app.config, instance)
app.config["SECRET_KEY"] = "yardstick"
sessions.init_app(app)


@app.get("/")
def page():
    return f"moves: {session.get('n', 0)}"


@app.get("/move")
def move():
    session["n"] = session.get("n", 0) + 1
    return redirect("/?n=1#board", 303)


@app.post("/undo")
def undo():
    session["n"] = session.get("n", 0) + 1
    return redirect("/?n=0#board", 303)
