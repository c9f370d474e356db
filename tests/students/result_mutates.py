"""A CS50 AI student's tic-tac-toe whose result changes the board it is given (`new = board`)
and is otherwise right: max_value and min_value return a value and a move, and stop at the
first win. result fails, and minimax with it, its search thrown off by the changed boards;
the report names no known bug of minimax, which has none (tests/test_grade_students.py)."""

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
    new = board
    if action not in actions(board):
        raise ValueError("not a valid action")
    new[action[0]][action[1]] = player(board)
    return new


def winner(board):
    lines = [row for row in board]
    lines += [[board[i][j] for i in range(3)] for j in range(3)]
    lines += [[board[i][i] for i in range(3)], [board[i][2 - i] for i in range(3)]]
    for mark in (X, O):
        if [mark] * 3 in lines:
            return mark
    return None


def terminal(board):
    return winner(board) is not None or not actions(board)


def utility(board):
    w = winner(board)
    return 1 if w == X else -1 if w == O else 0


def max_value(board):
    if terminal(board):
        return utility(board), None
    best, move = -math.inf, None
    for action in actions(board):
        v = min_value(result(board, action))[0]
        if v > best:
            best, move = v, action
        if best == 1:
            break
    return best, move


def min_value(board):
    if terminal(board):
        return utility(board), None
    best, move = math.inf, None
    for action in actions(board):
        v = max_value(result(board, action))[0]
        if v < best:
            best, move = v, action
        if best == -1:
            break
    return best, move


def minimax(board):
    if terminal(board):
        return None
    return (max_value if player(board) == X else min_value)(board)[1]
