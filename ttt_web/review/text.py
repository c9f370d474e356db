"""What the review says of a game's moves, in the players' own words: "you" and the AI in a
game against it (whose worse moves at easy and medium are said to be on purpose), the names
of two people, or the marks X and O when nobody is named."""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from ..core import tictactoe as ttt
from ..core.endings import LEFT, Ending
from ..core.game import Game
from ..core.judging import Judgement, accuracy, value_after
from ..core.players import Players
from ..core.position import SIDES, action_name, other
from ..core.words import counted, either, in_words, outlook, result_text, which
from .caption import ended, plain_text, sentence

TURNED = {
    ("win", "draw"): "a win into a draw",
    ("draw", "loss"): "a draw into a loss",
    ("win", "loss"): "a win into a loss",
}


@dataclass(frozen=True)
class Move:
    """One judged move as the review lists it."""

    ply: int  # 1-based
    judged: Judgement
    href: str
    players: Players
    given: bool = False  # a move of the position the game was played on from: not judged
    start: int = 0  # how many moves that position has: the moves played are numbered after them

    @property
    def number(self) -> int:
        """The move's number as the review says it: a given move's among the moves given, a
        played move's among the moves played (as the summary counts them), from 1."""
        return self.ply if self.given else self.ply - self.start

    @property
    def mark(self) -> str:
        return self.judged.mark

    @property
    def cell(self) -> str:
        return action_name(self.judged.action)

    @property
    def at(self) -> str:
        """The cell with the assignment's action: "b1 (0, 1)"."""
        return named(self.judged.action)

    @property
    def best(self) -> list[str]:
        return [action_name(a) for a in self.judged.best_actions]

    @property
    def best_at(self) -> list[str]:
        """The best moves, each with its action: ["a2 (1, 0)", "c3 (2, 2)"]."""
        return [named(a) for a in self.judged.best_actions]

    @property
    def value(self) -> int:
        """The value after this move, X's point of view: 1, 0 or -1."""
        return value_after(self.judged)

    @property
    def actor(self) -> str:
        """Who made the move, mid-sentence: "you", "the AI", "Ann" or "X"."""
        return self.players.actor(self.mark)

    @property
    def possessive(self) -> str:
        """Whose move, mid-sentence: "your", "the AI's", "Ann's", "X's"."""
        return "your" if self.actor == "you" else f"{self.actor}'s"

    @property
    def label(self) -> str:
        return self.players.label(self.mark)

    @property
    def on_purpose(self) -> bool:
        """A move that was not best, made by the AI on purpose (below impossible)."""
        return self.judged.verdict != "best" and self.players.on_purpose(self.mark)

    @property
    def refutation(self) -> str:
        """Perfect play after the move, each move with its mark: "X c1, O b1, X a3"."""
        marks = itertools.cycle((other(self.mark), self.mark))
        return ", ".join(f"{mark} {action_name(a)}" for mark, a in zip(marks, self.judged.refutation, strict=False))

    @property
    def should(self) -> str:
        """What the mover should have played: "you should have played b2, which holds the draw"."""
        better = f"{either(self.best_at)}, {which(self.best)} {self.outlook(self.judged.best)}"
        if self.on_purpose:
            return f"its best was {better}"
        return f"{self.actor} should have played {better}"

    def outlook(self, value: ttt.MoveValue) -> str:
        return outlook(value, *self.players.naming(self.mark))

    @property
    def explanation(self) -> str:
        """The verdict in two sentences: whose move it was, what it leads to, and what that
        player should have played; for the AI's deliberate errors, that they were."""
        judged, mark = self.judged, self.mark
        played = f"{self.actor} played {self.at}"
        if judged.verdict == "best":
            return f"Best move: {played}, which {self.outlook(judged.played)}."
        kind = f"{judged.verdict.capitalize()}{', on purpose' if self.on_purpose else ''}"
        purpose = f" {self.players.purpose()}" if self.on_purpose else ""
        should = self.should[:1].upper() + self.should[1:]
        if judged.verdict == "inaccuracy":
            return f"{kind}: {played}, which {self.outlook(judged.played)}. {should}.{purpose}"
        after = (
            "best play draws"
            if judged.played.outcome == "draw"
            else f"with best play {in_words(judged.played, *self.players.naming(mark))}"
        )
        line = f"; after {self.cell}, {after}: {self.refutation}" if self.refutation else ""
        return f"{kind}: {played}, turning {turned_text(judged)}. {should}{line}.{purpose}"


def named(action: ttt.Action) -> str:
    """A cell by its name and the assignment's action (i, j): "b1 (0, 1)"."""
    return f"{action_name(action)} ({action[0]}, {action[1]})"


