import contextlib
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

# Debian's old headless shell (package chromium-headless-shell, Chromium's own source): the same Blink as
# /usr/bin/chromium without its browser's windows and UI, half the CPU per test (bench/browser_cpu.py)
CHROMIUM = "/usr/bin/chromium-headless-shell"


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

# How a test gets its kind (pyproject.toml's markers), from the fixtures it uses, never from its text:
#   browser  it uses Chromium: page, context or browser (pytest-playwright's fixtures);
#   server   it uses a server: live_server, logged_server, gunicorn or make_run (tests/servers.py's, handed
#            out by fixtures), or it is marked `server` by hand (the grader's child process);
#   redis    it uses Redis: redis_server, redis_servers, any fixture named redis..., or the app on Redis
#            (the "redis" case of STORES, as `both_stores` makes it);
#   unit     none of these: no process of its own (make check runs these, and only these).
# The first that applies is the kind. Through another fixture counts too (a fixture that uses live_server
# makes its tests server tests). A new fixture that starts servers says its kind with @kind("server") (or
# "redis", "browser") under its @pytest.fixture; a fixture named redis... is a Redis fixture as it is.
# A unit test that starts a server through tests/servers.py fails (servers.refuse_starts), and make check
# runs with a stand-in redis-server first on PATH that fails it if it is started (tests/isolation/).
# The store: app_factory, app, client and play are on SQLite; a test of the store's own behaviour
# (compare-and-set, caps, expiry, write_all, failures, live events) requests `both_stores` and runs on each.
KINDS = ("browser", "server", "redis")  # in order: the first a test uses is its kind; none: unit
FIXTURE_KINDS = {"page": "browser", "context": "browser", "browser": "browser"}
STORES = ("sqlite", "redis")  # app_factory's parameters: a test parametrised with "redis" is a Redis test


def kind(of: str):
    """Under @pytest.fixture: the tests that use this fixture are of kind `of`."""

    def register(fixture):
        FIXTURE_KINDS[fixture.__name__] = of
        return fixture

    return register


MADE_ONCE: list[str] = []  # fixtures whose tests run first, in one test process (made_once)


def made_once(fixture):
    """Under @pytest.fixture(scope="module" or "session"), for a fixture that costs much to make: its tests
    run first, one after the other, so that pytest-xdist's worksteal (make test) gives them all to the
    first process (it splits the tests in two halves and steals from the ends) and the fixture is made once."""
    MADE_ONCE.append(fixture.__name__)
    return fixture


def pytest_generate_tests(metafunc):
    if "both_stores" in metafunc.fixturenames:
        metafunc.parametrize("app_factory", STORES, indirect=True)


def pytest_collection_modifyitems(items):
    """Every test gets its kind (above); one marked `unit` by hand that uses a server is an error.
    The tests of a fixture made once (made_once) come first, those of each fixture together, then the
    slow and long ones: with worksteal, the last test to finish is a short one."""
    items.sort(
        key=lambda item: (
            first_made_once(item),
            not (item.get_closest_marker("slow") or item.get_closest_marker("long")),
        )
    )
    wrong = []
    for item in items:
        found = kind_of(item)
        if found != "unit" and item.get_closest_marker("unit"):
            wrong.append(item.nodeid)
        if not item.get_closest_marker(found):
            item.add_marker(found)
    if wrong:
        raise pytest.UsageError(f"marked unit by hand but using a server (tests/conftest.py): {wrong}")


def first_made_once(item) -> int:
    """Where the test comes: by the first fixture made once that it uses (MADE_ONCE's order), else last."""
    return next((n for n, name in enumerate(MADE_ONCE) if name in item.fixturenames), len(MADE_ONCE))


def kind_of(item) -> str:
    used = {FIXTURE_KINDS.get(name, "redis" if name.startswith("redis") else "unit") for name in item.fixturenames}
    used |= {kind for kind in KINDS if item.get_closest_marker(kind)}
    params = getattr(getattr(item, "callspec", None), "params", {})
    if "redis" in params.values():  # a store chosen by a parameter: STORES
        used.add("redis")
    return next((kind for kind in KINDS if kind in used), "unit")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item, nextitem):
    """A unit test may start no server (tests/servers.py refuses it)."""
    servers.refuse_starts(item.nodeid if item.get_closest_marker("unit") else None)
    try:
        return (yield)
    finally:
        servers.refuse_starts(None)


@pytest.fixture(scope="session")
def browser_type_launch_args():
    if not Path(CHROMIUM).exists():
        raise RuntimeError(f"{CHROMIUM} is missing: apt-get install chromium-headless-shell (make test does)")
    flags = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync"]
    flags += ["--disable-background-networking", "--disable-component-update"]
    return {"executable_path": CHROMIUM, "args": flags}


