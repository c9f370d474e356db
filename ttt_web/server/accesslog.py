"""gunicorn's access log without secrets: links carry game and seat tokens in their query
(`game=`, `g=`), and whoever reads the log could play in their place. The request line, the
query and the referrer are logged with the value of every query field blanked out, except
the fields that say nothing about anyone (a move's cell, a review's ply...)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from gunicorn.glogging import Logger

PUBLIC_FIELDS = frozenset({"n", "row", "col", "ply", "v", "back", "show", "try", "position", "from"})


def without_secrets(query: str) -> str:
    fields = parse_qsl(query, keep_blank_values=True)
    return urlencode([(name, value if name in PUBLIC_FIELDS else "-") for name, value in fields], safe="-")


def url_without_secrets(url: str) -> str:
    try:
        parts = urlsplit(url)
    except ValueError:  # not a URL: nothing of ours
        return "-"
    return urlunsplit(parts._replace(query=without_secrets(parts.query))) if parts.query else url


class AccessLog(Logger):
    def atoms(self, resp, req, environ, request_time) -> dict:
        atoms = super().atoms(resp, req, environ, request_time)
        query = without_secrets(environ.get("QUERY_STRING", ""))
        path = environ.get("PATH_INFO", "") + (f"?{query}" if query else "")
        atoms["r"] = f"{environ['REQUEST_METHOD']} {path} {environ['SERVER_PROTOCOL']}"
        atoms["q"] = query
        atoms["f"] = url_without_secrets(atoms["f"])
        atoms["{referer}i"] = atoms["f"]
        return atoms
