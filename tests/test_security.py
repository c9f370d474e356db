"""Headers, cookies, forged requests, error pages, static files, and a fuzzer."""

import functools
import re
import tempfile

import pytest
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from werkzeug.test import EnvironBuilder, run_wsgi_app
from werkzeug.wrappers import Response

from tests.conftest import read_only, records
from tests.page import Page
from ttt_web.app import ROOT, create_app
from ttt_web.core.room import Room
from ttt_web.web import errors, stored_games

REQUIRED_CSP = [
    "default-src 'self'",
    "script-src 'self'",
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'none'",
]


def assert_hardened(response):
    csp = response.headers["Content-Security-Policy"]
    assert all(part in csp for part in REQUIRED_CSP), csp
    assert "unsafe-inline" not in csp
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert response.headers["Referrer-Policy"] in ("same-origin", "no-referrer", "strict-origin")
    assert response.headers["X-Frame-Options"] == "DENY"


def test_every_kind_of_response_carries_the_security_headers(play):
    href = play.page().links[1, 1]
    responses = [
        play.client.get("/"),
        play.client.get(href),
        play.client.get(href),  # now stale: 409
        play.client.get("/move?n=x"),
        play.client.post("/new", data={}, headers={"Origin": "https://evil.example"}),
        play.client.get("/no/such/page"),
        play.client.delete("/"),
        play.client.get("/static/style.css"),
        play.client.get("/robots.txt"),
    ]
    assert [r.status_code for r in responses] == [200, 303, 409, 400, 403, 404, 405, 200, 200]
    for response in responses:
        assert_hardened(response)
    for response in responses[:7]:
        assert response.headers["Cache-Control"] == "no-store"


def test_templates_have_no_inline_script_or_style():
    """The one kind of script a template may load: a file of the site's own, with no body."""
    own_script = re.compile(r"""<script src="\{\{ url_for\('static', filename='[a-z]+\.js'\) \}\}" defer></script>""")
    for template in (ROOT / "templates").rglob("*.html"):
        text = own_script.sub("", template.read_text())
        assert "<script" not in text and "<style" not in text and " style=" not in text, template
        assert not re.search(r"\son[a-z]+\s*=", text), template  # no inline event handler (onclick=...)


def test_session_cookie_is_httponly_and_lax(play):
    response = play.client.get(play.page().links[0, 0])
    cookie = response.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_with_ttt_https_the_cookie_is_secure_and_host_bound(monkeypatch, tmp_path):
    monkeypatch.setenv("TTT_HTTPS", "1")
    app = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3")})
    client = app.test_client()
    response = client.get("/move?n=0&row=1&col=1", base_url="https://localhost")
    cookie = response.headers["Set-Cookie"]
    assert cookie.startswith("__Host-ttt=") and "Secure" in cookie and "HttpOnly" in cookie
    assert "Domain" not in cookie and "Path=/" in cookie
    assert response.headers["Strict-Transport-Security"].startswith("max-age=")


@pytest.mark.parametrize(
    ("path", "form", "at"),
    [
        ("/new", "new-game", "/"),
        ("/undo", "undo", "/"),
        ("/teach", "teach", "/"),
        ("/score/reset", "reset-score-confirm", "/score/reset"),
    ],
)
@pytest.mark.parametrize(
    "headers",
    [{"Origin": "https://evil.example"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}],
)
def test_cross_site_posts_change_nothing(play, path, form, at, headers):
    play.move(1, 1)
    page = play.page()
    response = play.client.post(path, data=play.page(at).form(form), headers=headers)
    assert response.status_code == 403
    after = play.page()
    assert (after.marks, after.html.count('aria-pressed="true"')) == (page.marks, 0)


def test_same_origin_posts_pass(play):
    play.move(1, 1)
    headers = {"Origin": "http://localhost", "Sec-Fetch-Site": "same-origin"}
    response = play.client.post("/new", data=play.page().form("new-game"), headers=headers)
    assert response.status_code == 303


