"""The application factory: the one place where config, sessions, views, errors and
headers are wired together."""

from __future__ import annotations

import os
import secrets
from datetime import timedelta
from pathlib import Path

from flask import Config, Flask, request
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
from .web import cells, errors, limits, observe, security, sessions, theme, urls

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
    configure(app.config, app.instance_path)
    if test_config:
        app.config.from_mapping(test_config)
    refuse_unshared_secret(app.config)
    if os.environ.get("FLASK_RUN_FROM_CLI") != "true":
        app.debug = False  # FLASK_DEBUG counts only for `flask run --debug`, never under gunicorn
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = instance_secret(Path(app.instance_path))

    sessions.init_app(app, observe.MeasuredStore)  # the store's calls measured, for /metrics
    roomstore.init_app(app)
    roomstream.init_app(app)
    security.init_app(app)
    errors.init_app(app)
    urls.init_app(app)
    app.jinja_env.globals.update(name_pattern=NAME_PATTERN, name_rule=NAME_RULE)  # one rule for every name field
    app.cli.add_command(grade_cli.command)
    features = (play, review, retry, games, explore, grade_download, practice, rooms, roomseats, learn_views, theme)
    for feature in features:
        app.register_blueprint(feature.bp)
    limits.init_app(app)
    ttt.minimax(ttt.initial_state())  # solve the game now, not during the first move
    app.add_template_filter(cells.ij, "ij")  # the assignment's (i, j) beside a cell's name
    app.add_template_filter(cells.said_either, "either")  # "a2, b2 or c3"
    explore.warm(app)  # and what the explorer's first page shows
    learn_views.warm()  # and the empty board's traces
    picture.parts()  # and the parts of every review's picture
    observe.init_app(app)  # around every middleware but the next
    if app.config["PROXY_HOPS"]:  # the client's address, as the proxies in front saw it, for every path and the log
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=app.config["PROXY_HOPS"])  # type: ignore[method-assign]  # Flask's documented middleware hook
    return app


# Every setting an operator may give, as TTT_<KEY> (Flask's from_prefixed_env), with its default;
# a value is read as the type of its default. docs/configuration.md says what each one does.
SETTINGS: dict[str, str | int | float | bool] = dict(
    DATABASE="",  # empty: instance/ttt.sqlite3
    REDIS_CONNECTIONS=100,  # per process
    REDIS_WAIT_SECONDS=2.0,  # for a free one, then 503
    SESSION_DAYS=30,
    MAX_SESSIONS=100000,
    NEW_SESSION_LIMIT="60 per minute; 1000 per day",  # per /24 or /64
    NEWCOMERS_PER_SECOND=20.0,  # requests that may store a new session, worked on a second per process
    NEWCOMER_WAIT_SECONDS=3.0,  # for a turn among them, then 503
    KEEP_RECENT_HOURS=24.0,  # a full store evicts none newer
    PROXY_HOPS=0,
    ROOM_IDLE_HOURS=24.0,
    MAX_ROOMS=10000,
    NEW_ROOM_LIMIT="20 per minute; 200 per day",
    # ms of the event loop the explorer's and students' pages may take, per process: per network, in all
    CPU_BUDGET_PER_NETWORK="600 per 10 seconds",
    CPU_BUDGET="1500 per 10 seconds",
    PUBLIC_URL="",  # e.g. https://ttt.example.org: for links to share
    TRUSTED_HOSTS="",  # comma-separated; empty: any well-formed Host
    STREAM_SECONDS=300.0,  # then the browser reconnects
    HEARTBEAT_SECONDS=15.0,  # keeps proxies from closing a stream
    STREAMS=250,  # per process: a quarter of gunicorn.conf's connections
    STREAMS_PER_NETWORK=25,  # per process, /24 or /64
    STREAMS_PER_ROOM=16,  # per process
    STREAM_RELOAD_SECONDS=10.0,  # a refused stream: reload then
    HTTPS=False,
    METRICS_TOKEN="",  # empty: no /metrics (404)
)
FIXED = dict(
    SESSION_REFRESH_EACH_REQUEST=False,  # a page view must never overwrite a move
    SESSION_ID_LENGTH=32,
    TIDY_SECONDS=60,  # how often each process removes expired records (after a response)
    SESSION_COOKIE_HTTPONLY=True,
    SESSION_COOKIE_SAMESITE="Lax",
    MAX_CONTENT_LENGTH=16 * 1024,
)
YES, NO = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def configure(config: Config, instance_path: str) -> None:
    """Every setting: the defaults, then SECRET_KEY and REDIS_URL, then TTT_<KEY> for each
    key of SETTINGS, and what follows from them."""
    config.from_mapping(FIXED, **SETTINGS)
    config.from_mapping(SECRET_KEY=os.environ.get("SECRET_KEY") or None, REDIS_URL=os.environ.get("REDIS_URL") or None)
    config.from_prefixed_env(prefix="TTT", loads=str)
    for key, default in SETTINGS.items():
        config[key] = typed(key, config[key], type(default))
    hosts = config["TRUSTED_HOSTS"]
    config.from_mapping(
        cookie_names("__Host-" if config["HTTPS"] else ""),
        DATABASE=config["DATABASE"] or os.path.join(instance_path, "ttt.sqlite3"),
        PERMANENT_SESSION_LIFETIME=timedelta(days=config["SESSION_DAYS"]),
        TRUSTED_HOSTS=[host.strip() for host in hosts.split(",")] if hosts else None,
        SESSION_COOKIE_SECURE=config["HTTPS"],
    )


def cookie_names(prefix: str) -> dict[str, str]:
    return dict(
        SESSION_COOKIE_NAME=f"{prefix}ttt",
        TEACH_COOKIE_NAME=f"{prefix}ttt-teach",
        REFRESH_COOKIE_NAME=f"{prefix}ttt-still",  # set: no auto-refresh
        THEME_COOKIE_NAME=f"{prefix}ttt-theme",  # "light" or "dark"; none: the system's
    )


def typed(key: str, value: object, kind: type) -> object:
    """A setting's value as the type of its default; a clear error naming TTT_<KEY> if it is not one."""
    if not isinstance(value, str) or kind is str:
        return value
    text = value.strip().lower()
    try:
        if kind is bool:
            if text not in YES + NO:
                raise ValueError(value)
            return text in YES
        return kind(text)
    except ValueError:
        raise ValueError(f"TTT_{key}={value!r} is not {WORDS[kind]}") from None


WORDS = {bool: "1 or 0", int: "a whole number", float: "a number"}


def refuse_unshared_secret(config: Config) -> None:
    """On Redis, several hosts serve the same players: each must sign with the same secret, so
    none may make its own."""
    if config["REDIS_URL"] and not config["SECRET_KEY"]:
        raise RuntimeError(
            "SECRET_KEY is not set: with REDIS_URL every host must sign with the same secret. "
            "Set SECRET_KEY to the same random value on every host (docs/configuration.md)."
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