def turned_text(judged: Judgement) -> str:
    return TURNED[judged.best.outcome, judged.played.outcome]


def turning_point(moves: list[Move]) -> Move | None:
    """The move after which the result now forced stayed forced: the last that changed the
    value (it cannot change but by a move that turns it); None if no move did. In a finished
    game it decided the final result, whoever erred before it."""
    return next((m for m in reversed(moves) if (m.judged.best.outcome, m.judged.played.outcome) in TURNED), None)


def turned(move: Move) -> str:
    """The turning point in words: "Move 7, you at a2, turned a draw into a loss for you,
    with best play"; the AI's, made on purpose, said to be its."""
    whose = "it" if move.actor == "the AI" else move.actor
    turn = turned_text(move.judged)
    said = f"Move {move.number}, {move.actor} at {move.cell}, turned {turn} for {whose}, with best play"
    if move.players.against_ai and not move.players.learns(move.mark):
        return f"The AI's move settled the result: {said}, on purpose."
    return f"{said}."


SEVERITY = {("win", "loss"): 2, ("win", "draw"): 1, ("draw", "loss"): 1}  # how much a turning move lost
OUTCOME_RANK = {"win": 2, "draw": 1, "loss": 0}


@dataclass(frozen=True)
class OwnMove:
    """Against the AI, the move of yours the review opens on: your worst (`worst`), the one
    that changed the result against you most (the last of those that did it as much), or, if
    none did, your best: the one that kept the best outcome you ever had where the fewest
    moves did (the earliest of those)."""

    move: Move
    worst: bool

    @property
    def text(self) -> str:
        """ "Your worst move: move 2, you at b1, turned a draw into a loss for you, with best
        play." or "Your best move (none of yours changed the result): move 4, you at c3, which
        wins in 2 of your moves, the only best move there."."""
        move = self.move
        if self.worst:
            said = turned(move)
            return f"Your worst move: {said[:1].lower()}{said[1:]}"
        count = len(move.judged.best_actions)
        only = "the only best move there" if count == 1 else f"one of {count} best moves there"
        played = f"move {move.number}, you at {move.cell}, which {move.outlook(move.judged.played)}"
        return f"Your best move (none of yours changed the result): {played}, {only}."


def own_move(moves: list[Move], players: Players) -> OwnMove | None:
    """The move of yours a review against the AI opens on (OwnMove); None between two people,
    or if you made no move."""
    mine = [m for m in moves if players.against_ai and players.learns(m.mark)]
    worst = _worst(mine)
    if worst is not None:
        return OwnMove(worst, True)
    best = _best(mine)
    return OwnMove(best, False) if best is not None else None


def _lost(move: Move) -> int:
    """How much of the result a move gave away with best play (SEVERITY): 0 if none."""
    return SEVERITY.get((move.judged.best.outcome, move.judged.played.outcome), 0)


def _worst(mine: list[Move]) -> Move | None:
    """The move that gave away most of the result; of equal ones, the last (the result it
    left stood)."""
    worst = max(reversed(mine), key=_lost, default=None)
    return worst if worst is not None and _lost(worst) else None


def _best(mine: list[Move]) -> Move | None:
    """Of the best moves keeping the best outcome any of them kept, the one with the fewest
    best moves to choose from; of equal ones, the first."""
    best = [m for m in mine if m.judged.verdict == "best"]
    top = max((OUTCOME_RANK[m.judged.played.outcome] for m in best), default=None)
    kept = [m for m in best if OUTCOME_RANK[m.judged.played.outcome] == top]
    return min(kept, key=lambda m: (len(m.judged.best_actions), m.ply), default=None)


def heading(move: Move | None, given: int, played: int) -> str:
    """What the review's heading says of the step shown (`move`, None for the empty board),
    the `given` moves of a starting position numbered apart from the `played` ones."""
    if move is None:
        return (
            f"The empty board (before the {counted(given, 'move')} given)"
            if given
            else f"Move 0 of {played}: the empty board"
        )
    if move.given:
        return f"Starting position (move {move.number} of {given} given): {move.mark} at {move.at}"
    mark = f" ({move.mark})" if move.actor != move.mark else ""
    return f"Move {move.number} of {played}: {move.actor}{mark} played {move.at}"


def step_count(move: Move | None, given: int, played: int) -> str:
    """The step shown, counted as `heading` counts it: "2 / 5" of the moves played, "3 / 3"
    of the moves given (the heading above says so)."""
    if move is None:
        return f"0 / {played}"
    return f"{move.number} / {given}" if move.given else f"{move.number} / {played}"


