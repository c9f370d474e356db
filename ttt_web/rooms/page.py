"""What a room looks like to one visitor: the host, the guest or someone watching. The page is
made of parts (status, board, controls...), each its own template, so that a live stream can
send the parts that changed and the page swaps them in; the page itself includes the same
templates. Nothing here depends on the request but the visitor's seat, so parts are cached
by (room, version, seat): a move watched by a thousand spectators is rendered once."""

from __future__ import annotations

import functools
from collections import OrderedDict
from dataclasses import dataclass, fields, replace
from typing import NamedTuple

import segno
from flask import render_template
from markupsafe import Markup

from ..core import tictactoe as ttt
from ..core.endings import RESIGNED, ending_query
from ..core.game import Game
from ..core.position import format_moves, position_of
from ..core.room import Room
from ..core.room_record import GUEST, HOST
from ..core.words import Cast, ended, status_lines
from ..web.board_view import BoardView, board_view
from ..web.urls import url_for

PARTS = ("join", "invite", "status", "board", "controls", "shared", "score")  # each is rooms/<part>.html
REFRESH_SECONDS = 2  # without JavaScript, a waiting player's page reloads this often
CACHED_PARTS = 512  # rendered (room, version, seat) sets a process keeps


@dataclass(frozen=True)
class RoomPage:
    """Everything the room's templates use, for the visitor in seat `you` (None: a visitor)."""

    room: Room
    version: int
    you: int | None
    your_mark: str
    labels: tuple[str, ...]
    watching: str  # to a visitor of a full room, whom they watch
    view: BoardView
    line: tuple[str, str, str]  # the status line's state, result and text
    title: str
    waiting: bool  # for a friend, a move, or an answer; a spectator of a full room too
    token: str  # the seat's, in its forms and links
    rematch: Rematch | None
    qr: Markup | None  # the link as a QR code, to a player waiting for a friend
    can_join: bool
    joining_mark: str  # the mark whoever takes the free seat plays first
    review: str  # the finished game's moves, for its review's address
    review_players: dict[str, str]  # the review's query naming the round's players
    position: str

    def values(self) -> dict:
        """The fields by name, as the templates take them."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def context(room: Room, version: int, you: int | None) -> RoomPage:
    names = player_names(room, you)
    line = room_status(room, you, names)
    mine = you is not None and room.whose_turn() == you
    token = room.seat_token(you) if you is not None else ""
    game = replace(room.game, token=token) if mine else room.game
    return RoomPage(
        room=room,
        version=version,
        you=you,
        labels=tuple(cap(name) for name in names),
        view=board_view(game, False, links=mine, move_url=url_for("rooms.move", room_id=room.id)),
        line=line,
        title=line[2],
        waiting=not mine and (you is not None or room.full),
        joining_mark=joining_mark(room),
        token=token,
        rematch=rematch(room, you, names),
        review=format_moves(room.moves) if room.over and room.moves else "",
        review_players=review_players(room),
        position=position_of(room.game.board),
        **_for_whom(room, you),
    )


def _for_whom(room: Room, you: int | None) -> dict:
    """What a player sees and a visitor does not, and the other way round."""
    if you is None:
        return {"your_mark": "", "watching": watching(room) if room.full else "", "qr": None, "can_join": not room.full}
    return {
        "your_mark": room.mark(you),
        "watching": "",
        "qr": None if room.full else qr_svg(room.link),
        "can_join": False,
    }


def joining_mark(room: Room) -> str:
    """The mark whoever takes the free seat plays first: the next round's, if this one has begun."""
    if room.full:
        return ""
    free = room.seats.index("")
    begun = room.moves or room.resigned is not None
    return replace(room, round=room.round + 1).mark(free) if begun else room.mark(free)


def round_game(room: Room) -> Game:
    """This round's game with its players' names by their marks."""
    names = {room.mark(who): room.name(who) for who in (HOST, GUEST)}
    return replace(room.game, names=(names[ttt.X], names[ttt.O]))


def review_players(room: Room) -> dict[str, str]:
    """The review's query that names this round's players by their marks, and says who
    resigned or left, if someone did."""
    names = {room.mark(who).lower(): room.name(who) for who in (HOST, GUEST) if room.name(who)}
    return names | (ending_query(RESIGNED, room.mark(room.resigned)) if room.resigned is not None else {})


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
    offer = f"Offer {other} a rematch (sides swap)"
    if room.offer == you:
        if room.declined:
            return Rematch(f"{cap(other)} declined the rematch.", offer)
        return Rematch(f"You offered a rematch. Waiting for {other} to answer.", "")
    if room.offer is not None and room.declined:
        return Rematch(f"You declined {other}'s rematch.", offer)
    if room.offer is not None:
        return Rematch(f"{cap(other)} offers a rematch, sides swapped.", "Accept", can_decline=True)
    return Rematch("", offer)


