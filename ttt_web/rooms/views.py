"""Rooms: play a friend on another device through a link. The room's game lives in the shared
store (rooms.store); each player's session keeps only the key to its seat. With JavaScript, a
room's page follows the room's event stream (rooms.stream) and never reloads by itself;
without it, a player who waits gets a page that reloads itself (a meta refresh, which the
player can turn off), and a page with a form to fill never does."""

from __future__ import annotations

import hmac
from collections.abc import Callable

from flask import Blueprint, current_app, redirect, render_template, request
from werkzeug.exceptions import Forbidden, Gone, HTTPException, NotFound

from ..core.options import clean_name
from ..core.room import Room, RoomError, issued, new_key
from ..rooms import page as roompage
from ..rooms import stream as roomstream
from ..web import cookies, player
from ..web.errors import http_error
from ..web.limits import ROOM_MESSAGE, own_limit
from ..web.moves import requested_move
from ..web.urls import public_base, url_for
from .store import Change, rooms

bp = Blueprint("rooms", __name__, url_prefix="/room")

CLOSED = "This room has closed: rooms close when both players have left, or after a day with no move."
NO_SUCH_ROOM = "There is no such room: check the link you were sent, or invite a friend from a game of your own."


@bp.errorhandler(RoomError)
def refused(exc: RoomError):
    """The room as it is now, with the reason; the invitation form has no room to show."""
    room, version = rooms().read((request.view_args or {}).get("room_id", ""))
    if room is None:  # an error handler answers; an exception raised here would be a 500
        return http_error(missing((request.view_args or {}).get("room_id", "")))
    return page(room, version, message=str(exc)), exc.status


@bp.post("/new")
@own_limit(lambda: current_app.config["NEW_ROOM_LIMIT"], error_message=ROOM_MESSAGE)
def invite():
    game = player.current_game()
    if game is not None and not hmac.compare_digest(request.form.get("game", "").encode(), game.token.encode()):
        raise Forbidden("That button belongs to another game.")
    key, base, typed = new_key(), public_base(), request.form.get("name", "")[:40]
    try:
        link = lambda room_id: base + url_for("rooms.room", room_id=room_id)  # noqa: E731 - the id is made inside
        room = Room.open(key, link, clean_name(typed), secret=id_secret())
    except RoomError as exc:  # said beside the field, what was typed kept
        return render_template("rooms/new.html", error=str(exc), typed=typed, token=game.token if game else ""), 400
    sit(room.id, key, lambda _: room)
    return to_room(room.id)


@bp.get("/<room_id>")
def room(room_id: str):
    found, version = rooms().read(room_id)
    if found is None:
        raise missing(room_id)
    return page(found, version)


@bp.get("/<room_id>/events")
def events(room_id: str):
    return roomstream.response(room_id, player.seat_key(room_id))


@bp.post("/<room_id>/join")
def join(room_id: str):
    key = player.seat_key(room_id) or new_key()
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
        return page(room, version, join_error=str(exc), typed=typed), exc.status
    seat = request.form.get("seat", "")
    taker = roompage.player_names(room, None)[int(seat)] if seat in ("0", "1") else "someone"
    return page(room, version, message=f"{roompage.cap(taker)} took the seat first. You can watch the game."), 409


@bp.get("/<room_id>/move")
def move(room_id: str):
    """A move is a link (a GET, so that the board works without JavaScript); one that another
    site's page made the browser follow is refused (requested_move), whatever it carries."""
    number, cell = requested_move(RoomError)
    token = request.args.get("game", "")
    return act(room_id, lambda room, who: room.play(who, cell, number, token))


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


@bp.post("/<room_id>/rematch")
def rematch(room_id: str):
    """Offer the next round, or accept the other player's offer."""
    return act(room_id, lambda room, who: room.rematch(who, request.form.get("game", "")))


@bp.post("/<room_id>/decline")
def decline(room_id: str):
    return act(room_id, lambda room, who: room.decline(who, request.form.get("game", "")))


