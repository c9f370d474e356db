"""Practise the algorithm: back up values through a small MAX/MIN tree node by node, or tick
the branches alpha-beta prunes; graded at once, each answer marked right or wrong and kept for
another try, the right ones with the part of the tree that decides each only when asked.
Trees from real positions or abstract ones; plain forms, no session."""

from __future__ import annotations

import random
import string
from typing import NoReturn

from flask import Blueprint, Response, abort, redirect, render_template, request

from ..core import drill
from ..core.costs import reachable
from ..core.position import EMPTY_BOARD, action_of, over
from ..web.caching import PUBLIC_FOR_A_DAY
from ..web.errors import lost_page
from ..web.urls import url_for
from . import words
from .path import STEPS as PATH_STEPS

bp = Blueprint("drill", __name__, url_prefix="/practice")
rng = random.SystemRandom()
MODES = ("backup", "prune")
TITLES = {"backup": "back up the values", "prune": "alpha-beta pruning"}


@bp.get("/<mode>")
def ask(mode: str):
    checked_mode(mode)
    if "tree" not in request.args and "position" not in request.args:
        keep = {"from": "path"} if from_path() else {}
        keep.update(drawn(mode, request.args.get("kind") == "abstract"))
        return redirect(url_for("learn.drill.ask", mode=mode, **keep), 303)
    return page(mode, request.args, graded="check" in request.args)  # answers in the address: reload or share it


DRAWS = 32  # trees drawn for the prune drill until one where alpha-beta prunes something


def drawn(mode: str, abstract: bool) -> dict[str, str]:
    """A random tree for the drill: abstract or from a position. The prune drill draws again
    (at most DRAWS times) while alpha-beta would prune nothing, as about 1 in 4 trees, abstract or
    from a position, do; the last draw stands if none prunes (the page then says so)."""
    for _ in range(DRAWS):
        tree, maximizing, found = draw(abstract)
        if mode != "prune" or drill.alphabeta(tree, maximizing)[1]:
            break
    return found


def draw(abstract: bool) -> tuple[drill.Tree, bool, dict[str, str]]:
    """One random tree, whether its root is MAX, and the address field that names it."""
    if abstract:
        tree = drill.random_tree(rng)
        return tree, True, {"tree": drill.text(tree)}
    position = rng.choice(drill.small_positions())
    return drill.position_tree(position)[0], drill.maximizing_at(position), {"position": position}


def from_path() -> bool:
    """Whether the drill was opened from its step of the path (`from=path`): once answered,
    it then leads on to the path's next step."""
    return request.args.get("from") == "path"


def checked_mode(mode: str) -> None:
    if mode not in MODES:
        links = [(f"A drill: {TITLES[each]}", url_for("learn.drill.ask", mode=each)) for each in MODES]
        links.append(("For students: the path", url_for("learn.index")))
        abort(lost_page(404, "No such drill", "The drills are backup (values) and prune (alpha-beta).", links))


def page(mode: str, fields, graded: bool = False) -> Response:
    tree, boards, maximizing = exercise(mode, fields)
    nodes = named(tree, boards, maximizing)
    values = drill.values(tree, maximizing)
    visits, pruned = drill.alphabeta(tree, maximizing)
    refused = unreadable(mode, fields, nodes) if graded else {}
    graded = graded and not refused  # a box that holds no number: the form again, each such box said
    marks = answers(mode, fields, nodes, values, pruned) if graded else {}
    html = render_template(
        "learn/practice.html",
        mode=mode,
        title=TITLES[mode],
        tree_text=drill.text(tree) if not boards else "",
        position=boards.get("", ""),
        nodes=nodes,
        values=values,
        pruned=pruned,
        nothing_pruned=mode == "prune" and not pruned,
        marks=marks,
        graded=graded,
        **answers_shown(mode, fields, graded),
        visits={v.path: v for v in visits},
        **verdicts(mode, marks, nodes, values, visits, pruned),
        **form_state(mode, fields, refused),
    )
    cached = "no-store" if graded or refused else PUBLIC_FOR_A_DAY
    return Response(html, 400 if refused else 200, headers={"Cache-Control": cached})


