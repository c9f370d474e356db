"""A CS50 AI student's tic-tac-toe part-way through (after an early commit of
PLCoster/cs50ai-week0-tictactoe): player, actions and result are right, winner misses O's
anti-diagonal (`diag2 == "XXX"` twice), and terminal, utility and minimax are still the
distribution code's `raise NotImplementedError`. The report says those three are not
written yet, once each, and names no function to fix first (tests/test_grade_students.py)."""

from copy import deepcopy

X = "X"
O = "O"  # noqa: E741 - the assignment's name
EMPTY = None


class InvalidActionError(Exception):
    def __init__(self, action, board, msg):
        super().__init__(msg + str(action))


def initial_state():
    return [[EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY], [EMPTY, EMPTY, EMPTY]]


def player(board):
    x_count = 0
    o_count = 0
    for row in board:
        x_count += row.count(X)
        o_count += row.count(O)
    if x_count > o_count:
        return O
    return X


def actions(board):
    moves = set()
    for i in range(3):
        for j in range(3):
            if board[i][j] == EMPTY:
                moves.add((i, j))
    return moves


def result(board, action):
    i = action[0]
    j = action[1]
    if i not in [0, 1, 2] or j not in [0, 1, 2]:
        raise InvalidActionError(action, board, "invalid position: ")
    elif board[i][j] != EMPTY:
        raise InvalidActionError(action, board, "occupied: ")
    board_copy = deepcopy(board)
    board_copy[i][j] = player(board)
    return board_copy


def winner(board):
    for row in board:
        if row.count(X) == 3:
            return X
        if row.count(O) == 3:
            return O
    for j in range(3):
        column = ""
        for i in range(3):
            column += str(board[i][j])
        if column == "XXX":
            return X
        if column == "OOO":
            return O
    diag1 = ""
    diag2 = ""
    j = 2
    for i in range(3):
        diag1 += str(board[i][i])
        diag2 += str(board[i][j])
        j -= 1
    if diag1 == "XXX" or diag2 == "XXX":
        return X
    elif diag1 == "OOO" or diag2 == "XXX":
        return O
    return None


def terminal(board):
    raise NotImplementedError


def utility(board):
    raise NotImplementedError


def minimax(board):
    raise NotImplementedError
