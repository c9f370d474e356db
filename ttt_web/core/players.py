"""Who played a reviewed game: you against the AI at some difficulty, or two people by name.
A review's address says it in its query (`?you=X&ai=easy`, `?x=Ann&o=Bob`), so the review
stays a page that is the same for every visitor with that link; without it, the players are
the marks X and O. Standard library and the game only."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from .game import Game
from .options import DIFFICULTIES, MISTAKE_RATE, name_problem
from .position import SIDES, other

AI = "AI"  # as the game's status line names it


class PlayersError(ValueError):
    """A review's query that does not say who played: the message says why."""


@dataclass(frozen=True)
class Players:
    you: str = ""  # the mark you played against the AI; "" for a game between two people
    ai: str = ""  # the AI's difficulty, with `you`
    names: tuple[str, str] = ("", "")  # X's and O's, between two people; "" for none

    @classmethod
    def of(cls, game: Game) -> Players:
        if game.mode == "ai":
            return cls(you=game.side, ai=game.difficulty)
        return cls(names=game.names)

    @classmethod
    def from_query(cls, args: Mapping[str, str]) -> Players:
        you, ai = args.get("you", ""), args.get("ai", "")
        names = (args.get("x", ""), args.get("o", ""))
        if (you or ai) and any(names):
            raise PlayersError("A review is of a game against the AI or of one between two people, not both.")
        if bool(you) != bool(ai) or (you and (you not in SIDES or ai not in DIFFICULTIES)):
            raise PlayersError("A game against the AI names your side and its level: ?you=X&ai=easy.")
        problem = next(filter(None, map(name_problem, names)), "")
        if problem:
            raise PlayersError(problem)
        return cls(you=you, ai=ai, names=names)

    def query(self) -> dict[str, str]:
        """The query that says who played, for url_for."""
        if self.you:
            return {"you": self.you, "ai": self.ai}
        return {key: name for key, name in zip(("x", "o"), self.names, strict=True) if name}

    @property
    def against_ai(self) -> bool:
        return bool(self.you)

    @property
    def level(self) -> str:
        """The AI's difficulty as the pages name it: "Easy", "Medium", "Impossible"."""
        return self.ai.capitalize()

    def ai_mark(self) -> str:
        return other(self.you) if self.you else ""

    def who(self, mark: str) -> str:
        """The player of `mark` as a sentence names them: "you", "AI", "Ann" or "X"."""
        if self.you:
            return "you" if mark == self.you else AI
        return self.names[SIDES.index(mark)] or mark

    def label(self, mark: str) -> str:
        """The player with their mark, capitalised, for lists: "You (X)", "AI (O, Easy)", "Ann (X)"."""
        if self.you:
            return f"You ({mark})" if mark == self.you else f"AI ({mark}, {self.level})"
        name = self.names[SIDES.index(mark)]
        return f"{name} ({mark})" if name else mark

    def actor(self, mark: str) -> str:
        """The player of `mark` mid-sentence: "you", "the AI", "Ann" or "X"."""
        who = self.who(mark)
        return "the AI" if who == AI else who

    def subject(self, mark: str) -> str:
        """`actor`, to begin a sentence: "You", "The AI", "Ann", "X"."""
        actor = self.actor(mark)
        return actor[:1].upper() + actor[1:]

    def possessive(self, mark: str) -> str:
        """The player of `mark`'s own, as in "in 2 of its moves": "your", "its" or "their"."""
        return {"you": "your", AI: "its"}.get(self.who(mark), "its" if self.who(mark) in SIDES else "their")

    def naming(self, mark: str) -> tuple[str, str, str, str]:
        """The player of `mark` and the other one mid-sentence, then their possessives, as
        core.words' in_words and outlook take them: ("you", "the AI", "your", "its")."""
        them = other(mark)
        return self.actor(mark), self.actor(them), self.possessive(mark), self.possessive(them)

    def learns(self, mark: str) -> bool:
        """Whether the moves of `mark` are a person's, to judge and retry (not the AI's)."""
        return mark != self.ai_mark()

    def on_purpose(self, mark: str) -> bool:
        """Whether a move of `mark` that was not best was the AI's deliberate error."""
        return mark == self.ai_mark() and MISTAKE_RATE[self.ai] > 0

    def purpose(self) -> str:
        """Why the AI's worse moves are played, in one sentence."""
        rate = round(100 * MISTAKE_RATE[self.ai])
        if not rate:
            return f"At {self.level}, the AI plays a best move every time."
        return f"At {self.level}, the AI plays a worse move on purpose on {rate} % of its moves, where it has one."


def review_query(players: Players, given: int = 0) -> dict[str, str]:
    """The query of a link to a game's review: who played, and how many of its moves were
    the position it was played on from (not said when none were)."""
    return {**players.query(), **({"given": str(given)} if given else {})}
