"""The real thing: wsgi.py under gunicorn, Redis shared by several processes, races, faults."""

import functools
import random
from collections import Counter

import pytest

from tests import judge, servers
from tests.conftest import STORES, Player


def test_wsgi_under_gunicorn_plays_a_whole_game(tmp_path, gunicorn):
    """A whole game, a secret key made at first start and kept private, and no control socket
    left behind (gunicorn's default would be ~/.gunicorn/gunicorn.ctl, shared by every instance
    of one user)."""
    home = tmp_path / "home"
    env = {"TTT_INSTANCE_DIR": str(tmp_path / "instance"), "HOME": str(home), "XDG_RUNTIME_DIR": ""}  # no SECRET_KEY
    with gunicorn(env, workers=1) as base:
        player = Player(servers.HttpClient(base))
        player.new_game(difficulty="impossible")
        page = player.finish(random.Random(1))
        assert page.state == "over" and page.winner in ("O", "")
        assert player.submit("new-game").headers["Location"].startswith("/?g=")
        assert player.page().marks == "." * 9
    assert (tmp_path / "instance" / "secret_key").stat().st_mode & 0o777 == 0o600
    assert not (home / ".gunicorn").exists()


def test_two_gunicorn_instances_share_games_through_redis(live_servers_on_redis):
    first, second = live_servers_on_redis
    on_first = servers.HttpClient(first)
    player = Player(on_first)
    page = player.move(1, 1)
    on_second = servers.HttpClient(second)
    on_second.cookies = on_first.cookies
    other = Player(on_second)
    assert other.page().marks == page.marks
    row, col = next(iter(sorted(other.page().links)))
    after = other.move(row, col)
    assert after.marks.count(".") == 5
    assert player.page().marks == after.marks  # and back on the first


@pytest.mark.parametrize("store", STORES)
def test_concurrent_moves_on_one_session_across_two_workers(store, live_server, live_servers_on_redis):
    """On a shared server of 2 workers (its games of its own): on SQLite, on Redis."""
    client = servers.HttpClient(live_server if store == "sqlite" else live_servers_on_redis[0])
    player = Player(client)
    player.new_game(difficulty="impossible")  # a reply to every move that does not end the game
    player.move(1, 1)
    for _ in range(3):  # three rounds of eight clicks at once, from "two tabs" of one page
        page = player.page()
        if page.state == "over":
            break
        hrefs = list(page.links.values()) * 2
        results = fire_together(client, hrefs)
        assert Counter(results)[303] == 1, results
        assert set(results) <= {303, 409}, results
        now = player.page()
        assert_legal(now.marks)
        assert now.marks.count(".") == page.marks.count(".") - min(2, page.marks.count("."))


def fire_together(client, hrefs):
    responses = servers.together(*(functools.partial(client.get, href) for href in hrefs))
    return [response.status_code for response in responses]


def assert_legal(marks: str) -> None:
    """The board is one that legal play reaches, by the independent judge."""
    assert marks in judge.reachable(), marks


def test_redis_outage_answers_503_and_play_resumes(tmp_path, gunicorn, redis_servers):
    redis = redis_servers(tmp_path / "redis").start()
    try:
        with gunicorn(servers.app_env(tmp_path, REDIS_URL=redis.url), workers=1) as base:
            player = Player(servers.HttpClient(base))
            page = player.move(1, 1)
            href = next(iter(page.links.values()))
            redis.stop()
            for response in (player.client.get("/"), player.client.get(href)):
                assert response.status_code == 503
                assert "Traceback" not in response.text and "redis" not in response.text.lower()
                assert "try again" in response.text
            redis.start()
            assert player.page().marks == page.marks  # nothing half-written
            player.follow(href)
            assert player.page().marks.count(".") == 5
    finally:
        redis.stop()
