"""The game's page: the current game (or a position to play on from, or an earlier board of
the game), its score, its players and the new-game form, with a note or an error."""

from __future__ import annotations

from flask import render_template

from ..core.game import Game
from ..core.players import Players, review_query
from ..core.position import format_moves, position_of
from ..web import cookies, score, session_data
from ..web.board_view import BLANK, BoardView, board_view
from ..web.urls import url_for


def board_url(game: Game | None) -> str:
    """The board's own address: it names the game and its move, so that Back shows the
    boards before, read-only; and it scrolls to the board."""
    if game is None:
        return url_for("play.index") + "#board"
    return f"{url_for('play.index')}?g={game.ref}&n={game.number}#board"


def page(
    message: str | None = None,
    error: int = 0,
    start: tuple[int, ...] | None = None,
    past: int | None = None,
    form_error: str = "",
    choices: dict | None = None,
    error_field: str = "",
    start_side: str = "",
    start_level: str = "",
) -> str:
    """The game's page, with a note or a message of the `error` status (400...); `start`, a position to play on
    from, drawn instead of the game with a choice of who plays (`start_side` first and
    `start_level` checked, if chosen; else the side to move and the current level); `past`, an earlier move of
    the game to show read-only (the browser's Back); `form_error`, said beside the new-game
    form, which keeps the `choices` sent."""
    game = session_data.current_game()
    teaching = cookies.teach_on()
    start_game = Game.of_moves(start) if start else None
    options = choices or score.preferences(game)
    about = about_the_game(game)
    if start_game:  # the ticked level's score, which a game played on from here leaves as it is
        about["score"] = score.against_ai(start_level or options["difficulty"])
    return render_template(
        "play/index.html",
        **about,
        past=past,
        here=board_url(game) if past is not None else "",  # the way back from an earlier board
        options=options,
        view=shown_board(game, start_game, past, teaching),
        teach=teaching,
        message=message,
        error=error,
        form_error=form_error,
        error_field=error_field,
        start=format_moves(start) if start else "",
        start_game=start_game,
        start_side=start_side or (start_game.to_move if start_game else ""),
        start_level=start_level,
    )


def about_the_game(game: Game | None) -> dict:
    """What the page says of the current game, if any: its token, score, moves and players."""
    return {
        "game": game,
        "score": score.score(game),
        "token": game.token if game else "",
        "history": game.history() if game else [],
        "review": format_moves(game.moves) if game and game.number > game.given else "",
        "players": review_query(Players.of(game), game.given) if game else {},
        "position": position_of((game or BLANK).board),
    }


def shown_board(game: Game | None, start_game: Game | None, past: int | None, teaching: bool) -> BoardView:
    """The board the page draws: a position to play on, an earlier move of the game, or the game."""
    if start_game:
        return board_view(start_game, False, links=False)
    if past is not None and game is not None:
        return board_view(game.at(past), False, links=False)
    return board_view(game, teaching)
