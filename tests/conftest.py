import contextlib
import inspect
import json
import os
import sqlite3
import subprocess
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import redis
from flask.testing import FlaskClient
from jinja2.bccache import Bucket, BytecodeCache

from tests import servers
from tests.page import Page
from tests.servers import RedisServer
from ttt_web.app import TicTacToe, create_app

CHROMIUM = "/usr/bin/chromium"


class CompiledTemplates(BytecodeCache):
    """Templates compiled once per test process, not once per app: most tests make an app
    of their own, and compiling the pages took most of their time. Jinja keys each entry by
    the template's source, so an edited template is compiled again."""

    def __init__(self) -> None:
        self.compiled: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        if bucket.key in self.compiled:
            bucket.bytecode_from_string(self.compiled[bucket.key])

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.compiled[bucket.key] = bucket.bytecode_to_string()


TicTacToe.jinja_options = {**TicTacToe.jinja_options, "bytecode_cache": CompiledTemplates()}

KINDS = ("unit", "server", "browser")
BROWSER_FIXTURES = {"page", "context", "browser"}
SERVER_FIXTURES = {"live_server", "redis_server", "redis_cluster"}
SERVER_CALLS = ("servers.gunicorn(", "servers.make_run(", "RedisServer(")


def pytest_collection_modifyitems(items):
    """Every test is of one kind (pyproject.toml's markers): one marked by hand keeps its mark;
    the others are told by what they use: Chromium, a server of their own (gunicorn or
    redis-server, the app on Redis included), or neither, a unit test (`make check`)."""
    for item in items:
        if not any(item.get_closest_marker(kind) for kind in KINDS):
            item.add_marker(kind_of(item))


def kind_of(item) -> str:
    fixtures = set(getattr(item, "fixturenames", ()))
    if fixtures & BROWSER_FIXTURES:
        return "browser"
    params = getattr(getattr(item, "callspec", None), "params", {})
    if fixtures & SERVER_FIXTURES or "redis" in params.values() or starts_servers(item):
        return "server"
    return "unit"


def starts_servers(item) -> bool:
    """Whether the test's own code starts a server through tests/servers.py."""
    try:
        source = inspect.getsource(item.function)
    except (OSError, TypeError):
        return False
    return any(call in source for call in SERVER_CALLS)


@pytest.fixture(scope="session")
def browser_type_launch_args():
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: install the Debian package chromium (make test does)")
    flags = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync"]
    flags += ["--disable-background-networking", "--disable-component-update"]
    return {"executable_path": CHROMIUM, "args": flags}


@pytest.fixture(scope="session")
def live_server(tmp_path_factory):
    """The server every browser test shares. Its visitors all come from 127.0.0.1, faster than
    any school: the limits on new players and rooms (tested in test_hostile) are lifted here."""
    env = {
        "TTT_INSTANCE_DIR": str(tmp_path_factory.mktemp("instance")),
        "TTT_NEW_SESSION_LIMIT": "100000 per minute",
        "TTT_NEW_ROOM_LIMIT": "100000 per minute",
        "TTT_CPU_BUDGET_PER_NETWORK": "100000000 per minute",  # the pages' walks on a busy machine
        "TTT_CPU_BUDGET": "100000000 per minute",
    }
    with servers.gunicorn(env, workers=2) as base:
        yield base


@pytest.fixture
def browser_context_args(browser_context_args, live_server):
    return {**browser_context_args, "base_url": live_server}


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "redis"])
def app_factory(request, tmp_path):
    """Makes the app, with extra config, on each store: embedded SQLite, and Redis."""
    config = {"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE": str(tmp_path / "db" / "ttt.sqlite3")}
    # The explorer's and students' pages walked whole on a busy machine: test_cpu_budget sets its own.
    config |= {"CPU_BUDGET_PER_NETWORK": "100000000 per minute", "CPU_BUDGET": "100000000 per minute"}
    if request.param == "redis":
        server = request.getfixturevalue("redis_server")
        redis.Redis.from_url(server.url).flushdb()
        config["REDIS_URL"] = server.url
    return lambda **extra: server_like(create_app({**config, **extra}))


@pytest.fixture
def app(app_factory):
    return app_factory()


class ServerLikeClient(FlaskClient):
    """Closes each response once it is read, as a server does, so that what the app
    schedules for then (a sweep) runs."""

    def open(self, *args, **kwargs):
        kwargs.setdefault("buffered", True)
        return super().open(*args, **kwargs)


def server_like(app):
    app.test_client_class = ServerLikeClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def stored(app):
    """How many sessions the store holds."""
    return lambda: len(records(app))


def records(app, table: str = "sessions") -> dict[str, dict]:
    """Every live record of a table, read from the database itself (not through the app)."""
    if app.config.get("REDIS_URL"):
        client = redis.Redis.from_url(app.config["REDIS_URL"])
        keys = [key.decode() for key in client.scan_iter(f"ttt:{table}:*")]
        return {key.split(":", 2)[2]: json.loads(client.hget(key, "d")) for key in keys}
    path = Path(app.config["DATABASE"])
    if not path.exists():
        return {}
    with contextlib.closing(sqlite3.connect(path)) as db:
        rows = db.execute(f"SELECT id, data FROM {table} WHERE expires > ?", (time.time(),)).fetchall()
    return {key: json.loads(data) for key, data in rows}


@pytest.fixture
def play(client):
    """A player that reads the page and follows its links, as a browser does."""
    return Player(client)


class Player:
    def __init__(self, client):
        self.client = client

    def page(self, at: str = "/") -> Page:
        response = self.client.get(at)
        assert response.status_code == 200
        return Page(response.text)

    def follow(self, href: str, status: int = 303):
        response = self.client.get(href)
        assert response.status_code == status, response.text
        if status == 303:
            location = urlsplit(response.headers["Location"])
            assert (location.path, location.fragment) == ("/", "board")
        return response

    def finish(self, rng) -> Page:
        """Follow random cell links until the game is over."""
        page = self.page()
        while page.state == "playing":
            self.follow(rng.choice(sorted(page.links.values())))
            page = self.page()
        return page

    def move(self, row: int, col: int) -> Page:
        self.follow(self.page().links[row, col])
        return self.page()

    def submit(self, form_id: str, status: int = 303, at: str = "/", **fields):
        page = self.page(at)
        data = {**page.form(form_id), **fields}
        response = self.client.post(page.action(form_id), data=data)
        assert response.status_code == status, response.text
        return response

    def new_game(self, **options) -> Page:
        self.submit("new-game", **options)
        return self.page()

    def reset_score(self):
        """Reset all scores as a person does: the link, then the confirmation page's button."""
        return self.submit("reset-score-confirm", at=self.page()["reset-score"].attrs["href"])


@contextlib.contextmanager
def read_only(directory):
    """The directory and its files unwritable even for root: chmod, plus the immutable
    attribute when we are root."""
    files = [p for p in directory.iterdir() if p.is_file()]
    for path in files:
        os.chmod(path, 0o400)
    os.chmod(directory, 0o500)
    immutable = os.geteuid() == 0
    if immutable:
        subprocess.run(["chattr", "+i", str(directory), *map(str, files)], check=True)
    try:
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(directory), *map(str, files)], check=True)
        os.chmod(directory, 0o700)
        for path in files:
            os.chmod(path, 0o600)


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory):
    """A Redis Cluster of 3 masters and 3 replicas (tests/servers.py), for the whole run."""
    cluster = servers.RedisCluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield cluster.start()
    finally:
        cluster.stop()
