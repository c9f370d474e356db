"""Rooms: play a friend on another device through a link. The room's game lives in the shared
store (roomstore); each player's session keeps only the key to its seat. A player who is
waiting gets a page that refreshes itself (a meta refresh: no JavaScript) and costs a read
of the session and of the room, nothing written."""

from __future__ import annotations

import functools
import hmac
from collections.abc import Callable

import segno
from flask import Blueprint, current_app, redirect, render_template, request
from markupsafe import Markup
from werkzeug.exceptions import BadRequest, Forbidden, NotFound

from . import state
from .board import board_view, status
from .errors import http_error
from .game import cell_name, clean_name
from .play import requested_move
from .room import GUEST, HOST, Room, RoomError, new_key
from .roomstore import rooms
from .urls import url_for

bp = Blueprint("rooms", __name__, url_prefix="/room")

REFRESH_SECONDS = 2
CLOSED = "This room has closed: rooms close when a player leaves, or after a day with no move."


@bp.errorhandler(RoomError)
def refused(exc: RoomError):
    """The room as it is now, with the reason; the invitation form has no room to show."""
    room = rooms().get((request.view_args or {}).get("room_id", ""))
    if room is None:  # an error handler answers; an exception raised here would be a 500
        return http_error(NotFound(CLOSED))
    return page(room, message=str(exc)), exc.status


@bp.post("/new")
def invite():
    game = state.current_game()
    if game is not None and not hmac.compare_digest(request.form.get("game", "").encode(), game.token.encode()):
        raise Forbidden("That button belongs to another game.")
    key = new_key()
    try:
        room = Room.open(key, clean_name(request.form.get("name", "")))
    except RoomError as exc:
        raise BadRequest(str(exc)) from exc
    rooms().update(room.id, lambda _: room)
    leave_rooms(state.take_seat(room.id, key))
    return to_room(room.id)


@bp.get("/<room_id>")
def room(room_id: str):
    found = rooms().get(room_id)
    if found is None:
        raise NotFound(CLOSED)
    return page(found)


@bp.post("/<room_id>/join")
def join(room_id: str):
    key = state.seat_key(room_id) or new_key()
    name = clean_name(request.form.get("name", ""))
    rooms().update(room_id, lambda room: existing(room).join(key, name))
    leave_rooms(state.take_seat(room_id, key))
    return to_room(room_id)


@bp.get("/<room_id>/move")
def move(room_id: str):
    number, cell = requested_move(RoomError)
    token = request.args.get("game", "")
    return act(room_id, lambda room, who: room.play(who, cell, number, token))


@bp.post("/<room_id>/resign")
def resign(room_id: str):
    return act(room_id, lambda room, who: room.resign(who, request.form.get("game", "")))


@bp.post("/<room_id>/rematch")
def rematch(room_id: str):
    return act(room_id, lambda room, who: room.rematch(who, request.form.get("game", "")))


def act(room_id: str, action: Callable[[Room, int | None], Room]):
    """Change the room as the player this session seats (or None)."""
    key = state.seat_key(room_id)

    def change(room: Room | None) -> Room:
        found = existing(room)
        return action(found, found.player(key))

    rooms().update(room_id, change)
    return to_room(room_id)


@bp.post("/<room_id>/refresh")
def auto_refresh(room_id: str):
    """Turn the waiting page's own refresh off or on (WCAG 2.2.1: a time limit the user
    can turn off). A browser preference: it stores nothing on the server."""
    response = to_room(room_id)
    state.toggle_auto_refresh(response)
    return response


@bp.post("/<room_id>/leave")
def leave(room_id: str):
    key = state.seat_key(room_id)
    if key is not None:
        leave_rooms({room_id: key})
        state.drop_seat(room_id)
    return redirect(url_for("play.index"), 303)


def leave_rooms(seats: dict[str, str]) -> None:
    """Leave the rooms a session gave up its seats in: their games cannot go on."""
    for room_id, key in seats.items():
        rooms().update(room_id, lambda room, key=key: room.leave(room.player(key)) if seated(room, key) else room)


