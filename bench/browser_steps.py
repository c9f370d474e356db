"""What each step of a browser test costs Chromium, run by hand: python bench/browser_steps.py

The steps the browser tests (tests/test_browser*.py) are made of, each repeated against one
gunicorn of the app in tests/conftest.py's Chromium with its switches: a new context with its
tab and first page, a page loaded in a tab that has the site already, axe-core on the game's
page and on an explorer page, a full-page screenshot. The CPU is Chromium's and Playwright's
driver's, every process of them, read from /proc (bench/cpu_per_test.py's way): seconds per
step, with the load average beside it (the machine is shared)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.browser_cpu import FLAGS
from bench.cpu_per_test import seconds_by_name
from tests import servers
from tests.conftest import CHROMIUM

REPEATS = 6
EXPLORER = "/explore/XO.XO...."


def spent() -> float:
    seconds = seconds_by_name()
    return seconds.get("chromium", 0.0) + seconds.get("node", 0.0)


def per_step(step: Callable[[], object]) -> float:
    step()  # the first, outside the count
    start = spent()
    for _ in range(REPEATS):
        step()
    return (spent() - start) / REPEATS


def steps(browser: Browser, base: str, page: Page, shot: Path) -> dict[str, Callable[[], object]]:
    def new_context() -> None:
        context = browser.new_context(base_url=base)
        context.new_page().goto("/")
        context.close()

    def on(url: str, then: Callable[[], object]) -> Callable[[], object]:
        return lambda: (page.goto(url), then())

    return {
        "a new context, its tab and the game's page": new_context,
        "the game's page, in a tab that has the site": lambda: page.goto("/"),
        "axe-core on the game's page (and its load)": on("/", lambda: Axe().run(page)),
        "axe-core on an explorer page (and its load)": on(EXPLORER, lambda: Axe().run(page)),
        "an explorer page's full-page screenshot (and its load)": on(
            EXPLORER, lambda: page.screenshot(path=shot, full_page=True)
        ),
    }


def main() -> None:
    shot = Path(tempfile.mkdtemp()) / "shot.png"
    env = servers.app_env(Path(tempfile.mkdtemp()), TTT_NEW_SESSION_LIMIT="100000 per minute")
    with servers.gunicorn(env, workers=2) as base, sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_context(base_url=base).new_page()
        page.goto("/")
        print(f"CPU-seconds of Chromium and Playwright's driver per step, mean of {REPEATS}:")
        for name, step in steps(browser, base, page, shot).items():
            print(f"  {name:56} {per_step(step):.3f}   (load {os.getloadavg()[0]:.1f})")
        browser.close()


if __name__ == "__main__":
    main()
