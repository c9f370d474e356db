"""A room's seats: inviting a friend (a new room, its maker seated), taking the free seat,
resigning a game and leaving the room, the last two asked first. Each player's session keeps
the key to its seat (web.session_data); the room, a hash of it. The room's page, its moves and
rematches are rooms.views, whose error handler answers here too."""

from __future__ import annotations

import hmac
from typing import TypeGuard

from flask import Blueprint, redirect, render_template, request
from werkzeug.exceptions import Forbidden

from ..core.options import clean_name
from ..core.room import Room, RoomError
from ..core.room_record import new_key
from ..rooms import page as roompage
from ..web import session_data
from ..web.limits import ROOM_MESSAGE, own_limit
from ..web.urls import public_base, url_for
from .store import Change, rooms
from .views import act, existing, id_secret, missing, page, refused, remember, seated_in, to_room

bp = Blueprint("seats", __name__, url_prefix="/room")
bp.register_error_handler(RoomError, refused)


@bp.post("/new")
@own_limit("NEW_ROOM_LIMIT", ROOM_MESSAGE)
def invite():
    game = session_data.current_game()
    if game is not None and not hmac.compare_digest(request.form.get("game", "").encode(), game.token.encode()):
        raise Forbidden("That button is from an earlier game.")
    key, base, typed = new_key(), public_base(), request.form.get("name", "")[:40]
    try:
        link = lambda room_id: base + url_for("rooms.room", room_id=room_id)  # noqa: E731 - the id is made inside
        room = Room.open(key, link, clean_name(typed), secret=id_secret())
    except RoomError as exc:  # said beside the field, what was typed kept
        return render_template("rooms/new.html", error=str(exc), typed=typed, token=game.token if game else ""), 400
    sit(room.id, key, lambda _: room)
    return to_room(room.id)


@bp.post("/<room_id>/join")
def join(room_id: str):
    key = session_data.seat_key(room_id) or new_key()
    typed = request.form.get("name", "")[:40]
    try:
        sit(room_id, key, lambda room: existing(room, room_id).join(key, clean_name(typed)))
    except RoomError as exc:
        return refused_seat(room_id, exc, typed)
    return to_room(room_id)


def refused_seat(room_id: str, exc: RoomError, typed: str):
    """A seat refused: beside the name field, what was typed kept; or, if someone sat first,
    who it was (the form says which seat it asked for)."""
    room, version = rooms().read(room_id)
    if room is None:
        raise missing(room_id)
    if not room.full:
        return page(room, version, error=exc.status, join_error=str(exc), typed=typed), exc.status
    seat = request.form.get("seat", "")
    taker = roompage.player_names(room, None)[int(seat)] if seat in ("0", "1") else "someone"
    said = f"{roompage.cap(taker)} took the seat first. You can watch the game."
    return page(room, version, message=said, error=409), 409


@bp.get("/<room_id>/resign")
def confirm_resign(room_id: str):
    """Resign, asked first; once there is no game under way (Back, after resigning), the room."""
    room, who = seated_in(room_id)
    if room.over or not room.full:
        return to_room(room_id)
    other = roompage.player_names(room, who)[1 - who]
    return confirm(
        room,
        who,
        "resign",
        "Resign this game?",
        [f"{roompage.cap(other)} wins this round, and it counts in the room's score."],
        "Yes, resign",
    )


@bp.post("/<room_id>/resign")
def resign(room_id: str):
    return act(room_id, lambda room, who: room.resign(who, request.form.get("game", "")))


@bp.get("/<room_id>/leave")
def confirm_leave(room_id: str):
    """Leave, asked first; to a visitor with no seat (Back, after leaving), a page that says so."""
    if existing(rooms().get(room_id), room_id).seat_of(session_data.seat_key(room_id)) is None:
        return render_template("rooms/no_seat.html", room_id=room_id)
    room, who = seated_in(room_id)
    other = roompage.player_names(room, who)[1 - who]
    lines = ["Your seat becomes free: anyone with the link can take it."]
    if room.full and room.moves and not room.over:
        lines.append(f"The game under way counts as resigned: {other} wins it.")
    if room.seats[1 - who]:
        wins = roompage.wins(room.leave(who).score[1 - who])  # counting the game that leaving resigns
        kept = f"{roompage.cap(other)} keeps the board and their {wins} in this room"
        lines.append(f"{kept}, and can invite someone else.")
        lines.append("Whoever takes your seat starts with no wins, and the draws start again from 0.")
    else:
        lines.append("Nobody else sits in this room: it closes.")
    return confirm(room, who, "leave", "Leave the room?", lines, "Yes, leave the room")


@bp.post("/<room_id>/leave")
def leave(room_id: str):
    key = session_data.seat_key(room_id)
    if key is not None:
        remember_leaving(rooms().get(room_id), key)  # kept in the session data written below
        rooms().change({room_id: leaving(key)}, session_data.without_seat(room_id))
    return redirect(url_for("play.index"), 303)


def remember_leaving(room: Room | None, key: str) -> None:
    """The round a player leaves, over or resigned by leaving, in their list of games."""
    if seated(room, key):
        who = room.seat_of(key)
        remember(room, who)
        remember(room.leave(who), who)


def sit(room_id: str, key: str, change: Change) -> None:
    """Change the room so that the seat of `key` is in it, and keep the key in the session,
    giving up its oldest seat past session_data.MAX_SEATS: the rooms and the session are written
    together or not at all."""
    data, dropped = session_data.with_seat(room_id, key)
    rooms().change({room_id: change, **{other: leaving(k) for other, k in dropped.items()}}, data)


def leaving(key: str) -> Change:
    """The change that gives up the seat of `key` (none if it has no seat there)."""
    return lambda room: room.leave(room.seat_of(key)) if seated(room, key) else room


def seated(room: Room | None, key: str) -> TypeGuard[Room]:
    return room is not None and room.seat_of(key) is not None


def confirm(room: Room, who: int, action: str, question: str, explanation: list[str], yes: str) -> str:
    return render_template(
        "rooms/confirm.html",
        room_id=room.id,
        form_id=f"{action}-confirm",
        action=url_for(f"seats.{action}", room_id=room.id),
        token=room.seat_token(who),
        question=question,
        explanation=explanation,
        yes=yes,
    )
