"""`flask grade PATH`: the grader as a Flask command, the one place it meets click."""

from __future__ import annotations

import click

from . import main


@click.command("grade", context_settings={"ignore_unknown_options": True, "help_option_names": []})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def command(args: tuple[str, ...]) -> None:
    """Grade a student's tictactoe.py: `flask grade PATH`, as `python -m ttt_web.grade PATH`."""
    raise SystemExit(main(list(args)))
