"""The embedded file store when it cannot be written or its disk is full: 503, nothing
half-written, and play resumes once the store is healthy again. Cookie-less traffic
stores nothing at all."""

import contextlib
import shutil
import subprocess

import redis
from flask import request

from tests.conftest import Player, read_only
from ttt_web import sessions
from ttt_web.app import create_app


def make_app(directory):
    return create_app({"SECRET_KEY": "s", "SESSION_DIR": str(directory)})


@contextlib.contextmanager
def small_disk(directory):
    """A 1 MiB tmpfs mounted on `directory` (needs root, as CI and make test have)."""
    directory.mkdir()
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", str(directory)], check=True)
    try:
        yield
    finally:
        subprocess.run(["umount", "-l", str(directory)], check=True)


def assert_unavailable(player, href):
    response = player.client.get(href)
    assert response.status_code == 503
    assert "Traceback" not in response.text and "try again" in response.text


def test_an_unwritable_session_store_answers_503_and_play_resumes(tmp_path):
    directory = tmp_path / "sessions"
    player = Player(make_app(directory).test_client())
    page = player.move(1, 1)
    href = next(iter(page.links.values()))
    with read_only(directory):
        assert_unavailable(player, href)
        assert player.client.post("/new", data=page.form("new-game")).status_code == 503
        assert player.page().marks == page.marks
    player.follow(href)
    assert player.page().marks.count(".") == 5


def test_a_full_session_directory_keeps_games_going_and_refuses_new_ones_with_503(tmp_path):
    """A game's file is rewritten within its own blocks, so a full disk does not stop it;
    a new game needs a new file: 503, the old game kept whole, and no partial file."""
    directory = tmp_path / "sessions"
    with small_disk(directory):
        app = make_app(directory)
        player = Player(app.test_client())
        page = player.move(1, 1)
        filler = directory / ".filler"
        with contextlib.suppress(OSError), open(filler, "wb", buffering=0) as f:
            while True:
                f.write(b"\0" * 4096)
        files = sorted(directory.iterdir())
        player.follow(next(iter(page.links.values())))
        page = player.page()
        assert page.marks.count(".") == 5
        response = player.client.post("/new", data=page.form("new-game"))
        assert response.status_code == 503 and "try again" in response.text
        assert sorted(directory.iterdir()) == files
        assert player.page().marks == page.marks
        filler.unlink()
        old_sid = player.client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
        assert player.new_game().marks == "........."
        new_sid = player.client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
        cache = app.session_interface.cache
        assert cache.get(app.config["SESSION_KEY_PREFIX"] + old_sid) == {sessions.MOVED: new_sid}
        assert len(list(sessions.stored_files(directory))) == 2  # the new game, and the pointer to it


def test_a_removed_lock_folder_is_made_again_and_the_game_goes_on(tmp_path):
    directory = tmp_path / "sessions"
    player = Player(make_app(directory).test_client())
    page = player.move(1, 1)
    shutil.rmtree(directory / ".locks")
    player.follow(next(iter(page.links.values())))
    assert player.page().marks.count(".") == 5
    assert player.new_game().marks == "........."
    assert (directory / ".locks").is_dir()


def test_a_removed_session_folder_is_made_again_and_new_games_go_on(tmp_path):
    directory = tmp_path / "sessions"
    app = create_app({"SECRET_KEY": "s", "SESSION_DIR": str(directory), "SESSION_SWEEP_INTERVAL": 0})
    player = Player(app.test_client())
    player.move(1, 1)
    shutil.rmtree(directory)
    assert player.page().marks == "........."  # its game went with the folder
    assert player.move(1, 1).marks.count(".") == 7
    assert player.new_game().marks == "........."
    assert len(list(sessions.stored_files(directory))) == 2  # the new game, and the pointer to it


def test_ten_thousand_cookieless_page_views_store_nothing(app, stored):
    client = app.test_client()
    for _ in range(10_000):
        assert client.get("/").status_code == 200
        client._cookies.clear()
    assert stored() == 0


def test_a_redis_lock_that_expired_mid_move_writes_nothing(tmp_path, redis_server):
    """If a move outlives its lock (LOCK_HOLD) and another request may hold it now, the
    move's write is refused: 503, and the game stays as it was."""
    client = redis.Redis.from_url(redis_server.url)
    client.flushdb()
    app = create_app({"SECRET_KEY": "s", "SESSION_DIR": str(tmp_path), "REDIS_URL": redis_server.url})
    cookie = app.config["SESSION_COOKIE_NAME"]
    lock_key = app.session_interface.locks.key
    stolen = []

    @app.before_request
    def lose_the_lock():
        if stolen and request.path == "/move":
            client.set(lock_key(request.cookies[cookie]), "someone else")

    player = Player(app.test_client())
    page = player.move(1, 1)
    sid = player.client.get_cookie(cookie).value
    stolen.append(sid)
    response = player.client.get(next(iter(page.links.values())))
    assert response.status_code == 503 and "try again" in response.text
    assert client.get(lock_key(sid)) == b"someone else"  # nor did the move free it
    client.delete(lock_key(sid))
    assert player.page().marks == page.marks
