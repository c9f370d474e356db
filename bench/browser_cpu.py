"""What Chromium spends on a browser test, run by hand: python bench/browser_cpu.py

The browser tests (tests/test_browser*.py) launch Chromium once per test process and, for each
test, open a context, load pages, click, run axe-core and take a screenshot. This runs such a
visit (a new context; `/`; a move; the explorer; a review; axe-core on it; a full-page screenshot)
in each of Debian's two builds of Chromium 156, taking turns round after round against one
gunicorn of the app: /usr/bin/chromium (package chromium, the yardstick: what the tests drove
before) and /usr/bin/chromium-headless-shell (package chromium-headless-shell, Chromium's old
headless shell, what they drive now: tests/conftest.py's CHROMIUM). The CPU is Chromium's, every
process of it (browser, renderers, GPU, network), read from /proc: seconds per visit, and the
ratio to the yardstick. The load average is printed beside it: the machine is shared."""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench.cpu_per_test import seconds_by_name
from tests import servers

BUILDS = {"chromium (yardstick)": "/usr/bin/chromium", "chromium-headless-shell": "/usr/bin/chromium-headless-shell"}
ROUNDS, VISITS = 3, 4
FLAGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-sync"]
FLAGS += ["--disable-background-networking", "--disable-component-update"]  # tests/conftest.py's


def chromium_seconds() -> float:
    """The CPU of this process's Chromium, every process of it: each one's own, and what its ended
    children spent (counted in the parent that waited for them)."""
    return seconds_by_name().get("chromium", 0.0)


def visit(browser: Browser, base: str, shot: Path) -> None:
    context = browser.new_context(base_url=base)
    page = context.new_page()
    page.goto("/")
    with page.expect_navigation():
        page.locator("#board td[data-row='1'][data-col='1'] a").click()
    page.goto("/explore/")
    page.goto("/review/0-1-4-2-8")
    Axe().run(page)
    page.screenshot(path=shot, full_page=True)
    context.close()


def main() -> None:
    shot = Path(tempfile.mkdtemp()) / "shot.png"
    env = servers.app_env(Path(tempfile.mkdtemp()), TTT_NEW_SESSION_LIMIT="100000 per minute")
    seconds: dict[str, list[float]] = {name: [] for name in BUILDS}
    with servers.gunicorn(env, workers=2) as base, sync_playwright() as playwright:
        for _ in range(ROUNDS):
            for name, executable in BUILDS.items():
                browser = playwright.chromium.launch(executable_path=executable, args=FLAGS)
                visit(browser, base, shot)  # the first, outside the count
                start = chromium_seconds()
                for _ in range(VISITS):
                    visit(browser, base, shot)
                seconds[name].append((chromium_seconds() - start) / VISITS)
                browser.close()
    yardstick = statistics.median(seconds["chromium (yardstick)"])
    print(f"Chromium's CPU per visit, median of {ROUNDS} rounds of {VISITS} (load {os.getloadavg()[0]:.1f}):")
    for name, values in seconds.items():
        median = statistics.median(values)
        print(f"  {name:25} {median:.2f} s   x{median / yardstick:.2f} the yardstick")


if __name__ == "__main__":
    main()
