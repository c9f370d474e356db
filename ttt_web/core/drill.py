"""Small MAX/MIN trees for practising the algorithm by hand: back values up through the
tree, and find the branches alpha-beta prunes. Standard library and the engine only.

A tree is a leaf (its utility, an integer) or a tuple of subtrees; the root is MAX or MIN and
the levels alternate. Written as text it is "((3,12,8),(2,4,6),(14,5,2))". A node is named by
its path from the root: "" is the root, "0" its first child, "01" that child's second.
Trees come from a real tic-tac-toe position (leaves are utilities, 1, 0 or -1) or are
abstract (leaves any small integers, as in the textbook's exercises).
"""

from __future__ import annotations

import functools
import random
import re
from dataclasses import dataclass

from .costs import EMPTY_BOARD, moves, reachable, tree_size
from .position import over, to_move, utility

Tree = int | tuple["Tree", ...]
MAX_NODES = 40
MAX_CHILDREN = 4
MAX_DEPTH = 4
TOKEN = re.compile(r"\(|\)|,|-?\d{1,2}")


class TreeError(ValueError):
    """Text that is not a tree this page takes."""


def parse(text: str) -> Tree:
    """A tree from its text; TreeError unless it is small: ≤ 40 nodes, ≤ 4 children, ≤ 4 levels."""
    tokens = TOKEN.findall(text)
    if not text.strip():
        raise TreeError("No tree was given: write one like ((3,12,8),(2,4,6),(14,5,2)).")
    if "".join(tokens) != text.replace(" ", ""):
        raise TreeError("A tree is written like ((3,12,8),(2,4,6),(14,5,2)): leaves from -99 to 99.")
    if len(tokens) > 4 * MAX_NODES:
        raise TreeError(f"A tree here has at most {MAX_NODES} nodes and {MAX_DEPTH} levels below the root.")
    tree, rest = _parse(tokens, 0)
    if rest != len(tokens) or isinstance(tree, int):
        raise TreeError("A tree is one pair of brackets around its branches, like ((3,12),(2,4)).")
    if len(paths(tree)) > MAX_NODES or depth(tree) > MAX_DEPTH:
        raise TreeError(f"A tree here has at most {MAX_NODES} nodes and {MAX_DEPTH} levels below the root.")
    return tree


def _parse(tokens: list[str], at: int) -> tuple[Tree, int]:
    if at >= len(tokens):
        raise TreeError("The tree's text ends too soon.")
    if tokens[at] != "(":
        if tokens[at] in "),":
            raise TreeError("A branch is missing between brackets or commas.")
        return int(tokens[at]), at + 1
    return _parse_node(tokens, at + 1)


def _parse_node(tokens: list[str], at: int) -> tuple[Tree, int]:
    """The branches of a node whose bracket opened just before `at`, up to its closing bracket."""
    children = []
    while True:
        child, at = _parse(tokens, at)
        children.append(child)
        following = tokens[at] if at < len(tokens) else ""
        if following == ",":
            at += 1
        elif following == ")":
            if len(children) > MAX_CHILDREN:
                raise TreeError(f"Each node has 1 to {MAX_CHILDREN} branches, in brackets, separated by commas.")
            return tuple(children), at + 1
        elif following:
            raise TreeError("Branches are separated by commas, and a leaf is a whole number from -99 to 99.")
        else:
            raise TreeError("The tree's text ends too soon: a bracket is left open.")


def text(tree: Tree) -> str:
    return str(tree) if isinstance(tree, int) else "(" + ",".join(text(c) for c in tree) + ")"


def depth(tree: Tree) -> int:
    return 0 if isinstance(tree, int) else 1 + max(depth(c) for c in tree)


def paths(tree: Tree, path: str = "") -> list[str]:
    """Every node's path, parents before children, children left to right."""
    if isinstance(tree, int):
        return [path]
    return [path, *(p for n, child in enumerate(tree) for p in paths(child, path + str(n)))]


def at(tree: Tree, path: str) -> Tree:
    for n in path:
        if isinstance(tree, int):
            raise IndexError(f"no node {path!r}: a leaf has no children")
        tree = tree[int(n)]
    return tree


def values(tree: Tree, maximizing: bool, path: str = "") -> dict[str, int]:
    """Every node's minimax value, by path."""
    if isinstance(tree, int):
        return {path: tree}
    found: dict[str, int] = {}
    for n, child in enumerate(tree):
        found.update(values(child, not maximizing, path + str(n)))
    below = [found[path + str(n)] for n in range(len(tree))]
    found[path] = max(below) if maximizing else min(below)
    return found


@dataclass(frozen=True)
class Visit:
    """A node as alpha-beta reaches it: the window on entry and what it returns."""

    path: str
    alpha: float
    beta: float
    returned: int


def alphabeta(tree: Tree, maximizing: bool) -> tuple[list[Visit], set[str]]:
    """Alpha-beta, children left to right: the nodes it visits in order, and the paths of the
    nodes it never visits (each pruned branch leads to one, and all below it count too)."""
    visits: list[Visit] = []
    _alphabeta(tree, maximizing, "", -float("inf"), float("inf"), visits)
    seen = {v.path for v in visits}
    return visits, {p for p in paths(tree) if p not in seen}


def _alphabeta(tree: Tree, maximizing: bool, path: str, alpha: float, beta: float, visits: list[Visit]) -> int:
    index = len(visits)
    visits.append(Visit(path, alpha, beta, 0))
    if isinstance(tree, int):
        visits[index] = Visit(path, alpha, beta, tree)
        return tree
    entry, v = (alpha, beta), -float("inf") if maximizing else float("inf")
    for n, child in enumerate(tree):
        got = _alphabeta(child, not maximizing, path + str(n), alpha, beta, visits)
        v = max(v, got) if maximizing else min(v, got)
        if (maximizing and v >= beta) or (not maximizing and v <= alpha):
            break
        alpha, beta = (max(alpha, v), beta) if maximizing else (alpha, min(beta, v))
    visits[index] = Visit(path, *entry, int(v))
    return int(v)


def random_tree(rng: random.Random) -> Tree:
    """An abstract tree of 2 or 3 levels, 2 or 3 branches a node, leaves from -9 to 20."""
    levels = rng.choice((2, 3))

    def grow(level: int) -> Tree:
        if level == levels:
            return rng.randint(-9, 20)
        return tuple(grow(level + 1) for _ in range(rng.choice((2, 3))))

    return grow(0)


def position_tree(position: str) -> tuple[Tree, dict[str, str]]:
    """The game tree below a live position (leaves: the finished games' utilities), and each
    node's position by path."""
    boards = {}

    def grow(here: str, path: str) -> Tree:
        boards[path] = here
        if over(here):
            return utility(here)
        return tuple(grow(child, path + str(n)) for n, (_, child) in enumerate(moves(here)))

    return grow(position, ""), boards


@functools.cache
def small_positions() -> tuple[str, ...]:
    """Live positions whose game tree fits the page: 3 empty cells, or 4 with at most 20 nodes."""
    found = []
    for p in sorted(reachable(EMPTY_BOARD)):
        if p.count(".") in (3, 4) and not over(p) and tree_size(p) <= 20:
            found.append(p)
    return tuple(found)


def maximizing_at(position: str) -> bool:
    return to_move(position) == "X"
