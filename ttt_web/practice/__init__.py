"""Practice: guess the value of every move in a position."""
