"""Settings: read from TTT_<KEY> (Flask's from_prefixed_env) as the type of their defaults,
each listed once in docs/configuration.md; no start on Redis without SECRET_KEY."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

import pytest

from ttt_web.app import FIXED, SETTINGS, create_app

pytestmark = pytest.mark.unit

DOC = Path(__file__).resolve().parent.parent / "docs" / "configuration.md"


@pytest.fixture
def environ(monkeypatch, tmp_path):
    """Sets environment variables for the app made next, in an instance folder of its own."""
    monkeypatch.setenv("TTT_INSTANCE_DIR", str(tmp_path / "instance"))
    for name in ("SECRET_KEY", "REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    return lambda **names: [monkeypatch.setenv(name, value) for name, value in names.items()]


def test_settings_come_from_ttt_variables_as_the_type_of_their_default(environ):
    environ(
        TTT_MAX_ROOMS="12",
        TTT_KEEP_RECENT_HOURS="1.5",
        TTT_SESSION_DAYS="2",
        TTT_HTTPS="true",
        TTT_TRUSTED_HOSTS="a.example, b.example",
        TTT_NEW_ROOM_LIMIT="5 per minute",
        TTT_METRICS_TOKEN="12e45",  # text, though it reads as a number
    )
    config = create_app().config
    assert config["MAX_ROOMS"] == 12 and config["KEEP_RECENT_HOURS"] == 1.5
    assert config["PERMANENT_SESSION_LIFETIME"] == timedelta(days=2)
    assert config["HTTPS"] is True and config["SESSION_COOKIE_SECURE"] is True
    assert config["SESSION_COOKIE_NAME"] == "__Host-ttt" and config["THEME_COOKIE_NAME"] == "__Host-ttt-theme"
    assert config["TRUSTED_HOSTS"] == ["a.example", "b.example"]
    assert config["NEW_ROOM_LIMIT"] == "5 per minute"
    assert config["METRICS_TOKEN"] == "12e45"


def test_the_defaults_without_any_variable(environ, tmp_path):
    config = create_app().config
    assert {key: config[key] for key in ("MAX_SESSIONS", "STREAMS", "HTTPS", "TRUSTED_HOSTS", "METRICS_TOKEN")} == {
        "MAX_SESSIONS": 100000,
        "STREAMS": 250,
        "HTTPS": False,
        "TRUSTED_HOSTS": None,
        "METRICS_TOKEN": "",
    }
    assert config["SESSION_COOKIE_NAME"] == "ttt" and config["DATABASE"] == str(tmp_path / "instance" / "ttt.sqlite3")


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("TTT_MAX_ROOMS", "many", "TTT_MAX_ROOMS='many' is not a whole number"),
        ("TTT_STREAM_SECONDS", "5s", "TTT_STREAM_SECONDS='5s' is not a number"),
        ("TTT_HTTPS", "maybe", "TTT_HTTPS='maybe' is not 1 or 0"),
    ],
)
def test_a_value_of_the_wrong_type_stops_the_app_and_names_the_variable(environ, name, value, said):
    environ(**{name: value})
    with pytest.raises(ValueError, match=re.escape(said)):
        create_app()


def test_on_redis_without_a_secret_key_the_app_refuses_to_start(environ):
    environ(REDIS_URL="redis://127.0.0.1:9/0")  # nothing listens: the refusal comes before any connection
    with pytest.raises(RuntimeError, match="SECRET_KEY is not set"):
        create_app()


def test_on_the_embedded_store_a_secret_is_made_and_kept(environ, tmp_path):
    first = create_app().config["SECRET_KEY"]
    assert len(first) == 64 and (tmp_path / "instance" / "secret_key").read_text() == first
    assert create_app().config["SECRET_KEY"] == first
    environ(SECRET_KEY="given")
    assert create_app().config["SECRET_KEY"] == "given"


def test_every_setting_is_listed_once_in_the_docs():
    text = DOC.read_text()
    named = [line.split("`")[1] for line in text.splitlines() if line.startswith("| `")]  # each row's first cell
    assert len(named) == len(set(named)), "a setting listed twice"
    for key in SETTINGS:
        assert f"TTT_{key}" in named, key
    for key in [*FIXED, "SESSION_COOKIE_NAME", "TEACH_COOKIE_NAME", "REFRESH_COOKIE_NAME", "THEME_COOKIE_NAME"]:
        assert f"`{key}`" in text, key
