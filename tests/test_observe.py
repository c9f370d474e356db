"""What an operator watches (ttt_web/web/observe.py), through the app's test client: /healthz,
/readyz and /metrics, the request id on every response and in the log. The same under
gunicorn, across workers, is in test_observe_servers.py."""

from __future__ import annotations

import logging
import re

import pytest
from prometheus_client.parser import text_string_to_metric_families
from werkzeug.test import EnvironBuilder

from tests import test_rooms
from tests.page import Page
from ttt_web.app import create_app
from ttt_web.store.base import Write, WriteConflict

pytestmark = pytest.mark.unit

TOKEN = "a-long-random-token"
OWN_PATHS = ("/healthz", "/readyz", "/metrics")
MADE_ID = re.compile(r"[0-9a-f]{32}")


@pytest.fixture
def app(tmp_path):
    return create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3"), "METRICS_TOKEN": TOKEN})


def metrics(client) -> dict[tuple[str, tuple], float]:
    """Every sample /metrics gives, by its name and labels."""
    response = client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status_code == 200 and response.mimetype == "text/plain"
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(response.text)
        for sample in family.samples
    }


def sample(samples: dict, name: str, **labels: str) -> float:
    return samples.get((name, tuple(sorted(labels.items()))), 0.0)


def with_a_session(app):
    """A client whose cookie names a stored session (a game with one move)."""
    client = app.test_client()
    assert client.get("/move?n=0&row=1&col=1").status_code == 303
    return client


def test_the_three_answer_without_reading_or_setting_a_session(app):
    client = with_a_session(app)
    for path in OWN_PATHS:
        before = sample(metrics(client), "ttt_store_call_seconds_count", call="get")
        response = client.get(path, headers={"Authorization": f"Bearer {TOKEN}"})
        assert response.status_code == 200, path
        assert "Set-Cookie" not in response.headers and "Cookie" not in response.headers.get("Vary", ""), path
        assert response.headers["Cache-Control"] == "no-store"
        reads = sample(metrics(client), "ttt_store_call_seconds_count", call="get") - before
        assert reads == (1 if path == "/readyz" else 0), path  # /readyz's one probe, and no session
    before = sample(metrics(client), "ttt_store_call_seconds_count", call="get")
    assert client.get("/").status_code == 200
    assert sample(metrics(client), "ttt_store_call_seconds_count", call="get") == before + 1  # a page reads it


def test_healthz_and_readyz_answer_plainly(app):
    client = app.test_client()
    assert client.get("/healthz").text == "ok\n"
    assert client.get("/readyz").text == "ready\n"
    assert client.head("/healthz").data == b""


def test_behind_a_proxy_the_three_know_the_client_too(tmp_path):
    """The access log reads the environ's REMOTE_ADDR after the app: behind nginx (PROXY_HOPS)
    the client's, for the operator's paths as for the rest."""
    app = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "t.sqlite3"), "PROXY_HOPS": 1})
    for path in ["/healthz", "/readyz", "/robots.txt"]:
        environ = EnvironBuilder(path=path, headers={"X-Forwarded-For": "192.0.2.7"}).get_environ()
        environ["REMOTE_ADDR"] = ""  # gunicorn on a unix socket
        response = app.wsgi_app(environ, lambda status, headers, *exc_info: None)
        b"".join(response)
        assert environ["REMOTE_ADDR"] == "192.0.2.7", path


def test_none_of_the_three_is_rate_limited(tmp_path):
    limited = {"NEW_SESSION_LIMIT": "1 per day", "METRICS_TOKEN": TOKEN}
    app = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "ttt.sqlite3"), **limited})
    assert app.test_client().get("/move?n=0&row=1&col=1").status_code == 303
    assert app.test_client().get("/move?n=0&row=1&col=1").status_code == 429  # the limit is spent
    client = app.test_client()
    for _ in range(50):
        for path in OWN_PATHS:
            assert client.get(path, headers={"Authorization": f"Bearer {TOKEN}"}).status_code == 200


def test_metrics_need_the_token_and_are_not_there_without_one(app, tmp_path):
    client = app.test_client()
    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics").headers["WWW-Authenticate"] == "Bearer"
    assert client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}x"}).status_code == 401
    assert client.get("/metrics", headers={"Authorization": TOKEN}).status_code == 401
    assert client.get("/metrics", headers={"Authorization": "Bearer é"}).status_code == 401
    assert "ttt_requests_total" in client.get("/metrics", headers={"Authorization": f"Bearer {TOKEN}"}).text
    off = create_app({"SECRET_KEY": "s", "DATABASE": str(tmp_path / "off.sqlite3")}).test_client()
    assert off.get("/metrics", headers={"Authorization": "Bearer "}).status_code == 404


