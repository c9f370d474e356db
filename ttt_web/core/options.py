"""A game's options as the player picks them (side, difficulty, mode, the friends' names),
and how the AI picks its move at each difficulty."""

from __future__ import annotations

import random
import unicodedata

from . import tictactoe as ttt

DIFFICULTIES = ("easy", "medium", "impossible")
MODES = ("ai", "friend")
DEFAULTS = {"side": ttt.X, "difficulty": "medium", "mode": "ai"}
NAME_LENGTH = 12  # a friend's name, as the status line and the score show it
NAME_CHARACTERS = "letters of any script, digits, spaces, and . ' -"
NAME_RULE = f"up to {NAME_LENGTH} {NAME_CHARACTERS}"
NAME_PATTERN = r"[\p{L}\p{M}\p{N} .'\-]*"  # the same rule for the browser's pattern attribute

# Chance that the AI makes a mistake on a move, when a mistake is possible at all.
MISTAKE_RATE = {"easy": 0.6, "medium": 0.25, "impossible": 0.0}


def valid_name(name: str) -> bool:
    """A name by NAME_RULE: letters (with their accents and vowel signs), digits, spaces and
    . ' - only, at most NAME_LENGTH of them, no space at either end; "" for none."""
    return not name_problem(name)


def name_problem(name: str) -> str:
    """Why `name` is not a name by NAME_RULE, in words for the player; "" if it is one."""
    refused = next((c for c in name if unicodedata.category(c)[0] not in "LMN" and c not in " .'-"), "")
    if refused:
        shown = f"“{refused}”" if refused.isprintable() else f"The character U+{ord(refused):04X}"
        return f"{shown} cannot be in a name: use only {NAME_CHARACTERS}."
    if len(name) > NAME_LENGTH:
        return f"A name is at most {NAME_LENGTH} characters: this one has {len(name)}."
    if name != name.strip():
        return "A name cannot begin or end with a space."
    return ""


def clean_name(text: str) -> str:
    """A friend's name as typed, with runs of spaces made one; check it with valid_name."""
    return " ".join(text.split())


def choose_move(board: ttt.Board, difficulty: str, rng: random.Random) -> ttt.Action:
    """The AI's move. It varies among equally good moves; below "impossible", it sometimes
    plays a worse move instead, as a distracted human would."""
    best = ttt.best_moves(board)
    if rng.random() < MISTAKE_RATE[difficulty]:
        worse = sorted(ttt.actions(board) - set(best))
        if worse:
            return rng.choice(worse)
    return rng.choice(best)
