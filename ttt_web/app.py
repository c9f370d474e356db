"""The application factory: the one place where config, sessions, views, errors and
headers are wired together."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

from flask import Flask, request
from werkzeug.middleware.proxy_fix import ProxyFix

from .core import tictactoe as ttt
from .core.options import NAME_PATTERN, NAME_RULE
from .explore import views as explore
from .grade import cli as grade_cli
from .grade import download as grade_download
from .learn import views as learn_views
from .play import games
from .play import views as play
from .practice import views as practice
from .review import picture, retry
from .review import views as review
from .rooms import seats as roomseats
from .rooms import store as roomstore
from .rooms import stream as roomstream
from .rooms import views as rooms
from .store.base import STORE_ERRORS
from .web import cells, errors, limits, security, sessions, theme, urls

ROOT = Path(__file__).resolve().parent.parent


class TicTacToe(Flask):
    """Flask, but for how it logs a store that is down."""

    def log_exception(self, exc_info) -> None:
        """A store that is down is one line in the log per failed request, not a traceback."""
        if isinstance(exc_info[1], STORE_ERRORS):
            self.logger.warning("session store unavailable on %s %s: %s", request.method, request.path, exc_info[1])
        else:
            super().log_exception(exc_info)


def create_app(test_config: dict | None = None) -> Flask:
    app = TicTacToe(
        __name__,
        instance_path=os.environ.get("TTT_INSTANCE_DIR") or str(ROOT / "instance"),
        static_folder=str(ROOT / "static"),
        template_folder=str(ROOT / "templates"),
    )
    app.config.from_mapping(settings(app.instance_path))
    if test_config:
        app.config.from_mapping(test_config)
    if os.environ.get("FLASK_RUN_FROM_CLI") != "true":
        app.debug = False  # FLASK_DEBUG counts only for `flask run --debug`, never under gunicorn
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))

    sessions.init_app(app)
    roomstore.init_app(app)
    roomstream.init_app(app)
    security.init_app(app)
    errors.init_app(app)
    urls.init_app(app)
    app.jinja_env.globals.update(name_pattern=NAME_PATTERN, name_rule=NAME_RULE)  # one rule for every name field
    app.register_blueprint(play.bp)
    app.register_blueprint(review.bp)
    app.register_blueprint(retry.bp)
    app.register_blueprint(games.bp)
    app.register_blueprint(explore.bp)
    app.cli.add_command(grade_cli.command)
    app.register_blueprint(grade_download.bp)
    app.register_blueprint(practice.bp)
    app.register_blueprint(rooms.bp)
    app.register_blueprint(roomseats.bp)
    app.register_blueprint(learn_views.bp)
    app.register_blueprint(theme.bp)
    limits.init_app(app)
    ttt.minimax(ttt.initial_state())  # solve the game now, not during the first move
    app.add_template_filter(cells.ij, "ij")  # the assignment's (i, j) beside a cell's name
    app.add_template_filter(cells.said_either, "either")  # "a2, b2 or c3"
    explore.warm(app)  # and what the explorer's first page shows
    learn_views.warm()  # and the empty board's traces
    picture.parts()  # and the parts of every review's picture
    if app.config["PROXY_HOPS"]:  # the client's address, as the proxies in front saw it (outermost)
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["PROXY_HOPS"])
    return app


def settings(instance_path: str) -> dict:
    """Every setting, read from the environment in one place."""
    https = os.environ.get("TTT_HTTPS") == "1"
    trusted_hosts = os.environ.get("TTT_TRUSTED_HOSTS")
    return dict(
        SECRET_KEY=os.environ.get("SECRET_KEY"),
        REDIS_URL=os.environ.get("REDIS_URL"),
        REDIS_CONNECTIONS=int(os.environ.get("TTT_REDIS_CONNECTIONS", "100")),  # per process
        REDIS_WAIT_SECONDS=float(os.environ.get("TTT_REDIS_WAIT_SECONDS", "2")),  # for a free one, then 503
        DATABASE=os.environ.get("TTT_DATABASE") or os.path.join(instance_path, "ttt.sqlite3"),
        PERMANENT_SESSION_LIFETIME=timedelta(days=int(os.environ.get("TTT_SESSION_DAYS", "30"))),
        SESSION_REFRESH_EACH_REQUEST=False,  # a page view must never overwrite a move
        SESSION_ID_LENGTH=32,
        TIDY_SECONDS=60,  # how often each process removes expired records (after a response)
        SESSION_COOKIE_NAME="__Host-ttt" if https else "ttt",
        TEACH_COOKIE_NAME="__Host-ttt-teach" if https else "ttt-teach",
        REFRESH_COOKIE_NAME="__Host-ttt-still" if https else "ttt-still",  # set: no auto-refresh
        THEME_COOKIE_NAME="__Host-ttt-theme" if https else "ttt-theme",  # "light" or "dark"; none: the system's
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=https,
        HTTPS=https,
        MAX_CONTENT_LENGTH=16 * 1024,
        MAX_SESSIONS=int(os.environ.get("TTT_MAX_SESSIONS", "100000")),
        NEW_SESSION_LIMIT=os.environ.get("TTT_NEW_SESSION_LIMIT", "60 per minute; 1000 per day"),  # per address
        NEW_SESSION_SITE_LIMIT=os.environ.get("TTT_NEW_SESSION_SITE_LIMIT", "600 per minute"),  # all addresses
        KEEP_RECENT_HOURS=float(os.environ.get("TTT_KEEP_RECENT_HOURS", "24")),  # a full store evicts none newer
        PROXY_HOPS=int(os.environ.get("TTT_PROXY_HOPS", "0")),
        ROOM_IDLE_HOURS=float(os.environ.get("TTT_ROOM_IDLE_HOURS", "24")),
        MAX_ROOMS=int(os.environ.get("TTT_MAX_ROOMS", "10000")),
        NEW_ROOM_LIMIT=os.environ.get("TTT_NEW_ROOM_LIMIT", "20 per minute; 200 per day"),
        # ms of the event loop the explorer's and students' pages may take, per process: per network, in all
        CPU_BUDGET_PER_NETWORK=os.environ.get("TTT_CPU_BUDGET_PER_NETWORK", "600 per 10 seconds"),
        CPU_BUDGET=os.environ.get("TTT_CPU_BUDGET", "1500 per 10 seconds"),
        PUBLIC_URL=os.environ.get("TTT_PUBLIC_URL"),  # e.g. https://ttt.example.org: for links to share
        TRUSTED_HOSTS=trusted_hosts.split(",") if trusted_hosts else None,  # else any well-formed Host
        STREAM_SECONDS=float(os.environ.get("TTT_STREAM_SECONDS", "300")),  # then the browser reconnects
        HEARTBEAT_SECONDS=float(os.environ.get("TTT_HEARTBEAT_SECONDS", "15")),  # keeps proxies from closing a stream
        STREAMS=int(os.environ.get("TTT_STREAMS", "250")),  # per process: a quarter of gunicorn.conf's connections
        STREAMS_PER_ADDRESS=int(os.environ.get("TTT_STREAMS_PER_ADDRESS", "50")),  # per process
        STREAMS_PER_ROOM=int(os.environ.get("TTT_STREAMS_PER_ROOM", "16")),  # per process
        STREAM_RELOAD_SECONDS=float(os.environ.get("TTT_STREAM_RELOAD_SECONDS", "10")),  # a refused stream: reload then
    )


def instance_secret(instance: Path) -> str:
    """The secret kept in the instance folder (mode 0600), made at first start.

    Several workers may start at once: the file appears whole or not at all (a hard link
    of a finished temporary file), and every process reads the winner's secret.
    """
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        tmp = instance / f".secret_key.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return path.read_text().strip()
