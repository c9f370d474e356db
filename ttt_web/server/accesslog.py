"""gunicorn's access log without secrets: links carry game and seat tokens in their query
(`game=`, `g=`), and whoever reads the log could play in their place. The request line, the
query and the referrer are logged with the value of every query field blanked out, except
the fields that say nothing about anyone (a move's cell, a review's ply...).

TTT_ACCESS_LOG=json makes each line a JSON object, for a log collector: the method, the path
with the names of its query fields and none of their values, the status, the duration, the
request id (X-Request-ID) and the worker's pid."""

from __future__ import annotations

import json
import os
import time
from datetime import timedelta
from typing import TYPE_CHECKING
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from gunicorn.glogging import Logger

if TYPE_CHECKING:
    from gunicorn.glogging import _AtomsDict  # types-gunicorn's name for what atoms() gives

JSON = os.environ.get("TTT_ACCESS_LOG", "text") == "json"

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
    def atoms(self, resp, req, environ, request_time) -> _AtomsDict:
        atoms = super().atoms(resp, req, environ, request_time)
        query = without_secrets(environ.get("QUERY_STRING", ""))
        path = environ.get("PATH_INFO", "") + (f"?{query}" if query else "")
        atoms["r"] = f"{environ['REQUEST_METHOD']} {path} {environ['SERVER_PROTOCOL']}"
        atoms["q"] = query
        atoms["f"] = url_without_secrets(atoms["f"])
        atoms["{referer}i"] = atoms["f"]  # type: ignore[typeddict-unknown-key]  # gunicorn adds {header}i keys
        return atoms

    def access(self, resp, req, environ, request_time) -> None:
        if not JSON:
            super().access(resp, req, environ, request_time)
        elif self.access_log_enabled:
            self.access_log.info("%s", json_line(resp, environ, request_time))


def json_line(resp, environ: dict, request_time: timedelta) -> str:
    """One request as a line of JSON."""
    status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
    names = [name for name, _ in parse_qsl(environ.get("QUERY_STRING", ""), keep_blank_values=True)]
    ids = [value for name, value in resp.headers if name.lower() == "x-request-id"]
    line = {
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "method": environ["REQUEST_METHOD"],
        "path": environ.get("PATH_INFO", "") + (f"?{'&'.join(names)}" if names else ""),
        "status": int(status),
        "duration": round(request_time.total_seconds(), 6),
        "request_id": ids[0] if ids else None,
        "pid": os.getpid(),
    }
    return json.dumps(line, ensure_ascii=False)
