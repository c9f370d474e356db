"""The game and what is known about it: positions, moves, the engine, judging, search.

Standard library only: nothing here imports Flask, the store or the web layer."""
