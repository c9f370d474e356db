"""Attacks on what `make run` starts (nginx in front of 2 gevent workers), with eight players
moving meanwhile: the players keep at least half the moves they make alone in the same run,
newcomers are served, and every stored game is legal afterwards (replayed by the independent
judge). The pictures and the streams on both stores; the rest on the embedded one."""

import time
from types import SimpleNamespace

import pytest

from tests import attacks, servers
from tests.conftest import records

SECONDS = 4  # of play alone, then of play under attack


@pytest.fixture
def env(tmp_path):
    return servers.app_env(tmp_path, TTT_NEW_ROOM_LIMIT="1000 per minute")


def assert_every_game_legal(env: dict) -> None:
    database = f"{env['TTT_INSTANCE_DIR']}/ttt.sqlite3"
    stored = records(SimpleNamespace(config={"REDIS_URL": env.get("REDIS_URL"), "DATABASE": database}))
    games = [data["game"]["moves"] for data in stored.values() if "game" in data]
    assert len(games) >= 8 and all(attacks.legal(moves) for moves in games)


def room_events(base: str, count: int = 3) -> list[str]:
    host = servers.HttpClient(base, source="127.0.6.1")
    return [host.post("/room/new").headers["Location"] + "/events" for _ in range(count)]


def test_a_flood_of_review_pictures_leaves_players_their_moves(env, make_run):
    with make_run(env) as base, attacks.Players(base) as players:
        alone = players.count_for(SECONDS)
        with attacks.PictureFlood(base, 2) as flood:
            time.sleep(0.5)
            attacked = players.count_for(SECONDS)
            served = attacks.newcomer_served(base, "127.0.5.1")
    print(f"players alone {alone}, under a picture flood {attacked}, pictures {flood.statuses}")
    assert attacked >= alone / 2, (alone, attacked, flood.statuses, players.failures)
    assert flood.total > 20, flood.statuses  # the flood was a flood
    assert served
    assert_every_game_legal(env)


def test_a_flood_of_event_streams_leaves_players_their_moves(env, make_run):
    """7 addresses x 400 streams, each refused one asked again after its Retry-After."""
    with make_run(env) as base:
        paths = room_events(base)
        with attacks.Players(base) as players:
            alone = players.count_for(SECONDS)
            with attacks.StreamFlood(base, paths, addresses=7, per_address=400, pause=10) as flood:
                flood.settle()  # every stream asked for, and the excess refused
                attacked = players.count_for(SECONDS)
                served = attacks.newcomer_served(base, "127.0.5.2")
    print(f"players alone {alone}, under a stream flood {attacked}, streams opened {flood.opened}")
    assert attacked >= alone / 2, (alone, attacked, flood.refused, players.failures)
    assert flood.opened >= 7 * 400 and flood.refused > 0
    assert served
    assert_every_game_legal(env)


def test_streams_refused_and_asked_again_every_second_leave_players_their_moves(tmp_path, make_run):
    """20 addresses x 50 streams, each refused one asked again a second later: the players
    keep their moves, and a fresh connection is answered at once."""
    env = servers.app_env(tmp_path, TTT_NEW_ROOM_LIMIT="1000 per minute")
    with make_run(env) as base:
        paths = room_events(base)
        with attacks.Players(base) as players:
            alone = players.count_for(SECONDS)
            with attacks.StreamFlood(base, paths, addresses=20, per_address=50, pause=1) as flood:
                time.sleep(1)
                attacked = players.count_for(SECONDS)
                newcomers = attacks.newcomers_playing(base, 5)
    print(f"players alone {alone}, under retried streams {attacked}, refused {flood.refused}, newcomers {newcomers}")
    assert attacked >= alone / 2, (alone, attacked, flood.refused, players.failures)
    assert flood.refused > 1000  # asked again and again
    assert attacks.served_share(newcomers) == 1, newcomers


def test_idle_keep_alives_from_twelve_addresses_leave_players_their_moves(tmp_path, make_run):
    """12 addresses x 400 keep-alive connections asking for /robots.txt every 4 s: the proxy
    holds them all, and passes on each address's requests at its rate."""
    with make_run(servers.app_env(tmp_path)) as base, attacks.Players(base) as players:
        alone = players.count_for(SECONDS)
        with attacks.KeepAliveFlood(base, addresses=12, per_address=400) as flood:
            time.sleep(1)
            attacked = players.count_for(SECONDS)
            newcomers = attacks.newcomers_playing(base, 5)
            held = flood.open
    print(f"players alone {alone}, under 12 x 400 keep-alives {attacked}, held {held}, newcomers {newcomers}")
    assert held > 2400  # the flood was held, not refused (a connection idle past 5 s is closed, and opened again)
    assert attacked >= alone / 2, (alone, attacked, players.failures)
    assert attacks.served_share(newcomers) == 1, newcomers


def test_newcomers_play_while_250_networks_make_sessions(tmp_path, make_run):
    """250 addresses, each on a network of its own, make sessions as fast as the server
    answers: each network spends its own budget, not the newcomers'."""
    with make_run(servers.app_env(tmp_path)) as base, attacks.Players(base) as players:
        alone = players.count_for(SECONDS)
        with attacks.SessionFlood(base, addresses=250) as flood:
            time.sleep(1)
            attacked = players.count_for(SECONDS)
            newcomers = attacks.newcomers_playing(base, 10)
    print(f"players alone {alone}, under a session flood {attacked}, flood {flood.statuses}, newcomers {newcomers}")
    assert attacks.served_share(newcomers) >= 0.8, newcomers
    assert attacked >= alone / 2, (alone, attacked, players.failures)
    assert flood.total > 500


def test_a_chunked_body_of_4_mb_is_refused_by_the_proxy(tmp_path, make_run):
    with make_run(servers.app_env(tmp_path)) as base, attacks.Players(base) as players:
        body = attacks.chunked_body(4_000_000)
        statuses = [attacks.chunked_post(base, body, source=f"127.8.0.{n + 1}") for n in range(20)]
        assert players.count_for(1) > 0
    assert set(statuses) == {413}, statuses
