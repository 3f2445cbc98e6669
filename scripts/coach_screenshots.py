"""Retakes docs/COACH.md's pictures: a hand's review and the statistics, phone and desktop.

    .venv/bin/python scripts/coach_screenshots.py [OUT_DIR]

Starts a test-mode ``ginrummy serve`` on a throwaway SQLite file (the web
tests' helper), plays three one-hand matches over the API in which the player
passes an upcard that would have made gin and then knocks, has each hand
reviewed, and saves ``review.png`` (1280 px), ``review-phone.png`` (390 px),
``statistics.png`` and ``statistics-phone.png`` into OUT_DIR (default:
docs/screenshots).
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the web tests' helpers, as the test runner finds them

from web._support import Server  # noqa: E402
from web.conftest import BROWSER_ARGS, CHROMIUM  # noqa: E402
from web.test_coach_api import passed_gin, review_of  # noqa: E402

SIZES = {"": (1280, 800), "-phone": (390, 844)}


def main() -> None:
    """Take the pictures."""
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshots"
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(str(Path(tmp) / "shots.sqlite3")).start()
        try:
            matches = [passed_gin(server) for _ in range(3)]
            for m in matches:
                review_of(server, m["id"])
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=BROWSER_ARGS)
                for suffix, (width, height) in SIZES.items():
                    context = browser.new_context(viewport={"width": width, "height": height})
                    context.add_cookies(server.seat_cookies())
                    page = context.new_page()
                    page.goto(f"{server.url}/review/{matches[0]['id']}/1")
                    page.wait_for_selector("#review-body:not([hidden])")
                    page.screenshot(path=out / f"review{suffix}.png", full_page=True)
                    page.goto(f"{server.url}/statistics")
                    page.wait_for_selector("svg.chart")
                    page.screenshot(path=out / f"statistics{suffix}.png", full_page=True)
                    context.close()
                browser.close()
        finally:
            server.stop()


if __name__ == "__main__":
    main()
