"""The web app over HTTP with Flask's test client: whole games, links, hostile requests."""

import contextlib
import random
import re
import sqlite3
import stat
import time
from datetime import timedelta

import pytest

from tests.conftest import records
from tests.page import Page
from ttt_web.app import instance_secret


def test_a_looker_sees_a_playable_board_and_stores_nothing(client, stored):
    for _ in range(5):
        response = client.get("/")
        assert response.status_code == 200
        assert "Set-Cookie" not in response.headers
    page = Page(response.text)
    assert len(page.cells) == 9
    assert page.marks == "." * 9
    assert len(page.links) == 9
    assert page.state == "playing" and page.winner == ""
    assert stored() == 0


def test_the_first_move_creates_the_game_and_the_ai_replies(play, stored):
    page = play.move(1, 1)
    assert page.marks.count("X") == 1 and page.marks.count("O") == 1
    assert page.marks[4] == "X"
    assert stored() == 1


@pytest.mark.parametrize("seed", range(12))
def test_whole_games_by_following_links(play, seed):
    play.new_game(difficulty="impossible")
    page = play.finish(random.Random(seed))
    assert page.state == "over"
    assert page.winner in ("O", "")  # the AI plays O and never loses
    assert page.links == {}
    assert len(page["history"].children) and len(list(page["history"].iter("li"))) == 9 - page.marks.count(".")
    if page.winner:
        assert len([c for c in page.cells if "in-line" in c.attrs["class"]]) == 3


def test_a_move_redirects_with_303_and_refresh_or_back_never_repeats_it(play, client):
    first = play.page()
    href = first.links[0, 0]
    response = client.get(href)
    assert response.status_code == 303 and response.headers["Location"].startswith("/?g=")
    after = play.page()
    assert client.get("/").status_code == 200
    assert play.page().marks == after.marks
    again = client.get(href)  # back button, then the same link
    assert again.status_code == 409
    assert "out of date" in Page(again.text).message
    assert play.page().marks == after.marks


def test_status_line_and_title_follow_the_game(play):
    page = play.page()
    assert page["status"].text == "Your turn: place X."
    assert page.title.startswith("Your turn")
    page = play.move(1, 1)
    assert re.fullmatch(r"The AI played [a-c][1-3]\. Your turn\.", page["status"].text)
    assert page.title.startswith(page["status"].text)
    page = play.finish(random.Random(3))
    assert re.fullmatch(
        r"The AI played [a-c][1-3] and won\.|(The AI played [a-c][1-3]: it's a draw|You won!|It's a draw)\.?",
        page["status"].text,
    )
    assert page.title.startswith(page["status"].text)


def test_a_link_from_another_visitors_page_changes_nothing(app, play):
    other = app.test_client()
    other.get(Page(other.get("/").text).links[0, 0])
    foreign = next(iter(Page(other.get("/").text).links.values()))
    play.move(1, 1)
    before = play.page().marks
    response = play.client.get(foreign)
    assert response.status_code == 403
    assert "from an earlier game" in Page(response.text).message
    assert play.page().marks == before


def test_a_stale_link_from_an_old_tab_changes_nothing(play):
    old_tab = play.page()
    play.move(1, 1)
    before = play.page().marks
    for href in old_tab.links.values():
        assert play.client.get(href).status_code in (403, 409)
    assert play.page().marks == before


def test_a_double_click_plays_once(play):
    href = play.page().links[0, 0]
    assert play.client.get(href).status_code == 303
    assert play.client.get(href).status_code == 409
    assert play.page().marks.count("X") == 1


def test_a_taken_cell_is_refused(play):
    page = play.move(1, 1)
    (row, col), link = next(iter(page.links.items()))  # whichever cell the AI left free
    taken = link.replace(f"row={row}&col={col}", "row=1&col=1")
    assert "row=1&col=1" in taken
    response = play.client.get(taken)
    assert response.status_code == 409
    assert "taken" in Page(response.text).message
    assert play.page().marks == page.marks


@pytest.mark.parametrize(
    "query",
    [
        "n=0&row=3&col=0",
        "n=0&row=0&col=-1",
        "n=0&row=1&col=1.5",
        "n=zero&row=1&col=1",
        "n=0&row=&col=1",
        "n=0&row=1",
        "",
        "n=0&row=%EF%BC%91&col=1",  # a full-width digit
        "n=0&row=\u0661&col=1",  # an Arabic-Indic digit
        "n=99999999999999999999&row=1&col=1",
        "n=0&row=1&col=1&row=2",
        "game[]=x&n=0&row=1&col=1",
    ],
)
def test_garbage_move_parameters_change_nothing_and_never_500(play, query):
    play.move(0, 0)
    before = play.page().marks
    response = play.client.get(f"/move?{query}")
    assert 400 <= response.status_code < 500
    assert play.page().marks == before


def test_garbage_parameters_from_a_looker_store_nothing(client, stored):
    for query in ["n=1&row=1&col=1", "game=abc&n=0&row=1&col=1", "n=0&row=9&col=9", "n=x"]:
        assert 400 <= client.get(f"/move?{query}").status_code < 500
    assert stored() == 0


def test_a_move_after_the_game_has_ended_is_refused(play):
    rng = random.Random(5)
    page = play.finish(rng)
    while "." not in page.marks:  # random play against the AI soon loses with cells to spare
        play.new_game()
        page = play.finish(rng)
    shown = page.form("undo")
    row, col = divmod(page.marks.index("."), 3)
    response = play.client.get(f"/move?game={shown['game']}&v={shown['v']}&n={shown['n']}&row={row}&col={col}")
    assert response.status_code == 409
    assert "over" in Page(response.text).message
    assert play.page().marks == page.marks


