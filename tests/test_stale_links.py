"""A move link or an undo button from a board the game has since left (another tab, an old
page) is refused as out of date, whatever happened in between, even when the game is back
at the same move number: nothing changes and the board as it is now is shown."""

import pytest

from tests.page import Page

STALE = "out of date"


def follow_stale(play, href: str) -> Page:
    response = play.client.get(href)
    assert response.status_code == 409, response.text
    page = Page(response.text)
    assert STALE in page.message
    return page


def undo_stale(play, form: dict[str, str]) -> Page:
    response = play.client.post("/undo", data=form)
    assert response.status_code == 409, response.text
    page = Page(response.text)
    assert STALE in page.message
    return page


def undone_and_replayed(play, mode: str) -> tuple[Page, Page]:
    """The board an old tab shows (two marks, the game at move 2), and the board after Undo and
    another move in the other tab: another board, at move 2 again."""
    play.new_game(mode=mode)
    play.move(0, 0)
    if mode == "friend":
        play.move(1, 2)
    old = play.page()
    play.submit("undo")
    page = play.move(*min(old.links))
    assert page.marks != old.marks and len(page.links) == len(old.links)
    return old, page


@pytest.mark.parametrize("mode", ["ai", "friend"])
def test_a_move_from_an_old_tab_after_undo_and_another_move_is_refused(play, mode):
    old, page = undone_and_replayed(play, mode)
    shown = follow_stale(play, old.links[next(iter(sorted(set(old.links) & set(page.links))))])
    assert shown.marks == page.marks == play.page().marks  # the board as it is now, unchanged


@pytest.mark.parametrize("mode", ["ai", "friend"])
def test_an_undo_from_an_old_tab_after_undo_and_another_move_is_refused(play, mode):
    old, page = undone_and_replayed(play, mode)
    assert undo_stale(play, old.form("undo")).marks == page.marks == play.page().marks


def test_the_same_board_reached_again_is_still_refused(play):
    """Undo, then the same move: the board is the one the old tab shows, but the link is from
    before two changes of the game, and a link does not say which board it was on beyond them."""
    play.new_game(mode="friend")
    play.move(1, 1)
    old = play.page()
    play.submit("undo")
    page = play.move(1, 1)
    assert page.marks == old.marks
    assert follow_stale(play, old.links[0, 0]).marks == page.marks
    assert undo_stale(play, old.form("undo")).marks == page.marks


def test_a_move_link_without_the_game_version_is_out_of_date(play):
    play.move(1, 1)
    link = min(play.page().links.values())
    assert "&v=1&" in link
    follow_stale(play, link.replace("&v=1", ""))
    follow_stale(play, link.replace("&v=1", "&v=01"))
    play.follow(link)  # the link as shown still plays


def test_the_undo_form_carries_the_game_version(play):
    play.move(1, 1)
    form = play.page().form("undo")
    assert form["v"] == "1"
    undo_stale(play, {k: v for k, v in form.items() if k != "v"})
    play.client.post("/undo", data=form)
    assert play.page().form("undo")["v"] == "2"
