"""An independent brute-force judge for the engine, sharing no code with it.

Positions are 9-character strings of "X", "O" and "." read row by row. Values are from
X's point of view, as the assignment's `utility`, and the judge spells out minimax with
X maximizing and O minimizing, then measures how many plies the game lasts when the side
that wins hurries and the side that loses holds out.
"""

from functools import cache

ROWS = [(0, 1, 2), (3, 4, 5), (6, 7, 8)]
COLS = [(0, 3, 6), (1, 4, 7), (2, 5, 8)]
DIAGS = [(0, 4, 8), (2, 4, 6)]


def to_move(pos: str) -> str:
    return "O" if pos.count("X") > pos.count("O") else "X"


def won_by(pos: str) -> str | None:
    for a, b, c in ROWS + COLS + DIAGS:
        if pos[a] == pos[b] == pos[c] != ".":
            return pos[a]
    return None


def is_over(pos: str) -> bool:
    return won_by(pos) is not None or "." not in pos


def unreachable_reason(pos: str) -> str:
    """What no game reaching `pos` comes down to, worked out from counts and lines (for a board
    not in `reachable()`)."""
    xs, os_ = pos.count("X"), pos.count("O")
    x_line = won_by(pos.replace("O", ".")) == "X"
    o_line = won_by(pos.replace("X", ".")) == "O"
    if os_ > xs:
        return "O has more marks than X"
    if xs > os_ + 1:
        return "more marks than O"
    if x_line and o_line:
        return "Both X and O have three in a row"
    return "X has three in a row, but O has as many marks" if x_line else "O has three in a row, but X has a mark more"


def children(pos: str) -> dict[int, str]:
    mark = to_move(pos)
    return {i: pos[:i] + mark + pos[i + 1 :] for i, c in enumerate(pos) if c == "."}


@cache
def value(pos: str) -> tuple[int, int]:
    """(utility for X, plies to the end) under strongly optimal play by both sides."""
    if is_over(pos):
        return {"X": 1, "O": -1, None: 0}[won_by(pos)], 0
    u, plies = value(children(pos)[optimal_moves(pos)[0]])
    return u, plies + 1


@cache
def optimal_moves(pos: str) -> list[int]:
    """Cells that keep the minimax value, win soonest and, when losing, lose latest."""
    kids = {i: value(child) for i, child in children(pos).items()}
    outcomes = [u for u, _ in kids.values()]
    best = max(outcomes) if to_move(pos) == "X" else min(outcomes)
    keep = {i: plies for i, (u, plies) in kids.items() if u == best}
    mover_wins = best == (1 if to_move(pos) == "X" else -1)
    mover_loses = best == (-1 if to_move(pos) == "X" else 1)
    if mover_wins:
        target = min(keep.values())
    elif mover_loses:
        target = max(keep.values())
    else:
        target = next(iter(keep.values()))
    return sorted(i for i, plies in keep.items() if plies == target)


def blocks(pos: str, cell: int) -> bool:
    """True if the opponent of the player to move would complete a line at `cell`."""
    them = "O" if to_move(pos) == "X" else "X"
    return won_by(pos[:cell] + them + pos[cell + 1 :]) == them


def move_outcome(pos: str, cell: int) -> tuple[str, int]:
    """("win" | "draw" | "loss", plies) of playing `cell`, for the player to move."""
    u, plies = value(children(pos)[cell])
    sign = 1 if to_move(pos) == "X" else -1
    return {1: "win", 0: "draw", -1: "loss"}[u * sign], plies + 1


def reachable() -> set[str]:
    seen, todo = set(), ["." * 9]
    while todo:
        pos = todo.pop()
        if pos not in seen:
            seen.add(pos)
            if not is_over(pos):
                todo.extend(children(pos).values())
    return seen


def minimax(pos: str) -> int:
    """Plain minimax value for X (1, 0, -1), no depth."""
    return value(pos)[0]


def alphabeta(pos: str, alpha: float, beta: float, visited: list[str], pruned: list[str]) -> int:
    """Textbook alpha-beta, cells in order 0-8; appends every position it calls itself on to
    `visited` and every child it never calls on to `pruned`, both in the order met."""
    visited.append(pos)
    if is_over(pos):
        return {"X": 1, "O": -1, None: 0}[won_by(pos)]
    kids = list(children(pos).values())
    best = -2 if to_move(pos) == "X" else 2
    for n, kid in enumerate(kids):
        v = alphabeta(kid, alpha, beta, visited, pruned)
        if to_move(pos) == "X":
            best, alpha = max(best, v), max(alpha, v)
        else:
            best, beta = min(best, v), min(beta, v)
        if alpha >= beta:
            pruned.extend(kids[n + 1 :])
            break
    return best


def calls(pos: str) -> list[str]:
    """The positions plain minimax is called on, in the order of the calls."""
    order = [pos]
    if not is_over(pos):
        for kid in children(pos).values():
            order.extend(calls(kid))
    return order


def alphabeta_tree(pos: str, alpha: float, beta: float) -> dict:
    """Textbook alpha-beta, cells in order 0-8, as a tree: each node's position, what it
    returns, whether some move of its own was never searched (`cut`), and its searched
    children in order."""
    if is_over(pos):
        return {"pos": pos, "returned": {"X": 1, "O": -1, None: 0}[won_by(pos)], "cut": False, "children": []}
    kids, searched = list(children(pos).values()), []
    best = -2 if to_move(pos) == "X" else 2
    for kid in kids:
        node = alphabeta_tree(kid, alpha, beta)
        searched.append(node)
        if to_move(pos) == "X":
            best, alpha = max(best, node["returned"]), max(alpha, node["returned"])
        else:
            best, beta = min(best, node["returned"]), min(beta, node["returned"])
        if alpha >= beta:
            break
    return {"pos": pos, "returned": best, "cut": len(searched) < len(kids), "children": searched}


def preorder(node: dict) -> list[dict]:
    return [node, *(n for child in node["children"] for n in preorder(child))]


def fully_searched(node: dict) -> bool:
    """True when neither the node nor any node below it left a move unsearched."""
    return not node["cut"] and all(fully_searched(child) for child in node["children"])