@bp.get("/<room_id>/leave")
def confirm_leave(room_id: str):
    """Leave, asked first; to a visitor with no seat (Back, after leaving), a page that says so."""
    if existing(rooms().get(room_id), room_id).player(player.seat_key(room_id)) is None:
        return render_template("rooms/no_seat.html", room_id=room_id)
    room, who = seated_in(room_id)
    other = roompage.player_names(room, who)[1 - who]
    lines = ["Your seat becomes free: anyone with the link can take it."]
    if room.full and room.moves and not room.over:
        lines.append(f"The game under way counts as resigned: {other} wins it.")
    if room.seats[1 - who]:
        kept = f"{roompage.cap(other)} keeps the board and their {roompage.wins(room.score[1 - who])} in this room"
        lines.append(f"{kept}, and can invite someone else.")
        lines.append("Whoever takes your seat starts with no wins, and the draws start again from 0.")
    else:
        lines.append("Nobody else sits in this room: it closes.")
    return confirm(room, who, "leave", "Leave the room?", lines, "Yes, leave the room")


@bp.post("/<room_id>/leave")
def leave(room_id: str):
    key = player.seat_key(room_id)
    if key is not None:
        remember_leaving(rooms().get(room_id), key)  # kept in the session data written below
        rooms().change({room_id: leaving(key)}, player.without_seat(room_id))
    return redirect(url_for("play.index"), 303)


def remember_leaving(room: Room | None, key: str) -> None:
    """The round a player leaves, over or resigned by leaving, in their list of games."""
    if seated(room, key):
        who = room.player(key)
        remember(room, who)
        remember(room.leave(who), who)


@bp.post("/<room_id>/refresh")
def auto_refresh(room_id: str):
    """Turn the waiting page's own refresh off or on (WCAG 2.2.1: a time limit the user
    can turn off). A browser preference: it stores nothing on the server."""
    response = to_room(room_id)
    cookies.toggle_auto_refresh(response)
    return response


def act(room_id: str, action: Callable[[Room, int | None], Room]):
    """Change the room as the player this session seats (or None)."""
    key = player.seat_key(room_id)

    def change(room: Room | None) -> Room:
        found = existing(room, room_id)
        remember(found, found.player(key))  # a round over, before the next one starts
        return action(found, found.player(key))

    rooms().update(room_id, change)
    return to_room(room_id)


def remember(room: Room, who: int | None) -> None:
    """A round over, in the list of games of the player `who` played it."""
    if who is not None and room.over and room.moves:
        winner = room.winner()
        outcome = "draw" if winner is None else "win" if winner == who else "loss"
        player.remember_round(roompage.round_game(room), room.mark(who), outcome, room.resigned is not None)


def sit(room_id: str, key: str, change: Change) -> None:
    """Change the room so that the seat of `key` is in it, and keep the key in the session,
    giving up its oldest seat past player.MAX_SEATS: the rooms and the session are written
    together or not at all."""
    data, dropped = player.with_seat(room_id, key)
    rooms().change({room_id: change, **{other: leaving(k) for other, k in dropped.items()}}, data)


def leaving(key: str) -> Change:
    """The change that gives up the seat of `key` (none if it has no seat there)."""
    return lambda room: room.leave(room.player(key)) if seated(room, key) else room


def seated(room: Room | None, key: str) -> bool:
    return room is not None and room.player(key) is not None


def seated_in(room_id: str) -> tuple[Room, int]:
    """The room and this session's seat in it; refused for anyone without one."""
    room = existing(rooms().get(room_id), room_id)
    who = room.player(player.seat_key(room_id))
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
    secret = secret.encode() if isinstance(secret, str) else secret
    return hmac.new(secret, b"ttt room ids", "sha256").digest()


def to_room(room_id: str):
    """See Other, to the room's page: a reload repeats nothing. No #board here: a browser
    does not reload a page whose address has a fragment when its meta refresh fires."""
    return redirect(url_for("rooms.room", room_id=room_id), 303)


def page(room: Room, version: int, message: str | None = None, **form) -> str:
    you = room.player(player.seat_key(room.id))
    remember(room, you)
    shown = roompage.context(room, version, you)
    refresh = roompage.REFRESH_SECONDS if shown.waiting and cookies.auto_refresh_on() else None
    return render_template("rooms/room.html", **shown.values(), refresh=refresh, message=message, **form)


def confirm(room: Room, who: int, action: str, question: str, explanation: list[str], yes: str) -> str:
    return render_template(
        "rooms/confirm.html",
        room_id=room.id,
        form_id=f"{action}-confirm",
        action=url_for(f"rooms.{action}", room_id=room.id),
        token=room.seat_token(who),
        question=question,
        explanation=explanation,
        yes=yes,
    )
