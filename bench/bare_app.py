"""The yardstick for bench/load.py: a bare Flask app, served the same way, with the same
routes a player uses (a page with nine links; a move, a new game and an undo that
redirect back)."""

from flask import Flask, redirect

app = Flask(__name__)
PAGE = "".join(f'<a href="/move?n=0&amp;row={n // 3}&amp;col={n % 3}">cell</a>' for n in range(9))


@app.get("/")
def page():
    return PAGE


@app.get("/move")
def move():
    return redirect("/", 303)


@app.post("/new")
def new():
    return redirect("/", 303)


@app.post("/undo")
def undo():
    return redirect("/", 303)
