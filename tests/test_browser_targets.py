"""Every link, button and choice is a target of at least 24x24 CSS pixels on a phone (WCAG
2.5.8), measured in Chromium at 360x740 on the pages a player taps most: the game, a
finished game, the review and a retry."""

import pytest
from playwright.sync_api import Page

from tests.test_browser import click_through, play_by_clicking

SMALLEST = 24  # CSS pixels, each way

# Each target as drawn: a radio or checkbox is tapped through its label, which holds it.
TARGETS = """() => [...document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary')]
  .map(e => [e, e.closest('label') || e])
  .filter(([e, target]) => target.getClientRects().length && getComputedStyle(e).visibility !== 'hidden')
  .map(([e, target]) => {
    const box = target.getBoundingClientRect();
    const name = (e.getAttribute('aria-label') || e.textContent || e.value || '').trim().slice(0, 40);
    return {tag: e.tagName, id: e.id, name, width: box.width, height: box.height};
  })"""


def too_small(page: Page) -> list[dict]:
    targets = page.evaluate(TARGETS)
    assert targets, page.url
    return [t for t in targets if t["width"] < SMALLEST or t["height"] < SMALLEST]


@pytest.fixture
def phone(page: Page) -> Page:
    page.set_viewport_size({"width": 360, "height": 740})
    return page


def test_the_game_pages_targets_are_big_enough(phone: Page):
    phone.goto("/")
    assert too_small(phone) == []
    phone.locator("#new-game input[name=difficulty][value=easy]").check()
    click_through(phone.locator("#new-game button[type=submit]"))
    play_by_clicking(phone)
    assert too_small(phone) == [], "a game over, against the AI"


def test_a_friends_finished_game_its_review_and_retry_have_big_enough_targets(phone: Page):
    phone.goto("/")
    phone.locator("#new-game input[name=mode][value=friend]").check()
    phone.locator("#new-game input[name=name_x]").fill("Ann")
    click_through(phone.locator("#new-game button[type=submit]"))
    for row, col in [(0, 0), (0, 1), (1, 1), (0, 2), (2, 2)]:
        click_through(phone.locator(f"#board td[data-row='{row}'][data-col='{col}'] a"))
    assert too_small(phone) == [], "a friends' game over"
    click_through(phone.locator("#review"))
    assert too_small(phone) == [], "the review"
    click_through(phone.locator("#retry"))
    assert too_small(phone) == [], "a retry"
    click_through(phone.locator("#board td[data-row='2'][data-col='2'] a"))
    assert too_small(phone) == [], "a retry, tried"


def test_a_reviews_targets_are_big_enough(phone: Page):
    for address in ["/review/0-1-4-2-8?you=X&ai=easy", "/review/4-0-2-6-3-5-1-7-8?ply=0"]:
        phone.goto(address)
        assert too_small(phone) == [], address
