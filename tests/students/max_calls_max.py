"""A CS50 AI student's minimax that forgets to alternate: max_value calls max_value, so below
the first MAX level every turn is played as MAX's. The report names the bug
(tests/test_grade_students.py); the rest is tests/students/cs50.py."""

import copy
import math

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
    i, j = action
    if not (0 <= i < 3 and 0 <= j < 3) or board[i][j] is not EMPTY:
        raise ValueError("invalid action")
    new = copy.deepcopy(board)
    new[i][j] = player(board)
    return new


def winner(board):
    lines = [row for row in board]
    lines += [[board[i][j] for i in range(3)] for j in range(3)]
    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]
    for line in lines:
        if line[0] is not EMPTY and line[0] == line[1] == line[2]:
            return line[0]
    return None


def terminal(board):
    return winner(board) is not None or all(cell is not EMPTY for row in board for cell in row)


def utility(board):
    w = winner(board)
    return 1 if w == X else -1 if w == O else 0


def remembered(function):
    seen = {}

    def wrapper(board):
        key = tuple(map(tuple, board))
        if key not in seen:
            seen[key] = function(board)
        return seen[key]

    return wrapper


@remembered
def max_value(board):
    if terminal(board):
        return utility(board)
    v = -math.inf
    for action in actions(board):
        v = max(v, max_value(result(board, action)))  # the bug: max_value must call min_value
    return v


@remembered
def min_value(board):
    if terminal(board):
        return utility(board)
    v = math.inf
    for action in actions(board):
        v = min(v, max_value(result(board, action)))
    return v


def minimax(board):
    if terminal(board):
        return None
    if player(board) == X:
        return max(actions(board), key=lambda a: min_value(result(board, a)))
    return min(actions(board), key=lambda a: max_value(result(board, a)))
