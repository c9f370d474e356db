"""Tic-tac-toe on the web against a perfect minimax AI.

`ttt_web.app.create_app` builds the Flask app; `ttt_web.tictactoe` is the engine, which
imports nothing from Flask so that it stays light on its own.
"""
