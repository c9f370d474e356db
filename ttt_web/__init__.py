"""Tic-tac-toe on the web against a perfect minimax AI.

`ttt_web.app.create_app` builds the Flask app; `ttt_web.core.tictactoe` is the engine, which,
like all of `ttt_web.core`, imports nothing from Flask so that it stays light on its own.
The layers and packages are described in docs/architecture.md.
"""
