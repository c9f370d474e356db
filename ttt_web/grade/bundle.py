"""The grader as one file a student downloads: a zipapp of ttt_web/grade and the modules of
ttt_web/core it imports, run as `python3 grader.pyz tictactoe.py` with nothing but Python.
Built once per process; the site it came from travels in the archive's comment, where its
__main__ reads it as the default `--site` of the explore links."""

from __future__ import annotations

import ast
import functools
import io
import zipfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent  # ttt_web/grade
ROOT = PACKAGE.parent  # ttt_web
LEFT_OUT = {"cli.py", "download.py", "bundle.py"}  # click's, Flask's and this: not the grader's
SITE_BYTES = 300  # of the site's address in the comment
STAMP = (2020, 1, 1, 0, 0, 0)  # every entry's date, so that one build is the same as another
TOP = '"""Tic-tac-toe: the grader of CS50 AI\'s tictactoe.py, on its own (python3 grader.pyz FILE)."""\n'
MAIN = """import sys
import zipfile

from ttt_web.grade import main

here = sys.argv[0]
site = zipfile.ZipFile(here).comment.decode() if zipfile.is_zipfile(here) else ""
sys.exit(main(site=site) if site else main())
"""


def imported(path: Path) -> set[Path]:
    """The files of ttt_web that the module at `path` imports by relative imports."""
    package = path.parent
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package
            for _ in range(node.level - 1):
                base = base.parent
            base = base.joinpath(*node.module.split(".")) if node.module else base
            found |= {base / f"{alias.name}.py" for alias in node.names} | {base.with_suffix(".py")}
            found.add(base / "__init__.py")
    return {f for f in found if f.is_file()}


def modules() -> list[Path]:
    """The grader's modules and every module of ttt_web they import, however indirectly."""
    todo = [p for p in PACKAGE.glob("*.py") if p.name not in LEFT_OUT]
    found: set[Path] = set()
    while todo:
        path = todo.pop()
        if path not in found:
            found.add(path)
            todo += imported(path)
    return sorted(found - {ROOT / "__init__.py"})


@functools.cache
def archive() -> bytes:
    """The zipapp, with an empty comment."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zipped:
        entries = [("__main__.py", MAIN), ("ttt_web/__init__.py", TOP)]
        entries += [(f"ttt_web/{p.relative_to(ROOT).as_posix()}", p.read_text()) for p in modules()]
        for name, text in entries:
            zipped.writestr(zipfile.ZipInfo(name, STAMP), text, zipfile.ZIP_DEFLATED)
    return buffer.getvalue()


def for_site(site: str) -> bytes:
    """The zipapp with `site` in its comment: the end record's last field, its length before it."""
    comment = site.encode()[:SITE_BYTES]
    built = archive()
    return built[:-2] + len(comment).to_bytes(2, "little") + comment