def verdicts(mode, marks, nodes, values, visits, pruned) -> dict:
    """How many answers are right, why each wrong one is wrong, and the nodes that decide it."""
    wrong = [path for path, (_, right) in marks.items() if not right]
    return {
        "right": len(marks) - len(wrong),
        "why": {path: reason(mode, path, nodes, values, visits, pruned) for path in wrong},
        "deciding": {path if mode == "backup" else path[:-1] for path in wrong},
    }


def answers_shown(mode: str, fields, graded: bool) -> dict:
    """Whether a check shows the right answers and why (only when `show` asks, as step 1 does),
    else the link that shows them: at first each answer is only marked right or wrong."""
    shown = graded and "show" in fields
    return {"show_answers": shown, "show_link": answers_link(mode, fields) if graded and not shown else ""}


def answers_link(mode: str, fields) -> str:
    """This check again, with the right answers and what decides each wrong one shown."""
    kept = {
        k: v for k, v in fields.items() if k in ("check", "from", "position", "tree") or k.startswith(("v-", "cut-"))
    }
    return url_for("learn.drill.ask", mode=mode, **kept, show=1) + "#drill-score"


def form_state(mode: str, fields, refused: dict[str, str]) -> dict:
    """What the form keeps (the boxes as typed, those refused and why) and its way on along the path."""
    return {
        "typed": {k: v[:9] for k, v in fields.items() if k.startswith("v-")},
        "ticked": {k for k, v in fields.items() if k.startswith("cut-") and v == "on"},
        "refused": refused,
        "accepted": words.ACCEPTED,
        "from_path": from_path(),
        "path_step": PATH_STEPS[1 if mode == "backup" else 4],
        "w": words,
    }


def unreadable(mode: str, fields, nodes: dict[str, dict]) -> dict[str, str]:
    """The value boxes (backup) whose text is no whole number, each with what it accepts."""
    if mode != "backup":
        return {}
    boxes = (f"v-{path or 'root'}" for path, node in nodes.items() if not node["leaf"])
    typed = {box: fields.get(box, "") for box in boxes}
    return {box: words.not_a_number(text) for box, text in typed.items() if words.whole_number(text) is None}


def exercise(mode: str, fields) -> tuple[drill.Tree, dict[str, str], bool]:
    if fields.get("position"):
        position = fields["position"]
        if position not in reachable(EMPTY_BOARD) or over(position) or position.count(".") > 4:
            refuse(mode, "Not a position for this drill", "It takes a game not yet over with at most 4 empty cells.")
        tree, boards = drill.position_tree(position)
        if len(boards) > drill.MAX_NODES:
            said = f"This position's tree has more than {drill.MAX_NODES} nodes: too many to do by hand."
            refuse(mode, "Too large a tree for this drill", said)
        return tree, boards, drill.maximizing_at(position)
    try:
        return drill.parse(fields.get("tree", "")), {}, True
    except drill.TreeError as error:
        refuse(mode, "Not a tree for this drill", str(error))


def refuse(mode: str, heading: str, said: str) -> NoReturn:
    """A drill's address that holds no exercise: what is wrong, and the ways on from there."""
    links = [
        (f"A new drill: {TITLES[mode]}", url_for("learn.drill.ask", mode=mode)),
        ("For students: the path", url_for("learn.index")),
    ]
    abort(lost_page(400, heading, said, links))


