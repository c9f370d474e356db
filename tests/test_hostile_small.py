"""Smaller findings of hostile traffic: tokens in the access log, a 404 under /static without
Cache-Control, new sessions past the limit when they come at once (Redis), and a scheme
chosen by a client's X-Forwarded-Proto on a page that caches keep for everyone."""

import re

import pytest
import redis

from tests import servers
from tests.conftest import Player
from tests.page import Page

GAME = "0-1-4-2-8"


@pytest.mark.server
def test_the_access_log_keeps_no_game_or_seat_token(logged_server):
    base, mark = logged_server.base, logged_server.mark()
    player = Player(servers.HttpClient(base))
    page = player.move(1, 1)
    host, guest = servers.HttpClient(base), servers.HttpClient(base)
    room = host.post("/room/new").headers["Location"]
    guest.post(f"{room}/join")
    links = [*page.links.values(), *Page(host.get(room).text).links.values()]
    host.get(links[-1], headers={"Referer": base + links[0]})
    tokens = {token for link in links for token in re.findall(r"game=([\w-]+)", link)}
    text = logged_server.log_since(mark)
    assert len(tokens) == 2 and "/move?game=-&n=0&row=" in text  # the path is logged, its token is not
    assert not [token for token in tokens if token in text]


def test_a_missing_static_file_is_not_kept_by_caches(client):
    response = client.get("/static/no-such-file.js")
    assert response.status_code == 404 and response.headers["Cache-Control"] == "no-store"
    assert "no-store" not in client.get("/static/live.js").headers.get("Cache-Control", "")


@pytest.mark.server
def test_a_client_on_the_same_host_cannot_choose_the_scheme_of_shared_links(logged_server):
    client = servers.HttpClient(logged_server.base)
    plain = client.get(f"/review/{GAME}").text
    forwarded = client.get(f"/review/{GAME}", headers={"X-Forwarded-Proto": "https"}).text
    assert 'content="http://127.0.0.1' in plain
    assert forwarded == plain


@pytest.mark.server
def test_newcomers_at_once_never_pass_the_limit_on_redis(tmp_path, redis_server, gunicorn):
    """60 newcomers from one address at the same moment, against 20 per minute: 20 play."""
    redis.Redis.from_url(redis_server.url).flushdb()
    env = servers.app_env(tmp_path, REDIS_URL=redis_server.url, TTT_NEW_SESSION_LIMIT="20 per minute")
    with gunicorn(env, workers=2) as base:
        clients = [servers.HttpClient(base, timeout=20) for _ in range(60)]
        statuses = servers.together(*[lambda c=c: c.get("/move?n=0&row=1&col=1").status_code for c in clients])
    stored = len(list(redis.Redis.from_url(redis_server.url).scan_iter("ttt:sessions:*")))
    assert statuses.count(303) == stored == 20, (statuses.count(303), stored)
    assert statuses.count(429) == 40