def parts(room: Room, version: int, you: int | None) -> tuple[str, dict[str, str]]:
    """The page's title and its parts, rendered, by id (`live-<part>`)."""
    key = (room.id, version, you)
    if key not in _rendered:
        shown = context(room, version, you)
        _rendered[key] = shown.title, {f"live-{p}": render_template(f"rooms/{p}.html", **shown.values()) for p in PARTS}
        if len(_rendered) > CACHED_PARTS:
            _rendered.popitem(last=False)
    return _rendered[key]


_rendered: OrderedDict[tuple, tuple[str, dict[str, str]]] = OrderedDict()


def player_names(room: Room, you: int | None) -> tuple[str, str]:
    """How the page names the host and the guest, mid-sentence: "you", a given name, "your
    friend"; to a visitor, the names or "the host" and "the guest"."""
    names = []
    for who in (HOST, GUEST):
        given = room.name(who)
        if who == you:
            names.append("you")
        else:
            names.append(given or ("your friend" if you is not None else ("the host", "the guest")[who]))
    return names[0], names[1]


def wins(count: int) -> str:
    return f"{count} win" if count == 1 else f"{count} wins"


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def watching(room: Room) -> str:
    """ "You are watching Ann (X) and Ben (O).", X first."""
    names = player_names(room, None)
    first = HOST if room.mark(HOST) == ttt.X else GUEST
    return f"You are watching {names[first]} (X) and {names[1 - first]} (O)."


def room_status(room: Room, you: int | None, names: tuple[str, str]) -> tuple[str, str, str]:
    """(state, result, text) of the line above the board, for this visitor, who knows the
    players by `names` (player_names); the game's own sentences are core/words.py's."""
    if not room.full and not room.over:
        return "waiting", "", _waiting_for_a_friend(room, you, names)
    by_mark = {room.mark(who): names[who] for who in (HOST, GUEST)}
    cast = Cast((by_mark[ttt.X], by_mark[ttt.O]), you=room.mark(you) if you is not None else "")
    if room.over:
        return "over", _result(room, you), _ending_for(room, you, names, cast)
    state = "waiting" if you is not None and room.whose_turn() != you else "playing"
    return state, "", " ".join(status_lines(room.game, cast))


def _waiting_for_a_friend(room: Room, you: int | None, names: tuple[str, str]) -> str:
    if you is None:
        host = names[HOST] if room.seats[HOST] else names[GUEST]
        return f"{cap(host)} is waiting for someone to take the other seat."
    if room.vacated:
        return f"{cap(names[1 - you])} left. Send the link to someone else to play in the free seat."
    return "Waiting for your friend to join."


def _ending_for(room: Room, you: int | None, names: tuple[str, str], cast: Cast) -> str:
    """The round's ending; to the player who stayed, also that the other left after it."""
    ending = _ending(room, names, cast)
    left_after = room.vacated and room.seats[room.resigned] if room.resigned is not None else room.vacated
    if you is not None and left_after:
        ending += f" {cap(names[1 - you])} left: send the link to someone else to play again."
    return ending


def _result(room: Room, you: int | None) -> str:
    """ "win", "loss" or "draw": for the player looking, or for X to a visitor."""
    winner = room.winner()
    if winner is None:
        return "draw"
    if you is None:
        return "win" if room.mark(winner) == ttt.X else "loss"
    return "win" if winner == you else "loss"


def _ending(room: Room, names: tuple[str, str], cast: Cast) -> str:
    winner = room.winner()
    if winner is None:
        return ended(cast, None)
    won = ended(cast, room.mark(winner))
    if room.resigned is None:
        return won
    if not room.seats[room.resigned]:
        return f"{cap(names[room.resigned])} left during the game. {won}"
    return f"{cap(names[room.resigned])} resigned. {won}"


@functools.lru_cache(maxsize=1024)
def qr_svg(link: str) -> Markup:
    """The link as a QR code: an SVG, dark on light whatever the colour scheme, for a camera.
    A room's link is fixed when it is made, so each room's code is made once per process."""
    code = segno.make(link, error="m")
    svg = code.svg_inline(scale=4, border=4, svgclass="qr", omitsize=True, dark="#000", light="#fff")
    return Markup(svg.replace("<svg ", '<svg role="img" aria-label="QR code of the link to this room" ', 1))
