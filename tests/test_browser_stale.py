"""Two tabs of one game in Chromium, with JavaScript and without: in one, the player takes a
move back and plays another, so that the game is at the same move number on another board; a
move or an undo in the other tab, whose board the game has left, is refused as out of date
and shows the board as it is now."""

import pytest
from playwright.sync_api import Page, expect

from tests.test_browser import cells, click_through, friends_game


def cell(page: Page, row: int, col: int):
    return page.locator(f"#board td[data-row='{row}'][data-col='{col}'] a")


def undo_and_play(page: Page, row: int, col: int) -> str:
    """In this tab: take O's move back and play O at (row, col) instead; the board now."""
    click_through(page.locator("#undo button"))
    click_through(cell(page, row, col))
    return cells(page)


@pytest.mark.parametrize("javascript", [True, False])
def test_a_move_and_an_undo_from_an_old_tab_are_refused(browser, live_server, javascript):
    context = browser.new_context(java_script_enabled=javascript, base_url=live_server)
    first, second = context.new_page(), context.new_page()
    first.goto("/")
    friends_game(first)
    click_through(cell(first, 0, 0))
    click_through(cell(first, 1, 2))
    second.goto(first.url)
    assert cells(second) == "X....O..."

    now = undo_and_play(first, 0, 1)
    assert now == "XO......."
    click_through(cell(second, 2, 2))  # a move from the board the game has left
    expect(second.locator("#message")).to_contain_text("out of date")
    assert cells(second) == cells(first) == now

    now = undo_and_play(first, 2, 2)
    assert now == "X.......O" and cells(second) == "XO......."
    click_through(second.locator("#undo button"))  # an undo from the board the game has left
    expect(second.locator("#message")).to_contain_text("out of date")
    first.reload()
    assert cells(second) == cells(first) == now
    context.close()
