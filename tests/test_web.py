"""The web app over HTTP with Flask's test client: whole games, links, hostile requests."""

import os
import random
import re
import stat
import time
from datetime import timedelta
from pathlib import Path

import pytest
import redis

from tests.page import Page
from ttt_web import sessions
from ttt_web.app import create_app, instance_secret


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
    assert "another game" in Page(response.text).message
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
    token, number = page.form("undo")["game"], page.form("undo")["n"]
    row, col = divmod(page.marks.index("."), 3)
    response = play.client.get(f"/move?game={token}&n={number}&row={row}&col={col}")
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


def test_new_game_resets_and_rotates_the_session_id(play, client, app):
    play.move(1, 1)
    old_sid = client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    page = play.new_game()
    assert page.marks == "." * 9
    new_sid = client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    assert new_sid != old_sid
    # The old id leads to the new game for a minute only, for requests still in flight on
    # it (another tab), and moves their cookie over to the new id.
    late = app.test_client()
    late.set_cookie(app.config["SESSION_COOKIE_NAME"], old_sid)
    assert Page(late.get("/").text).form("undo")["game"] == page.form("undo")["game"]
    assert late.get_cookie(app.config["SESSION_COOKIE_NAME"]).value == new_sid
    assert 0 < seconds_to_live(app, old_sid) <= sessions.POINTER_SECONDS


def seconds_to_live(app, sid: str) -> float:
    key = app.config["SESSION_KEY_PREFIX"] + sid
    if app.config.get("REDIS_URL"):
        return redis.Redis.from_url(app.config["REDIS_URL"]).ttl(key)
    with open(app.session_interface.cache._get_filename(key), "rb") as f:
        return sessions.HEADER.unpack(f.read(sessions.HEADER.size))[0] - time.time()


def test_a_cross_site_post_cannot_reset_the_game(play):
    page = play.move(1, 1)
    data = page.form("new-game")
    for headers in [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Origin": "null"}]:
        assert play.client.post("/new", data=data, headers=headers).status_code == 403
    assert play.client.post("/new", data={**data, "game": "forged"}).status_code == 403
    assert play.page().marks == page.marks


def test_two_thousand_sessions_are_all_kept(app, stored):
    clients = [app.test_client() for _ in range(2000)]
    for n, c in enumerate(clients):
        c.environ_base["REMOTE_ADDR"] = f"127.1.{n // 256}.{n % 256}"  # 2,000 players, not one flooding
        assert c.get(f"/move?n=0&row={n % 3}&col={n // 3 % 3}").status_code == 303
    assert stored() == 2000
    for n, c in enumerate(clients):
        assert Page(c.get("/").text).marks[3 * (n % 3) + n // 3 % 3] == "X", n


def test_a_session_file_is_rewritten_in_place_and_can_grow(tmp_path):
    cache = sessions.StrictFileSystemCache(str(tmp_path), threshold=0, default_timeout=0)
    cache.set("k", {"moves": [4]})
    path = tmp_path / os.path.basename(cache._get_filename("k"))
    inode = path.stat().st_ino
    assert path.stat().st_size == sessions.BLOCK
    cache.set("k", {"moves": [4, 0]})
    assert cache.get("k") == {"moves": [4, 0]} and path.stat().st_ino == inode
    big = {"moves": [4], "note": "x" * 5000}
    cache.set("k", big)  # outgrows its block: written beside it and renamed over it
    assert cache.get("k") == big and path.stat().st_size == 2 * sessions.BLOCK
    cache.set("k", {"moves": []})  # shorter again: padded, in place
    assert cache.get("k") == {"moves": []} and path.stat().st_size == 2 * sessions.BLOCK
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left


def test_idle_sessions_expire_and_expired_files_are_swept(tmp_path):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "s",
            "SESSION_DIR": str(tmp_path),
            "PERMANENT_SESSION_LIFETIME": timedelta(seconds=60),
            "SESSION_SWEEP_INTERVAL": 0,
        }
    )
    client = app.test_client()
    client.get("/move?n=0&row=1&col=1")
    files = [Path(entry.path) for entry in sessions.stored_files(tmp_path)]
    assert len(files) == 1
    assert sessions.sweep(tmp_path) == 0
    assert sessions.sweep(tmp_path, now=files[0].stat().st_mtime + 61) == 1
    assert not files[0].exists()


def test_sweeps_are_spaced_out_by_the_interval(tmp_path):
    assert sessions._sweep_due(tmp_path, 600) is False  # first call sets the marker
    assert sessions._sweep_due(tmp_path, 600) is False
    assert sessions._sweep_due(tmp_path, 0) is True


def test_session_data_is_json_native(play, client, app):
    play.move(1, 1)
    play.submit("teach")
    sid = client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    interface = app.session_interface
    data = interface._retrieve_session_data(interface._get_store_id(sid))

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
