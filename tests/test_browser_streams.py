"""A room's page whose event stream is refused (the server holds as many as it may) falls back
to reloading by itself, with JavaScript and without, and the waiting host still sees the guest
arrive."""

import pytest
from playwright.sync_api import expect

from tests import servers
from tests.test_browser_rooms import invite, join, mark_page, person


@pytest.fixture(scope="module")
def refusing_server(tmp_path_factory, gunicorn):
    """Every stream refused (no place in any room), and a refused page reloads after 1 s."""
    env = servers.app_env(tmp_path_factory.mktemp("refusing"), TTT_STREAMS_PER_ROOM="0", TTT_STREAM_RELOAD_SECONDS="1")
    with gunicorn(env, workers=1) as base:
        yield base


@pytest.mark.parametrize("javascript", [True, False])
def test_a_refused_stream_falls_back_to_reloading(browser, refusing_server, javascript):
    host = person(browser, refusing_server, javascript=javascript)
    guest = person(browser, refusing_server)
    try:
        link = invite(host)
        mark_page(host)
        join(guest, link, "Bob")
        expect(host.locator("#status")).to_have_text("Your turn: place X.", timeout=10_000)
        assert host.evaluate("window.stillHere === undefined")  # it came by a reload, not by the stream
    finally:
        host.context.close()
        guest.context.close()
