"""Values in words: what a move leads to under perfect play, and how a game ended, said the
way every page says it (each player's own moves counted, never the plies of both); and the
line under the board, for whoever reads it (`Cast`, `status_lines`)."""

from __future__ import annotations

from dataclasses import dataclass

from . import tictactoe as ttt
from .game import Game
from .players import Players
from .position import SIDES, Outcome, action_name, action_of, cell_name, mark_of, other, winner_of

MARKS = Players()  # nobody named: the players are X and O
SIGNED = {1: "1", 0: "0", -1: "\N{MINUS SIGN}1"}  # a utility as the pages write it


def rank(value: ttt.MoveValue) -> tuple[int, int]:
    """Orders values as the player who moves prefers them: fast wins first, fast losses last."""
    if value.outcome == "win":
        return (2, -value.plies)
    return (1, 0) if value.outcome == "draw" else (0, value.plies)


def in_words(value: ttt.MoveValue, me: str, them: str, mine: str = "", theirs: str = "") -> str:
    """A move's value in the words of its player `me` ("you", "the AI", a name or a mark),
    against `them`: "you win now", "AI wins on its next move", "X wins in 2 of its moves".
    `mine` and `theirs` are the two players' possessives ("your", "its", "their"); by default
    the one each name calls for. Each player's own moves are counted, not the plies of both."""
    if value.outcome == "draw":
        return "draw with best play"
    won = value.outcome == "win"
    who, whose = (me, mine or _their(me)) if won else (them, theirs or _their(them))
    moves = (value.plies + 1) // 2 if won else value.plies // 2
    wins = "you win" if who == "you" else f"{who} wins"
    if moves == 1:
        return f"{wins} now" if won else f"{wins} on {whose} next move"
    return f"{wins} in {moves} of {whose} moves"


def outlook(value: ttt.MoveValue, me: str, them: str = "", mine: str = "", theirs: str = "") -> str:
    """What a move of `me` leads to under perfect play, counted in moves of the player who
    wins, to follow "which" or "it": "holds the draw", "wins in 2 of its moves", "loses: O wins
    on its next move". `me` is a mark unless `them` names the other player; the possessives
    are as in_words takes them."""
    if value.outcome == "draw":
        return "holds the draw"
    if value.outcome == "win":
        moves = (value.plies + 1) // 2
        return "wins at once" if moves == 1 else f"wins in {moves} of {mine or _their(me)} moves"
    return f"loses: {in_words(value, me, them or other(me), mine, theirs)}"


def better_move(best: ttt.MoveValue, played: ttt.MoveValue, mark: str, naming: tuple[str, str, str, str]) -> str:
    """What a retry asks of the player of `mark`, whose move was worse than the `best`, to
    follow "Find a better move: ": "one that holds the draw"; when the move played won too,
    "one that wins sooner: it wins at once"; when every move loses, one that loses later, the
    loss said as a utility (X's side). `naming` is as in_words takes its players."""
    said = outlook(best, *naming)
    if best.outcome == played.outcome == "win":
        return f"one that wins sooner: it {said}"
    if best.outcome != "loss":
        return f"one that {said}"
    utility = Outcome.LOSS.for_x(mark)
    return (
        f"one that loses later. Every move here loses with best play (utility {SIGNED[utility]}: {ending(utility)}),"
        f" but the best holds out until {in_words(best, *naming)}"
    )


def _their(who: str) -> str:
    return "your" if who == "you" else "its" if who in ("AI", ttt.X, ttt.O) else "their"


def ending(utility: int) -> str:
    """A value in X's terms (a utility) in words: "X wins", "draw" or "O wins"."""
    winner = winner_of(utility)
    return f"{winner} wins" if winner else "draw"


def result_text(game: Game, players: Players = MARKS, sharer: bool = False) -> str:
    """How the game ended, the winner named as `players` name them: "Ann won in 3 of their
    moves (5 in all).", "A draw.", or how many moves a game not over has; told by the one
    who shares it ("I won in 3 of my moves") when `sharer`. Only the moves played count, not
    the `given` ones of the position a game was played on from."""
    played = game.number - game.given  # the moves before were its starting position
    since = f" played on from the position after move {game.given}" if game.given else ""
    if not game.over:
        return f"unfinished after {counted(played, 'move')}{since}."
    if not game.winner:
        return f"A draw{',' if since else ''}{since}."
    own = (played + 1) // 2  # the winner moved last
    who, whose = players.subject(game.winner), players.possessive(game.winner)
    if sharer and game.winner == players.you:
        who, whose = "I", "my"
    return f"{who} won in {own} of {whose} moves ({played} in all{',' if since else ''}{since})."


