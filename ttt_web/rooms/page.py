"""What a room looks like to one visitor: the host, the guest or someone watching. The page is
made of parts (status, board, controls...), each its own template, so that a live stream can
send the parts that changed and the page swaps them in; the page itself includes the same
templates. Nothing here depends on the request but the visitor's seat, so parts are cached
by (room, version, seat): a move watched by a thousand spectators is rendered once."""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import replace
from typing import NamedTuple

import segno
from flask import render_template
from markupsafe import Markup

from ..core import tictactoe as ttt
from ..core.costs import position_of
from ..core.game import Game, cell_name, format_moves, mark_of
from ..core.room import GUEST, HOST, Room
from ..web.board_view import board_view
from ..web.urls import url_for

PARTS = ("join", "invite", "status", "board", "controls", "shared", "score")  # each is rooms/<part>.html
REFRESH_SECONDS = 2  # without JavaScript, a waiting player's page reloads this often
CACHED_PARTS = 512  # rendered (room, version, seat) sets a process keeps


def context(room: Room, version: int, you: int | None) -> dict:
    """Everything the room's templates use, for the visitor in seat `you` (None: a visitor)."""
    names = player_names(room, you)
    state, result, text = room_status(room, you, names)
    mine = you is not None and room.whose_turn() == you
    token = room.seat_token(you) if you is not None else ""
    game = replace(room.game, token=token) if mine else room.game
    return {
        "room": room,
        "version": version,
        "you": you,
        "your_mark": room.mark(you) if you is not None else "",
        "labels": tuple(cap(name) for name in names),
        "watching": watching(room) if you is None and room.full else "",
        "view": board_view(game, False, links=mine, move_url=url_for("rooms.move", room_id=room.id)),
        "line": (state, result, text),
        "title": text,
        "waiting": you is not None and not mine,  # for a friend, a move, or an answer
        "token": token,
        "rematch": rematch(room, you, names),
        "qr": qr_svg(room.link) if you is not None and not room.full else None,
        "can_join": you is None and not room.full,
        "review": format_moves(room.moves) if room.over and room.moves else "",
        "review_players": review_players(room),
        "position": position_of(room.game.board),
    }


def round_game(room: Room) -> Game:
    """This round's game with its players' names by their marks."""
    names = {room.mark(who): room.names[who] for who in (HOST, GUEST)}
    return replace(room.game, names=(names[ttt.X], names[ttt.O]))


def review_players(room: Room) -> dict[str, str]:
    """The review's query that names this round's players by their marks."""
    return {room.mark(who).lower(): room.names[who] for who in (HOST, GUEST) if room.names[who]}


class Rematch(NamedTuple):
    """What a finished round offers a player: a line about the offer, the rematch button's
    words (none while the player's own offer waits), and whether they may decline."""

    note: str
    button: str
    can_decline: bool = False


def rematch(room: Room, you: int | None, names: tuple[str, str]) -> Rematch | None:
    """The rematch controls for player `you`, once a round is over and both seats are taken."""
    if you is None or not room.over or not room.full:
        return None
    other = names[1 - you]
    if room.offer == you:
        if room.declined:
            return Rematch(f"{cap(other)} declined the rematch.", "Offer a rematch")
        return Rematch(f"You offered a rematch. Waiting for {other} to answer.", "")
    if room.offer is not None and not room.declined:
        return Rematch(f"{cap(other)} offers a rematch, sides swapped.", "Accept", can_decline=True)
    return Rematch("", "Play again, sides swapped")


def parts(room: Room, version: int, you: int | None) -> tuple[str, dict[str, str]]:
    """The page's title and its parts, rendered, by id (`live-<part>`)."""
    key = (room.id, version, you)
    if key not in _rendered:
        values = context(room, version, you)
        _rendered[key] = values["title"], {f"live-{p}": render_template(f"rooms/{p}.html", **values) for p in PARTS}
        if len(_rendered) > CACHED_PARTS:
            _rendered.popitem(last=False)
    return _rendered[key]


_rendered: OrderedDict[tuple, tuple[str, dict[str, str]]] = OrderedDict()


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


def watching(room: Room) -> str:
    """ "You are watching Ann (X) and Ben (O).", X first."""
    names = player_names(room, None)
    first = HOST if room.mark(HOST) == ttt.X else GUEST
    return f"You are watching {names[first]} (X) and {names[1 - first]} (O)."


def room_status(room: Room, you: int | None, names: tuple[str, str]) -> tuple[str, str, str]:
    """(state, result, text) of the line above the board, for this visitor, who knows the
    players by `names` (player_names)."""
    if not room.full and not room.over:
        if you is None:
            host = names[HOST] if room.seats[HOST] else names[GUEST]
            return "waiting", "", f"{cap(host)} is waiting for someone to take the other seat."
        if room.vacated:
            return "waiting", "", "Your friend left. Send the link to someone else to play in the free seat."
        return "waiting", "", "Waiting for your friend to join."
    if room.over:
        return "over", _result(room, you), _ending(room, names, you)
    game, turn = room.game, room.whose_turn()
    if you is None:
        by = {room.mark(who): f"{cap(names[who])} ({room.mark(who)})" for who in (HOST, GUEST)}
        last = f"{by[mark_of(len(game.moves) - 1)]} played {cell_name(game.moves[-1])}. " if game.moves else ""
        return "playing", "", f"{last}{by[game.to_move]} to move."
    last = f"{cap(names[1 - turn])} played {cell_name(game.moves[-1])}. " if game.moves else ""
    if turn == you:
        return "playing", "", f"{last}Your turn: place {room.mark(you)}."
    return "waiting", "", f"{last}Waiting for {names[turn]} to move."


def _result(room: Room, you: int | None) -> str:
    """ "win", "loss" or "draw": for the player looking, or for X to a visitor."""
    winner = room.winner()
    if winner is None:
        return "draw"
    if you is None:
        return "win" if room.mark(winner) == ttt.X else "loss"
    return "win" if winner == you else "loss"


def _ending(room: Room, names: tuple[str, str], you: int | None) -> str:
    winner = room.winner()
    if winner is None:
        return "It's a draw."
    won = "You won!" if winner == you else f"{cap(names[winner])} won."
    if room.resigned is None:
        return won
    if not room.seats[room.resigned]:
        return f"Your friend left during the game. {won}" if you is not None else f"A player left. {won}"
    return f"{cap(names[room.resigned])} resigned. {won}"


@functools.lru_cache(maxsize=1024)
def qr_svg(link: str) -> Markup:
    """The link as a QR code: an SVG, dark on light whatever the colour scheme, for a camera.
    A room's link is fixed when it is made, so each room's code is made once per process."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=4, border=4, svgclass="qr", omitsize=True, dark="#000", light="#fff")
    return Markup(svg.replace("<svg ", '<svg role="img" aria-label="QR code of the link to this room" ', 1))