def test_metrics_count_requests_by_endpoint_and_status_and_the_refusals(tmp_path):
    app = create_app(
        {"SECRET_KEY": "s", "DATABASE": str(tmp_path / "t.sqlite3"), "METRICS_TOKEN": TOKEN, "STREAMS_PER_ROOM": 0}
    )
    client = app.test_client()
    room = app.test_client().post("/room/new").headers["Location"]
    before = metrics(client)
    client.get("/")
    client.get("/move?n=0&row=1&col=1")
    client.get("/nowhere")
    client.get(f"{room}/events")  # refused: no place for its stream
    after = metrics(client)

    def more(name: str, **labels: str) -> float:
        return sample(after, name, **labels) - sample(before, name, **labels)

    assert more("ttt_requests_total", endpoint="play.index", status="200") == 1
    assert more("ttt_requests_total", endpoint="play.move", status="303") == 1
    assert more("ttt_requests_total", endpoint="none", status="404") == 1
    assert more("ttt_requests_total", endpoint="rooms.events", status="503") == 1
    assert more("ttt_refused_total", status="503") == 1
    assert more("ttt_store_call_seconds_count", call="put") == 1  # the move's session
    assert sample(after, "ttt_stored_records", table="sessions") == 2  # the player's and the room maker's
    assert sample(after, "ttt_stored_records", table="rooms") == 1


def test_metrics_count_refused_compare_and_set_writes(app):
    client = with_a_session(app)
    sid = client.get_cookie(app.config["SESSION_COOKIE_NAME"]).value
    store, table = app.extensions["ttt.store"], app.session_interface.table
    record = store.get(table, sid)
    before = sample(metrics(client), "ttt_write_conflicts_total", table="sessions")
    assert store.put(table, sid, record.data, record.version) is not None
    assert store.put(table, sid, record.data, record.version) is None  # the version moved on
    with pytest.raises(WriteConflict):
        store.write_all([Write(table, sid, record.data, record.version)])
    assert sample(metrics(client), "ttt_write_conflicts_total", table="sessions") == before + 2


def test_a_409_and_a_429_are_counted(tmp_path):
    app = create_app(
        {
            "SECRET_KEY": "s",
            "DATABASE": str(tmp_path / "t.sqlite3"),
            "METRICS_TOKEN": TOKEN,
            "NEW_SESSION_LIMIT": "1 per day",
        }
    )
    first = with_a_session(app)
    page = Page(first.get("/").text)
    before = metrics(first)
    second = app.test_client()
    second.set_cookie(app.config["SESSION_COOKIE_NAME"], first.get_cookie(app.config["SESSION_COOKIE_NAME"]).value)
    href = next(iter(page.links.values()))
    assert first.get(href).status_code == 303
    assert second.get(href).status_code == 409  # a click on a page the other tab already moved on from
    assert app.test_client().get("/move?n=0&row=1&col=1").status_code == 429
    after = metrics(first)
    for status in ("409", "429"):
        assert (
            sample(after, "ttt_refused_total", status=status) == sample(before, "ttt_refused_total", status=status) + 1
        )


def test_open_event_streams_are_a_gauge(app):
    host, _ = test_rooms.pair(app)
    client = app.test_client()
    before = sample(metrics(client), "ttt_event_streams_open")
    response = client.get(f"{host.path}/events?v=0", buffered=False)
    assert next(iter(response.response)).startswith(b"retry:")
    assert sample(metrics(client), "ttt_event_streams_open") == before + 1
    response.close()
    assert sample(metrics(client), "ttt_event_streams_open") == before


@pytest.mark.parametrize("path", ["/", "/nowhere", "/move?n=x", "/static/style.css", *OWN_PATHS])
def test_every_response_carries_a_request_id(app, path):
    client = app.test_client()
    made = [client.get(path).headers["X-Request-ID"] for _ in range(2)]
    assert all(MADE_ID.fullmatch(rid) for rid in made) and made[0] != made[1]
    assert client.get(path, headers={"X-Request-ID": "lb-7f3a.2_x"}).headers["X-Request-ID"] == "lb-7f3a.2_x"


@pytest.mark.parametrize("given", ["a" * 65, "two words", "<script>", "é", "a/b", ""])
def test_an_unsafe_or_long_request_id_is_replaced(app, given):
    assert MADE_ID.fullmatch(app.test_client().get("/", headers={"X-Request-ID": given}).headers["X-Request-ID"])


def test_an_error_logged_during_a_request_names_its_id(app, tmp_path, caplog, capsys):
    @app.get("/crash")
    def crash():
        raise RuntimeError("boom")

    response = app.test_client().get("/crash", headers={"X-Request-ID": "trace-me-42"})
    assert response.status_code == 500 and response.headers["X-Request-ID"] == "trace-me-42"
    errors = [record for record in caplog.records if record.levelno >= logging.ERROR]
    assert errors and all(record.request_id == "trace-me-42" for record in errors)
    logged = capsys.readouterr().err
    assert "[trace-me-42]" in logged and "boom" in logged