def test_prefetch_never_plays(play):
    href = play.page().links[1, 1]
    for header in [{"Sec-Purpose": "prefetch"}, {"Purpose": "prefetch"}, {"X-Moz": "prefetch"}]:
        assert play.client.get(href, headers=header).status_code == 403
    assert play.page().marks == "." * 9


def test_crawlers_are_kept_away_from_move_links(client):
    page = Page(client.get("/").text)
    assert all(a.attrs.get("rel") == "nofollow" for a in page["board"].iter("a"))
    assert any(m.attrs.get("name") == "robots" and "nofollow" in m.attrs["content"] for m in page.root.iter("meta"))
    robots = client.get("/robots.txt")
    assert robots.status_code == 200 and "Disallow: /move" in robots.text


def test_markup_contract(play):
    page = play.move(0, 0)
    assert len(page.cells) == 9
    for cell in page.cells:
        assert cell.attrs["data-row"] in "012" and cell.attrs["data-col"] in "012"
        assert cell.attrs["data-mark"] in ("X", "O", "")
    links = list(page["board"].iter("a"))
    assert len(links) == page.marks.count(".")
    assert {c.attrs["data-mark"] for c in page.cells if list(c.iter("a"))} == {""}
    assert page["new-game"].tag == "form" and page["new-game"].attrs["method"] == "post"


def test_a_new_game_keeps_the_session_id_and_the_score(play, client, app):
    """A new game is no change of privilege (there are no accounts): the id stays."""
    play.new_game(mode="friend")
    play.finish(random.Random(1))
    sid = client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    page = play.new_game(mode="friend")
    assert (
        page.marks == "." * 9 and sum(int(page["score"].attrs[f"data-{k}"]) for k in ("wins", "losses", "draws")) == 1
    )
    assert client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value == sid
    assert list(records(app)) == [sid]


def test_a_made_up_session_id_is_never_adopted(app):
    client = app.test_client()
    client.set_cookie(app.config["SESSION_COOKIE_NAME"], "chosen-by-an-attacker")
    client.get("/move?n=0&row=1&col=1")
    sid = client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    assert sid != "chosen-by-an-attacker" and list(records(app)) == [sid]


def test_a_cross_site_post_cannot_reset_the_game(play):
    page = play.move(1, 1)
    data = page.form("new-game")
    for headers in [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}]:
        assert play.client.post("/new", data=data, headers=headers).status_code == 403
    assert play.client.post("/new", data={**data, "game": "forged"}).status_code == 403
    assert play.page().marks == page.marks


@pytest.mark.slow
def test_two_thousand_sessions_are_all_kept(app_factory, both_stores):
    app = app_factory()
    clients = [app.test_client() for _ in range(2000)]
    for n, c in enumerate(clients):
        c.environ_base["REMOTE_ADDR"] = f"127.{1 + n // 256}.{n % 256}.1"  # 2,000 players, each on a network of its own
        assert c.get(f"/move?n=0&row={n % 3}&col={n // 3 % 3}").status_code == 303
    assert len(records(app)) == 2000
    for n, c in enumerate(clients):
        assert Page(c.get("/").text).marks[3 * (n % 3) + n // 3 % 3] == "X", n


def test_idle_sessions_expire_and_are_removed_after_a_response(app_factory, both_stores):
    app = app_factory(PERMANENT_SESSION_LIFETIME=timedelta(seconds=1), TIDY_SECONDS=0)
    idle, active = app.test_client(), app.test_client()
    idle.get("/move?n=0&row=1&col=1")
    time.sleep(1.2)
    active.get("/move?n=0&row=1&col=1")  # its response's upkeep removes the idle session
    assert len(records(app)) == 1
    assert Page(idle.get("/").text).marks == "." * 9
    if not app.config.get("REDIS_URL"):  # gone from the table, not merely hidden
        with contextlib.closing(sqlite3.connect(app.config["DATABASE"])) as db:
            assert db.execute("SELECT count(*) FROM sessions").fetchone()[0] == 1


def test_upkeep_runs_at_most_once_per_interval_in_a_process(app_factory, monkeypatch):
    app = app_factory(TIDY_SECONDS=600)
    runs = []
    monkeypatch.setattr(app.extensions["ttt.store"], "tidy", lambda tables: runs.append(tables) or 0)
    client = app.test_client()
    for _ in range(5):
        client.get("/")
    assert len(runs) == 1


def test_session_data_is_json_native(play, client, app, both_stores):
    play.move(1, 1)
    play.submit("teach")
    sid = client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    data = records(app)[sid]

    def native(value):
        if isinstance(value, dict):
            return all(isinstance(k, str) and native(v) for k, v in value.items())
        if isinstance(value, list):
            return all(native(v) for v in value)
        return isinstance(value, (str, int, bool)) or value is None

    assert native(data), data
    assert data["game"]["moves"][0] == 4


def test_secret_key_is_made_once_and_kept_private(tmp_path):
    first = instance_secret(tmp_path)
    assert len(first) >= 64
    assert instance_secret(tmp_path) == first
    assert stat.S_IMODE((tmp_path / "secret_key").stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["secret_key"]


def test_page_views_do_not_rewrite_the_session(play, app):
    play.move(1, 1)
    assert app.config["SESSION_REFRESH_EACH_REQUEST"] is False
    response = play.client.get("/")
    assert "Set-Cookie" not in response.headers
    assert re.search(r"Cookie", response.headers["Vary"])
