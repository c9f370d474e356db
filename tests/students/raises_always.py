"""A CS50 tic-tac-toe whose result tests the action against the function `actions` instead
of `actions(board)`, so it raises TypeError on every move, valid or not: its refusals of
invalid moves prove nothing (tests/test_grade_students.py)."""

import functools

X = "X"
O = "O"  # noqa: E741 - the assignment's name
EMPTY = None


def initial_state():
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board):
    x = sum(row.count(X) for row in board)
    o = sum(row.count(O) for row in board)
    return X if x == o else O


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    if action not in actions:  # actions, not actions(board): a TypeError on every move
        raise ValueError("invalid action")
    i, j = action
    new = [list(row) for row in board]
    new[i][j] = player(board)
    return new


def winner(board):
    lines = [list(row) for row in board]
    lines += [[board[i][j] for i in range(3)] for j in range(3)]
    lines += [[board[i][i] for i in range(3)]]
    lines += [[board[i][2 - i] for i in range(3)]]
    for line in lines:
        if line[0] is not EMPTY and line[0] == line[1] == line[2]:
            return line[0]
    return None


def terminal(board):
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    w = winner(board)
    return 1 if w == X else -1 if w == O else 0


@functools.cache
def value(key):
    board = [list(row) for row in key]
    if terminal(board):
        return utility(board)
    values = [value(freeze(result(board, action))) for action in actions(board)]
    return max(values) if player(board) == X else min(values)


def freeze(board):
    return tuple(tuple(row) for row in board)


def minimax(board):
    if terminal(board):
        return None
    choices = sorted(actions(board))
    pick = max if player(board) == X else min
    return pick(choices, key=lambda action: value(freeze(result(board, action))))
