"""A student's result that tests the action against the function `actions` instead of
`actions(board)`: it raises TypeError on every move, valid or not, so its refusals of invalid
moves prove nothing (tests/test_grade_students.py). Only what result needs is written."""

X = "X"
O = "O"  # noqa: E741 - the assignment's name
EMPTY = None


def player(board):
    marks = [cell for row in board for cell in row if cell is not EMPTY]
    return O if len(marks) % 2 else X


def actions(board):
    return {(i, j) for i in range(3) for j in range(3) if board[i][j] is EMPTY}


def result(board, action):
    if action not in actions:  # the function, not actions(board): a TypeError on every move
        raise ValueError("invalid action")
    i, j = action
    new = [row[:] for row in board]
    new[i][j] = player(board)
    return new