def named(tree: drill.Tree, boards: dict[str, str], maximizing: bool) -> dict[str, dict]:
    """Each node by path: its name (A, B, ... for inner nodes; B1, B2 for leaves), role, depth,
    children, leaf value, board and the action (i, j) that reached it."""
    nodes: dict[str, dict] = {}
    # node names skip O and X (either case): those are the sides
    letters = (letter for letter in string.ascii_uppercase + string.ascii_lowercase if letter not in "OXox")
    for path in drill.paths(tree):
        here = drill.at(tree, path)
        leaf = isinstance(here, int)
        board = boards.get(path)
        nodes[path] = {
            "path": path, "name": node_name(nodes, path, leaf, letters), "leaf": leaf,
            "role": "" if leaf else node_role(path, maximizing), "depth": len(path),
            "children": [] if isinstance(here, int) else [path + str(n) for n in range(len(here))],
            "value": here if leaf else None, "board": board, "action": reached_by(boards, path, board),
        }  # fmt: skip
    return nodes


def node_name(nodes: dict[str, dict], path: str, leaf: bool, letters) -> str:
    """A leaf is named after its parent and place (B1, B2); any other node takes the next letter."""
    parent = nodes.get(path[:-1]) if path else None
    return f"{parent['name']}{int(path[-1]) + 1}" if leaf and parent else next(letters)


def node_role(path: str, maximizing: bool) -> str:
    return "MAX" if maximizing == (len(path) % 2 == 0) else "MIN"


def reached_by(boards: dict[str, str], path: str, board: str | None) -> tuple[int, int] | None:
    return played(boards[path[:-1]], board) if board and path else None


def played(before: str, after: str) -> tuple[int, int]:
    return action_of(next(n for n in range(9) if before[n] != after[n]))


def answers(mode, fields, nodes, values, pruned) -> dict[str, tuple[str, bool]]:
    """(what the student said, whether it is right) for each node asked about; every value box
    holds a whole number (`unreadable` is empty)."""
    marks = {}
    for path, node in nodes.items():
        if mode == "backup" and not node["leaf"]:
            said = words.whole_number(fields.get(f"v-{path or 'root'}", ""))
            marks[path] = (words.number(said), said == values[path])
        elif mode == "prune" and path:
            ticked = fields.get(f"cut-{path}") == "on"
            marks[path] = ("pruned" if ticked else "searched", ticked == (path in pruned))
    return marks


def reason(mode, path, nodes, values, visits, pruned) -> str:
    """Why the right answer at `path` is right: the part of the tree that decides it."""
    if mode == "backup":
        return backed_up(nodes[path], values)
    parent = nodes[path[:-1]]
    if path[:-1] in pruned:
        return f"{parent['name']} itself is never visited, so nothing below it is."
    if path not in pruned:
        return f"{nodes[path]['name']} is visited: no earlier sibling's value made {parent['name']} stop before it."
    return cut_off(path, nodes, {v.path: v for v in visits})


def backed_up(node: dict, values: dict[str, int]) -> str:
    """Why an inner node has its value: the largest (MAX) or smallest (MIN) of its children's."""
    path = node["path"]
    below = ", ".join(words.number(values[c]) for c in node["children"])
    pick = "largest" if node["role"] == "MAX" else "smallest"
    worth = f"{node['role']}({below}) = {words.number(values[path])}"
    return f"{node['name']} is {node['role']}: it takes the {pick} of its children's values, {worth}."


def cut_off(path: str, nodes: dict[str, dict], seen: dict) -> str:
    """Why the node at `path` is pruned: its parent's window on entry and its earlier siblings' values."""
    parent = nodes[path[:-1]]
    entry = seen[path[:-1]]
    done = [c for c in parent["children"] if c in seen]
    last = words.number(seen[done[-1]].returned)
    got = ", ".join(f"{nodes[c]['name']} returned {words.number(seen[c].returned)}" for c in done)
    if parent["role"] == "MAX":
        test = f"v = {last} ≥ β = {words.number(entry.beta)}"
    else:
        test = f"v = {last} ≤ α = {words.number(entry.alpha)}"
    window = f"α = {words.number(entry.alpha)}, β = {words.number(entry.beta)} on entry"
    where = f"At {parent['name']} ({parent['role']}, {window})"
    return f"{where}: {got}; then {test}, so it stops and {nodes[path]['name']} is pruned."