LIFTED = {  # the limits of shared servers, whose visitors all come from 127.0.0.1, faster than any school
    "TTT_NEW_SESSION_LIMIT": "100000 per minute",
    "TTT_NEW_ROOM_LIMIT": "100000 per minute",
    "TTT_CPU_BUDGET_PER_NETWORK": "100000000 per minute",  # the pages' walks on a busy machine
    "TTT_CPU_BUDGET": "100000000 per minute",
}


@pytest.fixture(scope="session")
@kind("server")
def live_server(tmp_path_factory):
    """The server (2 workers, SQLite) every browser test shares, and the tests that only play games of
    their own on it. The limits on new players and rooms (tested in test_hostile) are lifted here."""
    env = {"TTT_INSTANCE_DIR": str(tmp_path_factory.mktemp("instance")), **LIFTED}
    with servers.gunicorn(env, workers=2) as base:
        yield base


@pytest.fixture(scope="session")
@kind("server")
@made_once
def live_servers_on_redis(tmp_path_factory, redis_server):
    """Two gunicorns on the Redis the tests share (redis_server), as two hosts would be: the first with
    2 workers, the second with 1. For the tests that only play games and rooms of their own on them
    (app_factory's flush between two tests leaves them nothing to miss): a server of their own for each
    took some 2 s of CPU to start. Limits lifted, as live_server's."""
    env = servers.app_env(tmp_path_factory.mktemp("on-redis"), REDIS_URL=redis_server.url, **LIFTED)
    with servers.gunicorn(env, workers=2) as first, servers.gunicorn(env, workers=1) as second:
        yield first, second


@pytest.fixture
def browser_context_args(browser_context_args, live_server):
    return {**browser_context_args, "base_url": live_server}


@pytest.fixture(scope="session")
@kind("server")
def gunicorn():
    """servers.gunicorn: serves the app in a gunicorn of its own (a context manager)."""
    return servers.gunicorn


@pytest.fixture(scope="session")
@kind("server")
@made_once
def logged_server(tmp_path_factory):
    """One gunicorn (one worker, SQLite, gunicorn's text access log) shared by the tests that only
    send it requests and read its answers and log (servers.LoggedServer), none changing what
    another would see: a server of its own for each took some 2 s of CPU to start."""
    tmp = tmp_path_factory.mktemp("logged")
    log = tmp / "server.log"
    env = servers.app_env(tmp, GUNICORN_CMD_ARGS="--access-logfile -", TTT_NEW_ROOM_LIMIT="100 per minute")
    with servers.gunicorn(env, workers=1, log=log) as base:
        yield servers.LoggedServer(base, log, Path(env["TTT_INSTANCE_DIR"]) / "ttt.sqlite3")


@pytest.fixture(scope="session")
@kind("server")
def make_run():
    """servers.make_run: `make run` itself (a context manager)."""
    return servers.make_run


@pytest.fixture(scope="session")
def redis_servers():
    """RedisServer: a redis-server of the test's own, in a directory, to start and stop."""
    return RedisServer


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    """The redis-server the tests on Redis share (flushed by app_factory)."""
    server = RedisServer(tmp_path_factory.mktemp("redis")).start()
    yield server
    server.stop()


@pytest.fixture
def app_factory(request, tmp_path):
    """Makes the app, with extra config, on SQLite; on Redis too when the test requests
    `both_stores` (or parametrises app_factory with STORES, indirectly)."""
    config = {"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE": str(tmp_path / "db" / "ttt.sqlite3")}
    # The explorer's and students' pages walked whole on a busy machine: test_cpu_budget sets its own.
    config |= {"CPU_BUDGET_PER_NETWORK": "100000000 per minute", "CPU_BUDGET": "100000000 per minute"}
    if getattr(request, "param", "sqlite") == "redis":
        server = request.getfixturevalue("redis_server")
        redis.Redis.from_url(server.url).flushdb()
        config["REDIS_URL"] = server.url
    return lambda **extra: server_like(create_app({**config, **extra}))


@pytest.fixture
def both_stores(request, app_factory) -> str:
    """Requested by a test of the store's own behaviour: it runs on SQLite and on Redis
    (pytest_generate_tests parametrises app_factory, so app, client and play follow); the store."""
    return request.node.callspec.params["app_factory"]


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
@made_once
def redis_cluster(tmp_path_factory):
    """A Redis Cluster of 3 masters and 3 replicas (tests/servers.py), for the whole run."""
    cluster = servers.RedisCluster(tmp_path_factory.mktemp("cluster"))
    try:
        yield cluster.start()
    finally:
        cluster.stop()