@dataclass(frozen=True)
class Tally:
    """One player's moves, judged: how many, how many kept the best outcome, how many were
    best, and the accuracy (0 to 1)."""

    mark: str
    label: str
    played: int
    kept: int
    best: int
    accuracy: float

    @property
    def short(self) -> str:
        """ "67 % (2 of 3 moves kept the best outcome)", to follow "accuracy: "."""
        return f"{percent(self.accuracy)} ({self.kept} of {counted(self.played, 'move')} kept the best outcome)"

    @property
    def text(self) -> str:
        return (
            f"{percent(self.accuracy)} accuracy: {self.kept} of {counted(self.played, 'move')} kept the best outcome,"
            f" {self.best} of them the best move"
        )


def summary(moves: list[Move], players: Players) -> list[Tally]:
    """For X and O, if they moved: their tally, with accuracy from the exact values; the
    player's own first in a game against the AI."""
    judged = [m.judged for m in moves]
    marks = sorted((ttt.X, ttt.O), key=lambda mark: not players.learns(mark))
    return [
        Tally(
            mark,
            players.label(mark),
            len(mine),
            sum(j.verdict != "mistake" and j.verdict != "blunder" for j in mine),
            sum(j.verdict == "best" for j in mine),
            share,
        )
        for mark in marks
        if (mine := [j for j in judged if j.mark == mark]) and (share := accuracy(judged, mark)) is not None
    ]


def percent(share: float) -> str:
    return f"{round(100 * share)} %"


def ended_text(game: Game, players: Players, ending: Ending | None, sharer: bool = False) -> str:
    """How the game ended: as result_text says it, or as Your games says a game resigned or
    left: "Dee resigned or left after 3 moves: Ann won.", "Lost: you left where the AI wins
    with best play, after 4 moves." (told by whoever shares it when `sharer`)."""
    if ending is None:
        return result_text(game, players, sharer)
    moves = counted(game.number - game.given, "move")
    since = f", played on from the position after move {game.given}" if game.given else ""
    if ending.how == LEFT:
        return f"Lost: {'I' if sharer else 'you'} left where the AI wins with best play, after {moves}{since}."
    quit_by, winner = players.subject(ending.mark), players.actor(ending.winner)
    return f"{quit_by} resigned or left after {moves}{since}: {winner} won."


def share_text(game: Game, players: Players, tally: list[Tally], ending: Ending | None = None) -> str:
    """What the share box offers to send: the result and the accuracy, with the players named."""
    result = ended_text(game, players, ending, sharer=True)
    if players.against_ai:
        mine = next((t for t in tally if t.mark == players.you), None)
        accurate = f", with {percent(mine.accuracy)} accuracy" if mine else ""
        against = f"Tic-tac-toe against the AI at {players.level}"
        return f"{against}, every move judged: {result} I played {players.you}{accurate}."
    scores = " ".join(f"{t.label}: {percent(t.accuracy)} accuracy." for t in tally)
    return f"Tic-tac-toe, every move judged: {result} {scores}"


def preview(game: Game, players: Players, ending: Ending | None = None) -> str:
    """The result as the link's preview tells it to whoever receives the link: in the third
    person, as the picture's caption, "X beat the AI (O, Impossible) in 2 moves"; a game
    resigned or left as Your games says it, "Dee (O) resigned or left: Ann (X) won"."""
    ai = players.ai_mark()
    x_name, o_name = (players.names[n] or ("the AI" if mark == ai else "") for n, mark in enumerate(SIDES))
    x_level, o_level = (players.level if mark == ai else "" for mark in SIDES)
    if ending is not None:
        said = plain_text(ended({ttt.X: (x_name, x_level), ttt.O: (o_name, o_level)}, ending))
        return f"{said}, after {counted(game.number - game.given, 'move')}" if ending.how == LEFT else said
    words = sentence(game, (x_name, o_name), players.you or ttt.X, (x_level, o_level))
    if game.winner:
        words += f" in {counted((game.number - game.given + 1) // 2, 'move')}"  # the winner's, as played
    return words


def preview_description(game: Game, players: Players, tally: list[Tally], ending: Ending | None = None) -> str:
    """The preview's longer text, in the same voice: the result and each player's accuracy."""
    said = preview(game, players, ending)
    if players.against_ai:
        scores = " ".join(f"{t.mark}: {percent(t.accuracy)} accuracy." for t in tally if t.mark == players.you)
        return f"Tic-tac-toe against the AI at {players.level}, every move judged: {said}. {scores}"
    scores = " ".join(f"{t.label}: {percent(t.accuracy)} accuracy." for t in tally)
    return f"Tic-tac-toe, every move judged: {said}. {scores}"
