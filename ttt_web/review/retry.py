"""Retry the mistakes of a reviewed game: each move that was not best, in turn, as the
position before it, where the student finds a better move and is graded at once (lichess's
"Learn from your mistakes"). Stateless like the review: every page is a link, the same for
every visitor."""

from __future__ import annotations

from flask import Blueprint, Response, abort, render_template, request

from ..core.game import Game
from ..core.judging import Judgement, judge
from ..core.players import Players
from ..core.position import action_name, action_of, cell_of, format_moves, position_of
from ..core.words import better_move, counted, outlook
from ..web.board_view import CELL_NAMES, BoardView, position_view
from ..web.caching import PUBLIC_FOR_A_DAY
from ..web.urls import url_for
from .views import judge_all, kept_query, players_asked, reviewed, to_retry

bp = Blueprint("retry", __name__, url_prefix="/review")


@bp.get("/<moves>/retry/<int:n>")
def mistake(moves: str, n: int):
    """The n-th move of the game that was not best (from 1), to find a better one for."""
    game, players = reviewed(moves), players_asked()
    cells, kept = game.moves, kept_query(players, game)
    plies = to_retry(cells, players, game.given)
    ply = _nth(plies, n, players)
    solved_before = _solved_before(len(plies))
    before = Game.of_moves(cells[: ply - 1])
    text = position_of(before.board)

    def here(**more: str) -> str:
        return url_for(
            "retry.mistake", moves=format_moves(cells), n=str(n), **kept, **solved_query(solved_before), **more
        )

    tried = _tried(text)
    graded = judge(before.board, action_of(tried)) if tried is not None else None
    solved = graded is not None and graded.verdict == "best"
    answer = request.args.get("show") == "answer"
    links = None if solved or answer else {cell: here(**{"try": str(cell)}) for cell in range(9) if text[cell] == "."}
    view = position_view(text, False, links=links, action=f"try {before.to_move} here")
    if graded is not None and tried is not None:
        view = draw_try(view, tried, before.to_move, solved)
    judged = judge_all(cells)[ply - 1]
    done = _solved_now(solved_before, n, solved)
    if answer:
        view = draw_answer(view, judged)
    page = render_template(
        "retry/retry.html",
        n=n,
        count=len(plies),
        ply=ply,
        given=game.given,
        mover=before.to_move,
        game=judged,
        graded=graded,
        solved=solved,
        view=view,
        answer=answer,
        here=here,
        review=lambda **more: url_for("review.game", moves=format_moves(cells), **kept, **more),
        other=lambda k: url_for("retry.mistake", moves=format_moves(cells), n=str(k), **kept, **solved_query(done)),
        all_solved=len(done) == len(plies),
        actor=players.actor(before.to_move),
        cell=action_name,
        outlook=lambda value, mark: outlook(value, *players.naming(mark)),
        better=better_move(judged.best, judged.played, before.to_move, players.naming(before.to_move)),
    )
    return Response(page, headers={"Cache-Control": PUBLIC_FOR_A_DAY})


def _nth(plies: list[int], n: int, players: Players) -> int:
    """The ply of the n-th move to retry; 404 if the game has no such one."""
    if not 1 <= n <= len(plies):
        yours = " of yours" if players.against_ai else ""
        abort(
            404,
            f"This game has {counted(len(plies), 'move')}{yours} to retry."
            if plies
            else f"Every move{yours} was best.",
        )
    return plies[n - 1]


def _solved_before(count: int) -> frozenset[int]:
    """The retries solved on the way here (?solved=1-3), carried from page to page, so that
    "Done" is said only when every one is; 400 if they are not retries of this game."""
    value = request.args.get("solved", "")
    numbers = value.split("-") if value else []
    if len(value) > 40 or not all(k.isdecimal() and 1 <= int(k) <= count for k in numbers):
        abort(400, f"The retries solved are given by number, 1 to {count}, as ?solved=1-2.")
    return frozenset(int(k) for k in numbers)


def _solved_now(before: frozenset[int], n: int, solved: bool) -> frozenset[int]:
    return before | {n} if solved else before


def solved_query(solved: frozenset[int] | set[int]) -> dict[str, str]:
    return {"solved": "-".join(map(str, sorted(solved)))} if solved else {}


def draw_try(view: BoardView, cell: int, mark: str, right: bool) -> BoardView:
    """The tried move on the board, said right or wrong there too."""
    row, col = action_of(cell)
    classes = view.rows[row][col].classes + f" mark-{mark.lower()} tried tried-{'right' if right else 'wrong'}"
    label = f"{CELL_NAMES[cell]}, your try: {mark}, {'right' if right else 'not this one'}"
    return view.with_cell(cell, mark=mark, href="", classes=classes, label=label)


def draw_answer(view: BoardView, judged: Judgement) -> BoardView:
    """The best moves starred on the board."""
    for row, col in judged.best_actions:
        n = cell_of((row, col))
        label = f"{CELL_NAMES[n]}, the answer: a best move"
        view = view.with_cell(n, classes=view.rows[row][col].classes + " answer", label=label)
    return view


def _tried(text: str) -> int | None:
    """The cell the student tried (?try=0-8), if any; 400 if it is not an empty cell."""
    value = request.args.get("try")
    if value is None:
        return None
    if not (len(value) == 1 and value in "012345678" and text[int(value)] == "."):
        abort(400, "A try names an empty cell, 0 to 8 row by row.")
    return int(value)
