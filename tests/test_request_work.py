"""Work a request does once: the stored game decoded and replayed once, the board's view
built once, however many parts of the request ask for them."""

import random
from collections import Counter

import pytest

from ttt_web.app import create_app
from ttt_web.core.game import Game
from ttt_web.play import page as play_page
from ttt_web.web import board_view
from ttt_web.web.limits import limiter

from .page import Page

pytestmark = pytest.mark.unit


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE": str(tmp_path / "ttt.sqlite3")})
    return app.test_client()


@pytest.fixture
def work(monkeypatch):
    """How often the game was decoded, replayed (a Game built from its moves) and drawn."""
    calls = Counter()
    decode, replay, draw = Game.from_data.__func__, Game.__post_init__, board_view.board_view

    def counting_decode(cls, data):
        calls["decode"] += 1
        return decode(cls, data)

    def counting_replay(game):
        calls["replay"] += 1
        replay(game)

    def counting_draw(*args, **kwargs):
        calls["board view"] += 1
        return draw(*args, **kwargs)

    monkeypatch.setattr(Game, "from_data", classmethod(counting_decode))
    monkeypatch.setattr(Game, "__post_init__", counting_replay)
    monkeypatch.setattr(play_page, "board_view", counting_draw)
    return calls


def counted(work: Counter, request) -> tuple[object, dict]:
    work.clear()
    response = request()
    return response, dict(work)


def a_move_link(client) -> str:
    return min(Page(client.get("/").text).links.values())


def test_a_move_decodes_and_replays_the_stored_game_once(client, work):
    client.get(a_move_link(client))  # the first move stores the game
    link = a_move_link(client)
    response, calls = counted(work, lambda: client.get(link))
    assert response.status_code == 303
    assert calls == {"decode": 1, "replay": 1}


def test_the_page_decodes_replays_and_draws_once(client, work):
    location = client.get(a_move_link(client)).headers["Location"]
    response, calls = counted(work, lambda: client.get(location))
    assert response.status_code == 200
    assert calls == {"decode": 1, "replay": 1, "board view": 1}


def test_an_earlier_board_is_not_replayed_again(client, work):
    client.get(a_move_link(client))
    location = client.get(a_move_link(client)).headers["Location"]
    earlier = location.split("#")[0].rsplit("n=", 1)[0] + "n=2"
    response, calls = counted(work, lambda: client.get(earlier))
    assert response.status_code == 200
    assert calls == {"decode": 1, "replay": 1, "board view": 1}


def test_undo_and_a_new_game_decode_once(client, work):
    client.get(a_move_link(client))
    page = Page(client.get("/").text)
    response, calls = counted(work, lambda: client.post(page.action("undo"), data=page.form("undo")))
    assert response.status_code == 303
    assert calls == {"decode": 1, "replay": 1}
    page = Page(client.get("/").text)
    response, calls = counted(work, lambda: client.post(page.action("new-game"), data=page.form("new-game")))
    assert response.status_code == 303
    assert calls == {"decode": 1, "replay": 2}  # the stored game, and the new one from its start


def test_boards_derived_without_a_replay_are_the_replayed_boards():
    """A move, an earlier board and an undo move the board on or back; each is the board a
    replay of the same moves gives."""
    rng = random.Random(7)
    for _ in range(200):
        game = Game.start(rng, side=rng.choice("XO"), difficulty="easy")
        while not game.over:
            game = game.play(rng.choice([n for n in range(9) if n not in game.moves]), rng)
            replayed = Game(token=game.token, side=game.side, difficulty=game.difficulty, moves=game.moves)
            assert game.board == replayed.board and game.winner == replayed.winner
        for number in range(game.number + 1):
            assert game.at(number).board == Game(token="", moves=game.moves[:number]).board
        if game.can_undo:
            undone = game.counted().undo()
            assert not undone.scored and undone.board == Game(token="", moves=undone.moves).board


def test_the_limiter_runs_only_for_requests_that_may_create_a_session(client, monkeypatch):
    """A page (a GET that changes nothing) and a player's move once the session is stored do
    not run Flask-Limiter's hooks at all; a first move, which may create a session, and a new
    room (a limit of its own) have their limits resolved and counted."""
    resolved, checked = [], []
    resolve, scope = limiter.limit_manager.resolve_limits, limiter.limit_manager.exemption_scope
    monkeypatch.setattr(limiter.limit_manager, "resolve_limits", lambda *a, **k: resolved.append(1) or resolve(*a, **k))
    monkeypatch.setattr(limiter.limit_manager, "exemption_scope", lambda *a, **k: checked.append(1) or scope(*a, **k))
    link = a_move_link(client)
    assert resolved == checked == []
    assert client.get(link).status_code == 303
    assert resolved and checked
    resolved.clear()
    checked.clear()
    assert client.get("/").status_code == 200
    assert client.get(a_move_link(client)).status_code == 303
    assert resolved == checked == []
    token = Page(client.get("/").text).form("undo")["game"]
    assert client.post("/room/new", data={"game": token}).status_code == 303
    assert resolved
