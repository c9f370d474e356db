"""The game itself: the board, moves, new games, undo, teach mode, the score; and Your games."""
