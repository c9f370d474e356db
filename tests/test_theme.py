"""The colour switch: system, light or dark, kept in a cookie; pages stay one page for all."""

import pytest

from tests.page import Page

CROSS_SITE = {"Sec-Fetch-Site": "cross-site"}


@pytest.mark.parametrize(("theme", "scheme"), [("light", "color-scheme: light"), ("dark", "color-scheme: dark")])
def test_the_switch_is_kept_and_said_by_the_theme_stylesheet(client, theme, scheme):
    response = client.post("/theme", data={"theme": theme, "back": "/explore/?x=1"})
    assert response.status_code == 303 and response.headers["Location"] == "/explore/?x=1"
    css = client.get("/theme.css")
    assert scheme in css.text and f'button[value="{theme}"]' in css.text
    assert "Cookie" in css.headers["Vary"] and "private" in css.headers["Cache-Control"]
    client.post("/theme", data={"theme": "system", "back": "/"})
    assert "color-scheme" not in client.get("/theme.css").text


def test_every_page_names_the_same_stylesheet_whatever_the_cookie(client):
    before = client.get("/review/0-1-4-2-8").text
    client.post("/theme", data={"theme": "dark", "back": "/"})
    assert client.get("/review/0-1-4-2-8").text == before
    links = [e.attrs.get("href") for e in Page(before).root.iter("link")]
    assert "/theme.css" in links and Page(before)["theme"] is not None


ELSEWHERE = ["//evil.example/", "https://evil.example/", "/\\evil.example", "/\t/evil.example", ""]


@pytest.mark.parametrize("back", ELSEWHERE)
def test_the_way_back_is_a_page_of_this_site(client, back):
    response = client.post("/theme", data={"theme": "dark", "back": back})
    assert response.status_code == 303 and response.headers["Location"] == "/"


def test_an_unknown_theme_or_another_sites_form_changes_nothing(client):
    assert client.post("/theme", data={"theme": "pink", "back": "/"}).status_code == 400
    assert client.post("/theme", data={"theme": "dark", "back": "/"}, headers=CROSS_SITE).status_code == 403
    assert "color-scheme" not in client.get("/theme.css").text
