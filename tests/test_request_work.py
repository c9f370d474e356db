"""Work a request does once: the stored game decoded and replayed once, the board's view
built once, however many parts of the request ask for them."""

import dataclasses
import random
from collections import Counter

import flask
import pytest
from cachetools import LRUCache

from ttt_web.app import create_app
from ttt_web.core import game as game_module
from ttt_web.core.game import Game
from ttt_web.play import page as play_page
from ttt_web.web import board_view, limits, stored_games
from ttt_web.web.limits import Limits

from .page import Page


@pytest.fixture
def client(tmp_path):
    app = create_app({"TESTING": True, "SECRET_KEY": "test-secret", "DATABASE": str(tmp_path / "ttt.sqlite3")})
    return app.test_client()


@pytest.fixture
def work(monkeypatch):
    """How often the stored game was decoded, replayed (a Game built from its moves) and
    drawn."""
    calls = Counter()
    decode, replay, draw = stored_games.decode, game_module._replayed, board_view.board_view

    def counting_decode(data):
        calls["decode"] += 1
        return decode(data)

    def counting_replay(*args):
        calls["replay"] += 1
        return replay(*args)

    def counting_draw(*args, **kwargs):
        calls["board view"] += 1
        return draw(*args, **kwargs)

    monkeypatch.setattr(stored_games, "decode", counting_decode)
    monkeypatch.setattr(game_module, "_replayed", counting_replay)
    monkeypatch.setattr(play_page, "board_view", counting_draw)
    return calls


def counted(work: Counter, request, kept: bool = False) -> tuple[object, dict]:
    """What `request` decoded, replayed and drew; unless `kept`, with no game kept decoded
    (as on a worker that did not store it)."""
    if not kept:
        stored_games.decoded.cache_clear()
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


def test_a_game_read_once_is_not_replayed_by_the_next_request_that_reads_it(client, work):
    location = client.get(a_move_link(client)).headers["Location"]
    response, calls = counted(work, lambda: client.get(location), kept=True)
    assert response.status_code == 200
    assert calls == {"decode": 1, "replay": 1, "board view": 1}  # the record the move stored, read once
    response, calls = counted(work, lambda: client.get(location), kept=True)
    assert calls == {"decode": 1, "board view": 1}  # kept decoded, not replayed; the board's view made again
    next_move = min(Page(response.text).links.values())
    response, calls = counted(work, lambda: client.get(next_move), kept=True)
    assert response.status_code == 303
    assert calls == {"decode": 1}


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
    not ask the limiter anything; a first move, which may create a session, and a new room (a
    limit of its own) are tested and counted."""
    asked = []
    refusal = Limits.refusal
    monkeypatch.setattr(Limits, "refusal", lambda self, *a, **k: asked.append(a[0]) or refusal(self, *a, **k))
    link = a_move_link(client)
    assert asked == []
    assert client.get(link).status_code == 303
    assert asked == ["NEW_SESSION_LIMIT", "NEW_SESSION_LIMIT"]  # tested before the view, counted after it
    asked.clear()
    assert client.get("/").status_code == 200
    assert client.get(a_move_link(client)).status_code == 303
    assert asked == []
    token = Page(client.get("/").text).form("undo")["game"]
    assert client.post("/room/new", data={"game": token}).status_code == 303
    assert asked == ["NEW_ROOM_LIMIT"]


def drawn(app, game: Game, teach_on: bool = False) -> board_view.BoardView:
    with app.test_request_context("/"):
        return board_view.board_view(game, teach_on)


def test_a_board_is_drawn_once_for_everyone_in_its_position_with_each_ones_own_links(client):
    """Two games in one position share the drawing (cells, status, labels), whatever their
    versions; each page's move links carry its own game's token and version, and no page
    carries another's."""
    app = client.application
    ann = Game(token="ann-token-0000000000000", moves=(0, 4), version=1)
    bo = Game(token="bo-token-00000000000000", moves=(0, 4), version=3)  # after an undo and a move
    mine, theirs = drawn(app, ann), drawn(app, bo)
    assert mine.rows is theirs.rows and mine.status is theirs.status
    assert mine.link.endswith(f"game={ann.token}&v=1&") and theirs.link.endswith(f"game={bo.token}&v=3&")
    with app.test_request_context("/"):
        html = flask.render_template("partials/board.html", view=mine)
    assert html.count(f"/move?game={ann.token}&amp;v=1&amp;n=2&amp;") == 7 and bo.token not in html


GAMES = [
    Game(token="t", moves=(0, 4)),
    Game(token="t", moves=(0, 4, 8)),
    Game(token="t", moves=(0, 4), side="O"),
    Game(token="t", moves=(0, 4), side="O", given=2),  # played on from the position: said so
    Game(token="t", moves=(0, 4), difficulty="easy"),
    Game(token="t", moves=(0, 4), mode="friend"),
    Game(token="t", moves=(0, 4), mode="friend", names=("Ann", "Bo")),
    Game(token="t", moves=(0, 4), mode="friend", names=("Bo", "Ann")),
    Game(token="t", moves=(0, 3, 1, 4, 2), mode="friend", names=("Ann", "")),
    Game(token="t", moves=(0, 3, 1, 4, 2), mode="friend", names=("Ann", "Bo")),
]


@pytest.mark.parametrize("teach_on", [False, True])
def test_a_kept_board_is_the_one_its_game_would_be_drawn(client, teach_on):
    """Whatever the drawing depends on finds it: each of games that differ in one thing (the
    moves, the side, the mode, the names, the moves given, teach mode), drawn after the others, is what a
    drawing of its own would be."""
    app = client.application
    for game in GAMES + GAMES[::-1]:
        with app.test_request_context("/"):
            kept = board_view.board_view(game, teach_on)
            own = board_view._drawn(game, teach_on, True, True, {}, "", None).linked(kept.link)
        assert kept == own, game


def test_kept_boards_are_bounded_and_never_changed_in_place(client, monkeypatch):
    app = client.application
    assert board_view._DRAWN.maxsize == board_view.DRAWN
    monkeypatch.setattr(board_view, "_DRAWN", LRUCache(maxsize=3))
    for moves in [(0,), (1,), (2,), (3,), (4,)]:
        view = drawn(app, Game(token="t", moves=moves))
    assert len(board_view._DRAWN) <= 3
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.rows[0][0].classes += " tried"
    tried = view.with_cell(0, classes="cell tried")
    assert tried.rows[0][0].classes == "cell tried" and drawn(app, Game(token="t", moves=(4,))) == view


def test_a_page_decides_once_that_no_limit_applies(client, monkeypatch):
    """The limiter's two hooks share one decision: a player's page (its session stored) need
    not even ask whether it may change its session; a newcomer's page asks once."""
    asked = []
    changes = limits.changes_session
    monkeypatch.setattr(limits, "changes_session", lambda request: asked.append(1) or changes(request))
    assert client.get("/").status_code == 200
    assert len(asked) == 1
    client.get(a_move_link(client))
    asked.clear()
    assert client.get("/").status_code == 200
    assert asked == []
