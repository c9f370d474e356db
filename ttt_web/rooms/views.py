"""Rooms: play a friend on another device through a link. The room's game lives in the shared
store (rooms.store); each player's session keeps only the key to its seat. With JavaScript, a
room's page follows the room's event stream (rooms.stream) and never reloads by itself;
without it, a player who waits gets a page that reloads itself (a meta refresh, which the
player can turn off), and a page with a form to fill never does.

Here: the room's page, its moves and rematches, and what every room view answers with; the
seats (inviting, joining, resigning, leaving) are rooms.seats."""

from __future__ import annotations

import hmac
from collections.abc import Callable

from flask import Blueprint, current_app, redirect, render_template, request
from werkzeug.exceptions import Gone, HTTPException, NotFound

from ..core.room import Room, RoomError
from ..core.room_record import issued
from ..rooms import page as roompage
from ..rooms import stream as roomstream
from ..web import cookies, session_data
from ..web.errors import error_title, http_error
from ..web.moves import requested_move
from ..web.urls import url_for
from .store import rooms

bp = Blueprint("rooms", __name__, url_prefix="/room")

CLOSED = "This room has closed: rooms close when both players have left, or after a day with no move."
NO_SUCH_ROOM = "There is no such room: check the link you were sent, or invite a friend from a game of your own."


@bp.errorhandler(RoomError)
def refused(exc: RoomError):
    """The room as it is now, with the reason; the invitation form has no room to show."""
    room, version = rooms().read((request.view_args or {}).get("room_id", ""))
    if room is None:  # an error handler answers; an exception raised here would be a 500
        return http_error(missing((request.view_args or {}).get("room_id", "")))
    return page(room, version, message=str(exc), error=exc.status), exc.status


@bp.get("/<room_id>")
def room(room_id: str):
    found, version = rooms().read(room_id)
    if found is None:
        raise missing(room_id)
    return page(found, version)


@bp.get("/<room_id>/events")
def events(room_id: str):
    return roomstream.response(room_id, session_data.seat_key(room_id))


@bp.get("/<room_id>/move")
def move(room_id: str):
    """A move is a link (a GET, so that the board works without JavaScript); one that another
    site's page made the browser follow is refused (requested_move), whatever it carries."""
    number, cell = requested_move(RoomError)
    token = request.args.get("game", "")
    return act(room_id, lambda room, who: room.play(who, cell, number, token))


@bp.post("/<room_id>/rematch")
def rematch(room_id: str):
    """Offer the next round, or accept the other player's offer."""
    return act(room_id, lambda room, who: room.rematch(who, request.form.get("game", "")))


@bp.post("/<room_id>/decline")
def decline(room_id: str):
    return act(room_id, lambda room, who: room.decline(who, request.form.get("game", "")))


@bp.post("/<room_id>/refresh")
def auto_refresh(room_id: str):
    """Turn the waiting page's own refresh off or on (WCAG 2.2.1: a time limit the user
    can turn off). A browser preference: it stores nothing on the server."""
    response = to_room(room_id)
    cookies.toggle_auto_refresh(response)
    return response


def act(room_id: str, action: Callable[[Room, int | None], Room]):
    """Change the room as the player this session seats (or None)."""
    key = session_data.seat_key(room_id)

    def change(room: Room | None) -> Room:
        found = existing(room, room_id)
        who = found.seat_of(key)
        remember(found, who)  # a round over, before the next one starts
        return action(found, who)

    now = rooms().update(room_id, change)
    if now is not None:
        remember(now, now.seat_of(key))  # the round this ended (its last move), as written
    return to_room(room_id)


def remember(room: Room, who: int | None) -> None:
    """A round over, in the list of games of the player `who` played it."""
    if who is not None and room.over and room.moves:
        winner = room.winner()
        outcome = "draw" if winner is None else "win" if winner == who else "loss"
        session_data.remember_round(roompage.round_game(room), room.mark(who), outcome, room.resigned is not None)


def seated_in(room_id: str) -> tuple[Room, int]:
    """The room and this session's seat in it; refused for anyone without one."""
    room = existing(rooms().get(room_id), room_id)
    who = room.seat_of(session_data.seat_key(room_id))
    if who is None:
        raise RoomError("You have no seat in this room.", 403)
    return room, who


def existing(room: Room | None, room_id: str) -> Room:
    if room is None:
        raise missing(room_id)
    return room


def missing(room_id: str) -> HTTPException:
    """Why room `room_id` is not there: it has closed (410), or this site never made it (404)."""
    return Gone(CLOSED) if issued(room_id, id_secret()) else NotFound(NO_SUCH_ROOM)


def id_secret() -> bytes:
    """The key that signs room ids: derived from the app's secret key, for this use only."""
    secret = current_app.secret_key
    if not secret:  # create_app always sets one
        raise RuntimeError("rooms sign their ids with the app's SECRET_KEY, and it has none")
    secret = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(secret, b"ttt room ids", "sha256").digest()


def to_room(room_id: str):
    """See Other, to the room's page: a reload repeats nothing. No #board here: a browser
    does not reload a page whose address has a fragment when its meta refresh fires."""
    return redirect(url_for("rooms.room", room_id=room_id), 303)


def page(room: Room, version: int, message: str | None = None, error: int = 0, **form) -> str:
    """The room's page; with the status `error`, titled by the error that `message` (or the
    form's `join_error`) says, as every error page is. It changes nothing: a round the other
    player ended is kept in this player's games at their next step in the room (act)."""
    you = room.seat_of(session_data.seat_key(room.id))
    values = roompage.context(room, version, you).values()
    if error:
        values["title"] = error_title(message or form.get("join_error", ""), error)
    refresh = roompage.REFRESH_SECONDS if values["waiting"] and cookies.auto_refresh_on() else None
    return render_template("rooms/room.html", **values, refresh=refresh, message=message, **form)
