"""The code the trace steps through, line 1 first: at the root the Python `minimax(board)` the
assignment asks for, below it MAX-VALUE and MIN-VALUE as the lecture writes them, with α and β
when pruning is on."""

from __future__ import annotations

ROOT, MAX, MIN = "minimax", "MAX-VALUE", "MIN-VALUE"


def code(function: str, maximizing: bool, pruning: bool) -> tuple[str, ...]:
    """The lines of one function, line 1 first: the lecture's pseudocode, or at the root the
    Python the assignment asks for."""
    return python_minimax(maximizing, pruning) if function == ROOT else pseudocode(maximizing, pruning)


def python_minimax(maximizing: bool, pruning: bool) -> tuple[str, ...]:
    """The root: the assignment's `minimax(board)`, calling the other side's value function."""
    other, start, better = ("min_value", "-math.inf", ">") if maximizing else ("max_value", "math.inf", "<")
    window = ("best, math.inf" if maximizing else "-math.inf, best") if pruning else ""
    call = f"{other}(result(board, action){', ' + window if window else ''})"
    side = "X is MAX" if maximizing else "O is MIN"
    return (
        "def minimax(board):",
        "    if terminal(board):",
        "        return None",
        f"    best_action, best = None, {start}  # {side}",
        "    for action in actions(board):",
        f"        v = {call}",
        f"        if v {better} best:",
        "            best_action, best = action, v",
        "    return best_action",
    )


def pseudocode(maximizing: bool, pruning: bool) -> tuple[str, ...]:
    """MAX-VALUE or MIN-VALUE as the lecture writes it, with α and β when pruning."""
    name, other, start, pick = (MAX, MIN, "−∞", "MAX") if maximizing else (MIN, MAX, "∞", "MIN")
    args = ", α, β" if pruning else ""
    lines = [
        f"function {name}(state{args}):",
        "    if TERMINAL(state):",
        "        return UTILITY(state)",
        f"    v = {start}",
        "    for each action in ACTIONS(state):",
        f"        v = {pick}(v, {other}(RESULT(state, action){args}))",
    ]
    if not pruning:
        return (*lines, "    return v")
    cut, keep = ("v ≥ β", "α = MAX(α, v)") if maximizing else ("v ≤ α", "β = MIN(β, v)")
    return (*lines, f"        if {cut}: return v", f"        {keep}", "    return v")
