"""Tic-tac-toe with the CS50 AI interface, solved once per process.

A board is a list of three rows, each a list of three cells holding X, O or EMPTY, and no
function here changes the board it is given. The first question about any position
solves the whole game (5,478 reachable positions, a few milliseconds); every later answer
is a table lookup.

Values are from the point of view of the player to move, except `utility`, which is from
X's point of view, as in the assignment. The module imports only the standard library,
and not even `typing`, so that a cold start stays fast.
"""

from __future__ import annotations

from collections import namedtuple

X = "X"
O = "O"  # noqa: E741 - the assignment's name
EMPTY = None

Cell = str | None
Board = list[list[Cell]]
Action = tuple[int, int]

FULL = 0b111_111_111
WIN_MASKS = (
    0b000_000_111, 0b000_111_000, 0b111_000_000,  # rows
    0b001_001_001, 0b010_010_010, 0b100_100_100,  # columns
    0b100_010_001, 0b001_010_100,  # diagonals
)  # fmt: skip
WIN_SCORE = 100  # a win in p plies scores WIN_SCORE - p; a loss, p - WIN_SCORE; a draw, 0


class InvalidMoveError(ValueError):
    """A move that is not legal on the board it was played on."""


class InvalidBoardError(ValueError):
    """Something that is not three rows of three cells holding X, O or EMPTY."""


MoveValue = namedtuple("MoveValue", "outcome plies")
MoveValue.__doc__ = """The value of a move or position under perfect play, for the player to move.

`outcome` is "win", "draw" or "loss"; `plies` counts the half-moves left until the game
ends, the move itself included, when both sides play perfectly.
"""


def initial_state() -> Board:
    """The empty board."""
    return [[EMPTY, EMPTY, EMPTY] for _ in range(3)]


def player(board: Board) -> str:
    """Whose turn it is: X moves first, then the players alternate."""
    x, o = _bits(board)
    return X if x.bit_count() <= o.bit_count() else O


def actions(board: Board) -> set[Action]:
    """Every empty cell as (row, column)."""
    x, o = _bits(board)
    return {divmod(i, 3) for i in _empty_cells(x | o)}


def result(board: Board, action: Action) -> Board:
    """A new board with the mover's mark at `action`; raises InvalidMoveError if illegal."""
    mark = player(board)
    i, j = _check_action(action)
    if board[i][j] is not EMPTY:
        raise InvalidMoveError(f"cell ({i}, {j}) is taken by {board[i][j]}")
    new = [list(row) for row in board]
    new[i][j] = mark
    return new


def winner(board: Board) -> str | None:
    """ "X" or "O" if that player has three in a row, else None."""
    x, o = _bits(board)
    if _has_line(x):
        return X
    if _has_line(o):
        return O
    return None


def winning_line(board: Board) -> list[Action]:
    """The three cells of a completed line, or [] if nobody has won."""
    x, o = _bits(board)
    for mask in WIN_MASKS:
        if x & mask == mask or o & mask == mask:
            return [divmod(n, 3) for n in range(9) if mask >> n & 1]
    return []


def terminal(board: Board) -> bool:
    """True if someone has won or the board is full."""
    x, o = _bits(board)
    return _has_line(x) or _has_line(o) or x | o == FULL


def utility(board: Board) -> int:
    """1 if X has won, -1 if O has won, 0 otherwise: X's point of view."""
    return {X: 1, O: -1, None: 0}[winner(board)]


def score(board: Board) -> int:
    """`utility` under the name CPSC 481's version of the assignment gives it: X's point of view."""
    return utility(board)


def minimax(board: Board) -> Action | None:
    """An optimal move for the player to move, or None if the game is over.

    It keeps the game-theoretic value; among such moves it wins in the fewest plies or,
    when every move loses, holds out the longest; among those it blocks a line the
    opponent could complete next.
    """
    moves = best_moves(board)
    return moves[0] if moves else None


def best_moves(board: Board) -> list[Action]:
    """Every move exactly as good as `minimax`'s, value and blocking both; [] if the game is over."""
    return [divmod(i, 3) for i in _best(*_to_move(board))]


def scores(board: Board) -> dict[Action, MoveValue]:
    """Each legal move's value under perfect play, for the player to move; {} if over."""
    me, them = _to_move(board)
    if _over(me, them):
        return {}
    return {divmod(i, 3): _value(_move_score(me, them, i), me | them) for i in _empty_cells(me | them)}


def evaluate(board: Board) -> MoveValue:
    """The position's value under perfect play, for the player to move.

    A finished game is a loss in 0 plies for the player to move when the other has won,
    and a draw in 0 plies otherwise.
    """
    me, them = _to_move(board)
    return _value(_solve(me, them), me | them)