def test_the_form_token_never_stores_a_session_for_lookers(client, stored):
    page = Page(client.get("/").text)
    assert page.form("new-game")["game"] == ""
    assert stored() == 0


@pytest.mark.parametrize(
    ("method", "path", "status"),
    [("GET", "/nowhere", 404), ("POST", "/", 405), ("PUT", "/move", 405), ("GET", "/move?n=1e9", 400)],
)
def test_error_pages_are_in_the_sites_style_and_reveal_nothing(client, method, path, status):
    response = client.open(path, method=method)
    assert response.status_code == status
    assert 'href="/static/style.css' in response.text
    assert "Traceback" not in response.text and "werkzeug" not in response.text.lower()


def test_a_crash_gives_the_500_page_without_internals(tmp_path):
    app = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3")})

    @app.get("/crash")
    def crash():
        raise RuntimeError("secret internals /etc/passwd")

    response = app.test_client().get("/crash")
    assert response.status_code == 500
    assert "secret internals" not in response.text and "Traceback" not in response.text
    assert "Something went wrong" in response.text
    assert_hardened(response)


@pytest.mark.parametrize("host", ["a" * 64 + ".example", "xn--" + "a" * 80, "..", "a..b", "b." + "a" * 300])
def test_a_malformed_host_gets_a_400_page_on_a_fresh_worker(tmp_path, host):
    app = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3")})
    environ = EnvironBuilder(path="/", headers={"Host": host}).get_environ()  # the test client chokes on these
    body, status, headers = run_wsgi_app(app, environ, buffered=True)
    response = Response(b"".join(body), status, headers)
    assert response.status_code == 400
    text = response.get_data(as_text=True)
    assert 'href="/"' in text and "Traceback" not in text
    assert_hardened(response)


def test_every_status_the_app_gives_carries_the_headers_and_its_own(tmp_path):
    app = create_app(
        {"SECRET_KEY": "s", "DATABASE": str(tmp_path / "s" / "ttt.sqlite3"), "NEW_SESSION_LIMIT": "1 per day"}
    )

    @app.get("/crash")
    def crash():
        raise RuntimeError("boom")

    client = app.test_client()
    assert client.get("/move?n=0&row=1&col=1").status_code == 303
    newcomer = app.test_client()
    responses = {
        400: client.get("/move?n=x"),
        404: client.get("/nowhere"),
        405: client.put("/"),
        413: client.post("/new", data={"x": "y" * 20_000}),
        429: newcomer.get("/move?n=0&row=1&col=1"),
        500: client.get("/crash"),
    }
    with read_only(tmp_path / "s"):
        responses[503] = client.post("/new", data=Page(client.get("/").text).form("new-game"))
    for status, response in responses.items():
        assert response.status_code == status, (status, response.text)
        assert_hardened(response)
        assert response.headers["Cache-Control"] == "no-store"
    assert responses[405].headers["Allow"]
    assert int(responses[429].headers["Retry-After"]) > 0
    assert int(responses[503].headers["Retry-After"]) == errors.RETRY_SECONDS


def test_a_failing_store_logs_one_line_per_request_not_a_traceback(tmp_path, caplog):
    directory = tmp_path / "db"
    client = create_app({"SECRET_KEY": "s", "DATABASE": str(directory / "ttt.sqlite3")}).test_client()
    assert client.get("/move?n=0&row=1&col=1").status_code == 303
    form = Page(client.get("/").text).form("new-game")
    with read_only(directory):
        for _ in range(3):
            caplog.clear()
            assert client.post("/new", data=form).status_code == 503
            records = [r for r in caplog.records if r.levelname in ("WARNING", "ERROR")]
            assert len(records) == 1 and records[0].exc_info is None, records
            assert "\n" not in records[0].getMessage()


