"""A game as the session stores it: the fields of `core.game.Game`, declared there once, as
JSON-native values, written and read by msgspec from that declaration. (The core imports
only the standard library, so the codec is here, beside the session that holds the record.)
A record that is not a game as `encode` writes it (a field missing or of another type, moves
that no game has) reads as no game: None.

A process keeps the last DECODED games it read, by their records' bytes: the same record
always reads as the same Game, which never changes, with what it worked out once (whose turn
it is, whether you have lost with best play). Reading one afresh costs some 45 µs, mostly
its replay (docs/performance.md)."""

from __future__ import annotations

import functools
from dataclasses import fields

import msgspec

from ..core.game import Game

DECODED = 4096  # games kept decoded per process, each a few KB
ADDED_LATER = frozenset({"version", "given"})  # 0 in a game stored before each was kept
REQUIRED = frozenset(field.name for field in fields(Game)) - ADDED_LATER


def encode(game: Game) -> dict:
    """The record of `game`, in JSON's own types (lists, not tuples), as a store gives it back."""
    return msgspec.json.decode(msgspec.json.encode(game))


def decode(data: object) -> Game | None:
    """The game stored in the record `data`, or None if there is none or it is not valid."""
    if not isinstance(data, dict) or not data.keys() >= REQUIRED:
        return None
    try:
        return decoded(msgspec.json.encode(data))
    except (msgspec.EncodeError, TypeError):  # not JSON at all: no store gives such a record back
        return None


@functools.lru_cache(maxsize=DECODED)
def decoded(record: bytes) -> Game | None:
    try:
        return msgspec.json.decode(record, type=Game, strict=True)
    except msgspec.ValidationError:
        return None
