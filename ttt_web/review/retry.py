"""Retry the mistakes of a reviewed game: each move that was not best, in turn, as the
position before it, where the student finds a better move and is graded at once (lichess's
"Learn from your mistakes"). Stateless like the review: every page is a link, the same for
every visitor."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from ..core.game import Game, format_moves
from ..core.judging import judge
from ..core.position import action_name, action_of, position_of
from ..core.words import outlook
from ..web.board_view import position_view
from ..web.caching import PUBLIC_FOR_A_DAY
from ..web.urls import url_for
from .views import judge_all, reviewed, to_retry

bp = Blueprint("retry", __name__, url_prefix="/review")


@bp.get("/<moves>/retry/<int:n>")
def mistake(moves: str, n: int):
    """The n-th move of the game that was not best (from 1), to find a better one for."""
    cells = reviewed(moves).moves
    plies = to_retry(cells)
    if not 1 <= n <= len(plies):
        abort(404, f"This game has {len(plies)} moves to retry." if plies else "Every move of this game was best.")
    ply = plies[n - 1]
    before = Game.of_moves(cells[: ply - 1])
    text = position_of(before.board)
    here = url_for("retry.mistake", moves=format_moves(cells), n=str(n))
    links = {cell: f"{here}?try={cell}" for cell in range(9) if text[cell] == "."}
    tried = _tried(text)
    graded = judge(before.board, action_of(tried)) if tried is not None else None
    solved = graded is not None and graded.verdict == "best"
    page = render_template(
        "retry/retry.html",
        n=n,
        count=len(plies),
        ply=ply,
        mover=before.to_move,
        game=judge_all(cells)[ply - 1],
        graded=graded,
        solved=solved,
        view=position_view(text, False, links=None if solved else links, action=f"try {before.to_move} here"),
        review=url_for("review.game", moves=format_moves(cells)),
        moves=format_moves(cells),
        cell=action_name,
        outlook=outlook,
    )
    return Response(page, headers={"Cache-Control": PUBLIC_FOR_A_DAY})


def _tried(text: str) -> int | None:
    """The cell the student tried (?try=0-8), if any; 400 if it is not an empty cell."""
    value = request.args.get("try")
    if value is None:
        return None
    if not (len(value) == 1 and value in "012345678" and text[int(value)] == "."):
        abort(400, "A try names an empty cell, 0 to 8 row by row.")
    return int(value)