# Internals. A position is two 9-bit masks, `me` for the player to move and `them` for the
# other; bit 3*i + j is cell (i, j). Scores are integers that order as players prefer:
# fast wins over slow wins over draws over slow losses over fast losses.

_MARK_BITS = {X: (1, 0), O: (0, 1), EMPTY: (0, 0)}
_BITS: dict[tuple[Cell, ...], tuple[int, int]] = {}  # at most 3**9 boards' masks
_scores: dict[int, int] = {}
_best_moves: dict[tuple[int, int], tuple[int, ...]] = {}


def _bits(board: Board) -> tuple[int, int]:
    """(X's mask, O's mask); raises InvalidBoardError for anything but a 3x3 board."""
    try:
        top, middle, bottom = board
        if not len(top) == len(middle) == len(bottom) == 3:
            raise InvalidBoardError(f"not a 3x3 board: {board!r}")
        cells = (*top, *middle, *bottom)
        bits = _BITS.get(cells)
        if bits is None:
            bits = _BITS[cells] = _count_bits(cells)
    except (KeyError, TypeError, ValueError) as exc:
        raise InvalidBoardError(f"not a board: {board!r}") from exc
    return bits


def _count_bits(cells: tuple[Cell, ...]) -> tuple[int, int]:
    x = o = 0
    for n, cell in enumerate(cells):
        bx, bo = _MARK_BITS[cell]
        x |= bx << n
        o |= bo << n
    return x, o


def _to_move(board: Board) -> tuple[int, int]:
    x, o = _bits(board)
    return (x, o) if x.bit_count() <= o.bit_count() else (o, x)


def _check_action(action: object) -> Action:
    if not (isinstance(action, (tuple, list)) and len(action) == 2):
        raise InvalidMoveError(f"not a (row, column) pair: {action!r}")
    i, j = action
    if type(i) is not int or type(j) is not int:
        raise InvalidMoveError(f"row and column must be ints: {action!r}")
    if not (0 <= i <= 2 and 0 <= j <= 2):
        raise InvalidMoveError(f"cell ({i}, {j}) is off the board")
    return i, j


def _has_line(mask: int) -> bool:
    return bool(_LINE[mask])


def _over(me: int, them: int) -> bool:
    return _has_line(me) or _has_line(them) or me | them == FULL


def _empty_cells(filled: int) -> list[int]:
    return [n for n in range(9) if not filled >> n & 1]


def _line_table() -> bytearray:
    """_LINE[mask] is 1 when the cells in mask hold a whole line."""
    table = bytearray(FULL + 1)
    for w in WIN_MASKS:
        free = FULL & ~w
        sub = free
        while True:  # every subset of the free cells, added to the line
            table[w | sub] = 1
            if not sub:
                break
            sub = (sub - 1) & free
    return table


_LINE = _line_table()
_BEST_POSSIBLE = WIN_SCORE - 1  # a win on this very move


def _solve(me: int, them: int) -> int:
    """The position's score for the player to move (negamax, memoized)."""
    key = me << 9 | them
    score = _scores.get(key)
    if score is not None:
        return score
    filled = me | them
    if _LINE[them]:
        score = -WIN_SCORE  # the player who just moved has won
    elif filled == FULL:
        score = 0
    else:
        score = -WIN_SCORE
        for n in range(9):
            bit = 1 << n
            if not filled & bit:
                reply = _solve(them, me | bit)
                mine = -reply + 1 if reply > 0 else -reply - 1 if reply < 0 else 0
                if mine > score:
                    score = mine
                    if score == _BEST_POSSIBLE:
                        break
    _scores[key] = score
    return score


def _move_score(me: int, them: int, n: int) -> int:
    """The score, for the player to move, of playing cell n: the reply's, negated and
    one ply further off."""
    reply = _solve(them, me | 1 << n)
    return -reply + 1 if reply > 0 else -reply - 1 if reply < 0 else 0


def _best(me: int, them: int) -> tuple[int, ...]:
    key = (me, them)
    best = _best_moves.get(key)
    if best is None:
        best = ()
        if not _over(me, them):
            moves = {n: _move_score(me, them, n) for n in _empty_cells(me | them)}
            top = max(moves.values())
            tied = [n for n in moves if moves[n] == top]
            blocking = [n for n in tied if _has_line(them | 1 << n)]
            best = tuple(blocking or tied)
        _best_moves[key] = best
    return best


def _value(score: int, filled: int) -> MoveValue:
    if score > 0:
        return MoveValue("win", WIN_SCORE - score)
    if score < 0:
        return MoveValue("loss", WIN_SCORE + score)
    return MoveValue("draw", 9 - filled.bit_count())