def seated(room: Room | None, key: str) -> bool:
    return room is not None and room.player(key) is not None


def existing(room: Room | None) -> Room:
    if room is None:
        raise NotFound(CLOSED)
    return room


def to_room(room_id: str):
    """See Other, to the room's page: a reload repeats nothing. No #board here: a browser
    does not reload a page whose address has a fragment when its meta refresh fires."""
    return redirect(url_for("rooms.room", room_id=room_id), 303)


# The page.


def page(room: Room, message: str | None = None) -> str:
    you = room.player(state.seat_key(room.id))
    turn = room.whose_turn()
    mine = you is not None and turn == you
    waiting = not room.closed and not mine  # for a friend, a move, or a new game
    link = share_link(room.id)
    names = player_names(room, you)
    return render_template(
        "rooms/room.html",
        room=room,
        you=you,
        your_mark=room.mark(you) if you is not None else "",
        labels=tuple(cap(name) for name in names),
        view=board_view(room.game, False, links=mine, move_url=url_for("rooms.move", room_id=room.id)),
        line=room_status(room, you, names),
        waiting=waiting,
        refresh=REFRESH_SECONDS if waiting and state.auto_refresh_on() else None,
        message=message,
        link=link,
        qr=qr_svg(link) if you is not None and not room.full and not room.closed else None,
        can_join=you is None and not room.full and not room.closed,
    )


def player_names(room: Room, you: int | None) -> tuple[str, str]:
    """How the page names the host and the guest, mid-sentence: "you", a given name, "your
    friend"; to a visitor, the names or "the host" and "the guest"."""
    names = []
    for who in (HOST, GUEST):
        given = room.names[who]
        if who == you:
            names.append("you")
        else:
            names.append(given or ("your friend" if you is not None else ("the host", "the guest")[who]))
    return names[0], names[1]


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def room_status(room: Room, you: int | None, names: tuple[str, str]) -> tuple[str, str, str]:
    """(state, result, text) of the line above the board, for this visitor, who knows the
    players by `names` (player_names)."""
    if room.closed:
        return "closed", "", "A player left: this room has closed."
    if not room.full:
        if you is None:
            return "waiting", "", f"{cap(names[HOST])} is waiting for someone to take the other seat."
        return "waiting", "", "Waiting for your friend to join."
    if room.over:
        return "over", _result(room, you), _ending(room, names)
    game, turn = room.game, room.whose_turn()
    last = f"{cap(names[1 - turn])} played {cell_name(game.moves[-1])}. " if game.moves else ""
    if you is None:
        return "playing", "", status(game).text
    if turn == you:
        return "playing", "", f"{last}Your turn: place {room.mark(you)}."
    return "waiting", "", f"{last}Waiting for {names[turn]} to move."


def _result(room: Room, you: int | None) -> str:
    """ "win", "loss" or "draw": for the player looking, or for X to a visitor."""
    winner = room.winner()
    if winner is None:
        return "draw"
    if you is None:
        return "win" if room.mark(winner) == "X" else "loss"
    return "win" if winner == you else "loss"


def _ending(room: Room, names: tuple[str, str]) -> str:
    winner = room.winner()
    if winner is None:
        return "It's a draw."
    won = "You won!" if names[winner] == "you" else f"{cap(names[winner])} won."
    return f"{cap(names[room.resigned])} resigned. {won}" if room.resigned is not None else won


def share_link(room_id: str) -> str:
    """The room's address in full, to send: from PUBLIC_URL when set, else this request's."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for("rooms.room", room_id=room_id)


@functools.lru_cache(maxsize=1024)
def qr_svg(link: str) -> Markup:
    """The link as a QR code: an SVG, dark on light whatever the colour scheme, for a camera."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=4, border=4, svgclass="qr", omitsize=True, dark="#000", light="#fff")
    return Markup(svg.replace("<svg ", '<svg role="img" aria-label="QR code of the link to this room" ', 1))