@dataclass(frozen=True)
class Cast:
    """Who plays, as the line under the board speaks of them: `names` are X's player and O's
    mid-sentence ("you", "the AI", "Ann", "your friend", or the mark when nobody named them);
    `you` is the reader's mark ("" for a visitor watching, or for two friends who share one
    screen: they read the line with each name's mark); `ai` is the AI's mark, against the AI;
    `shared` says two friends take turns at one screen."""

    names: tuple[str, str]
    you: str = ""
    ai: str = ""
    shared: bool = False

    @classmethod
    def of_game(cls, game: Game) -> Cast:
        """The players of a game on one screen: you and the AI, or two friends."""
        if game.mode == "friend":
            names = tuple(given or mark for given, mark in zip(game.names, SIDES, strict=True))
            return cls((names[0], names[1]), shared=True)
        you_first = game.side == SIDES[0]
        return cls(("you", "the AI") if you_first else ("the AI", "you"), you=game.side, ai=other(game.side))

    def name(self, mark: str) -> str:
        """The player of `mark` mid-sentence, with the mark to a reader who plays neither side:
        "Ann (X)"."""
        given = self.names[SIDES.index(mark)]
        return given if self.you or given == mark else f"{given} ({mark})"


def status_lines(game: Game, cast: Cast) -> tuple[str, ...]:
    """The line under the board, a sentence each: the move just played ("Ann played b2.") and
    whose turn it is, or how the game ended."""
    mover = mark_of(game.number - 1) if game.moves else ""
    moved = f"{_cap(cast.name(mover))} played {cell_name(game.moves[-1])}" if mover else ""
    if game.over:
        return (ended(cast, game.winner, moved if mover == cast.ai else ""),)
    if game.number == game.given > 0:  # nothing played since the position it started from
        moved = "You play on from this position" if cast.you else "Play on from this position"
    return (f"{moved}.", _turn(game, cast)) if moved else (_turn(game, cast),)


def _turn(game: Game, cast: Cast) -> str:
    """Whose turn it is. Your mark is said, but for the AI's opponent once the AI has moved in
    this game: you chose it for the whole game."""
    if game.to_move == cast.you:
        return "Your turn." if cast.ai and game.number > game.given else f"Your turn: place {cast.you}."
    if cast.you:
        return f"Waiting for {cast.name(game.to_move)} to move."
    return f"{_cap(cast.name(game.to_move))} to move."


def ended(cast: Cast, winner: str | None, final: str = "") -> str:
    """How a game ended for the reader, `final` being the last move as told when it is the AI's
    ("The AI played b2"): "You won!", "The AI played b2 and won.", "Ann won.", "It's a draw.";
    two friends at one screen read "Ann (X) wins!"."""
    if winner is None:
        return f"{final}: it's a draw." if final else "It's a draw."
    if winner == cast.you:
        return "You won!"
    if final:
        return f"{final} and won."
    if cast.shared:
        return f"{_cap(cast.name(winner))} wins!"
    return f"{_cap(cast.names[SIDES.index(winner)])} won."


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def either(names: list[str]) -> str:
    """Alternatives, cells most often, said as one: "a2", "a2 or b2", "a2, b2, a3 or c3"."""
    *first, last = names
    return f"{', '.join(first)} or {last}" if first else last


def which(names: list[str]) -> str:
    """What opens a clause about the alternatives `either` says: "which" after one, "each of
    which" after several ("b1 or b3, each of which holds the draw")."""
    return "each of which" if len(names) > 1 else "which"


def counted(count: int, noun: str) -> str:
    """A number of things, the noun in the plural but for one: "1 move", "2 moves"."""
    return f"{count} {noun}{'' if count == 1 else 's'}"


def ai_says(game: Game) -> str | None:
    """After the AI moves (teach mode says it): what its move did and what it expects from
    here, in moves of its own."""
    if not (game.ai_side and game.number > game.given and not game.over and game.humans_turn):
        return None
    return ai_move_words(game.at(game.number - 1).board, action_of(game.moves[-1]))


def ai_move_words(before: ttt.Board, action: ttt.Action) -> str:
    """What the AI says of its move `action` on `before`, the game not over after it: "I
    slipped" only when the move lowered the outcome it had; when every move lost, that it
    did, and whether this one holds out longest; then what best play leads to from here."""
    had, got = ttt.evaluate(before), ttt.scores(before)[action]  # for the AI
    now = _ai_expects(got)
    if Outcome(got.outcome).sign < Outcome(had.outcome).sign:
        return f"I slipped: {now[:1].lower()}{now[1:]}"
    if had.outcome != "loss":
        return now
    if had.plies <= 2:  # you win on your next move, whatever I play
        return f"Every move loses here: {now[:1].lower()}{now[1:]}"
    held = "I hold out longest with" if got == had else "I could have held out longer than with"
    return f"Every move loses here; {held} {action_name(action)}. {now}"


def _ai_expects(value: ttt.MoveValue) -> str:
    """Best play after the AI's move worth `value` to it, in a sentence."""
    if value.outcome == "win":
        mine = (value.plies + 1) // 2 - 1  # its moves after this one
        if mine == 1:  # "can": an AI below Impossible may still not take it
            return "I can win on my next move, whatever you play."
        return f"I can force a win in {mine} of my moves."
    if value.outcome == "loss":
        yours = value.plies // 2
        return "You can win right now." if yours == 1 else f"You can force a win in {yours} of your moves."
    return "Best play from here is a draw."