@pytest.mark.parametrize(
    "path",
    [
        "/static/../wsgi.py",
        "/static/%2e%2e/wsgi.py",
        "/static/..%2fwsgi.py",
        "/static/%2e%2e%2fttt_web%2fapp.py",
        "/static//etc/passwd",
        "/static/....//wsgi.py",
        "/wsgi.py",
        "/ttt_web/app.py",
        "/instance/secret_key",
        "/templates/base.html",
    ],
)
def test_only_static_files_are_served(client, path):
    response = client.get(path, follow_redirects=True)  # "//" is merged by a 308 first
    assert response.status_code in (404, 400)
    assert "create_app" not in response.text and "import" not in response.text


# The fuzzer: random requests at every route, with a real game going on between them.


@functools.cache
def fuzzed() -> tuple[Flask, FlaskClient, str, tempfile.TemporaryDirectory]:
    """The app the fuzzer sends its requests to, its client, and a room whose host the client
    is: made at the first draw, not when the module is imported (collection makes nothing)."""
    folder = tempfile.TemporaryDirectory()
    app = create_app({"SECRET_KEY": "s", "DATABASE": f"{folder.name}/ttt.sqlite3"})
    client = app.test_client()
    room = client.post("/room/new").headers["Location"]
    app.test_client().post(f"{room}/join")
    return app, client, room, folder


def routes() -> list[str]:
    room = fuzzed()[2]
    actions = ("move", "join", "resign", "rematch", "leave", "refresh")
    return [*ROUTES, "/room/new", room, *(f"{room}/{action}" for action in actions)]


ROUTES = ["/", "/move", "/new", "/undo", "/teach", "/score/reset", "/robots.txt", "/favicon.ico", "/static/style.css"]
METHODS = ["GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"]
FIELDS = ["game", "n", "row", "col", "side", "difficulty", "mode", "cell", "x", "name", "name_x", "name_o", "swap"]
printable = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=30)
anytext = st.text(max_size=30)
values = st.one_of(anytext, st.integers(-5, 12).map(str), st.sampled_from(["X", "O", "ai", "friend", "easy", ""]))
requests = st.fixed_dictionaries(
    {
        "method": st.sampled_from(METHODS),
        "path": st.one_of(
            st.deferred(lambda: st.sampled_from(routes())),
            st.text(max_size=40).map(lambda s: "/" + s.lstrip("/").replace("?", "%3F")),
        ),
        "query": st.dictionaries(st.sampled_from(FIELDS) | anytext, values, max_size=5),
        "form": st.dictionaries(st.sampled_from(FIELDS) | anytext, values, max_size=5),
        "headers": st.dictionaries(
            st.sampled_from(["Origin", "Sec-Fetch-Site", "Purpose", "Referer", "Accept", "Content-Type", "X-Any"]),
            printable,
            max_size=3,
        ),
        "cookie": st.one_of(st.none(), printable),
        "real_move": st.booleans(),
    }
)


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(requests, min_size=1, max_size=6))
def test_fuzzed_requests_never_5xx_and_the_game_stays_legal(batch):
    app, client, _, _ = fuzzed()
    for req in batch:
        if req["real_move"]:
            links = list(Page(client.get("/").text).links.values())
            if links:
                assert client.get(links[len(links) // 2]).status_code == 303
        saved = client.get_cookie(app.config["SESSION_COOKIE_NAME"])
        if req["cookie"] is not None:
            client.set_cookie(app.config["SESSION_COOKIE_NAME"], req["cookie"])
        response = client.open(
            req["path"],
            method=req["method"],
            query_string=req["query"],
            data=req["form"] if req["method"] not in ("GET", "HEAD") else None,
            headers=req["headers"],
        )
        assert response.status_code < 500, (req, response.status_code)
        if req["cookie"] is not None and saved is not None:
            client.set_cookie(app.config["SESSION_COOKIE_NAME"], saved.value)
        assert_store_is_legal(app)


def assert_store_is_legal(app):
    """Every stored session holds, if any game, a legal one consistent with its history;
    the room, if still there, too."""
    for room in records(app, "rooms").values():
        assert Room.from_data(room) is not None
    for data in records(app).values():
        if "game" in data:
            game = stored_games.decode(data["game"])
            assert game is not None, data
            assert stored_games.encode(game) == data["game"]
