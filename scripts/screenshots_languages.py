"""Takes every screen in each language at phone and desktop width, and checks for overflow.

    .venv/bin/python scripts/screenshots_languages.py [OUT_DIR] [LANG ...]

Starts `ginrummy serve` in test mode on a throwaway SQLite file, chooses the
language with the page's own control, and in Debian's Chromium (headless,
Playwright) saves ``<lang>-<screen>-<phone|desktop>.png`` for the home page,
the table in play, the result dialog, the score sheet, the history, and the
three learn pages, into OUT_DIR (default: docs/screenshots/languages; languages
default: ne). It prints every screen whose page is wider than the window (a
sideways scroll on a phone) and exits 1 if there is one.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import httpx
from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.web._support import JUNK, MELDED, Server, deck

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"


def _shots(page: Page, server: Server, lang: str, size: str, out: Path) -> list[str]:
    wide: list[str] = []

    def shot(screen: str, full: bool = False) -> None:
        page.wait_for_timeout(300)
        extra = int(page.evaluate(OVERFLOW))
        if extra > 0:
            wide.append(f"{lang} {screen} {size}: {extra} px wider than the window")
        path = out / f"{lang}-{screen}-{size}.png"
        page.screenshot(path=str(path), full_page=full)
        print(f"saved {path}")

    page.goto(f"{server.url}/lang/{lang}?next=/")
    page.wait_for_selector("#settings-fields input")
    shot("home")
    match_id = server.new_match([deck(MELDED, JUNK, "QD", stock="AC AD")])["id"]
    page.context.add_cookies(server.seat_cookies())
    page.goto(f"{server.url}/match/{match_id}")
    page.wait_for_selector("#hand .card")
    page.click("#btn-take")
    page.locator('#hand .card[data-code="KC"]').dblclick(position={"x": 6, "y": 24})
    page.wait_for_selector("#stock[aria-disabled=false]")
    page.click("#stock")
    page.wait_for_selector("#btn-knock:visible")
    shot("table")
    page.click("#btn-knock")
    page.wait_for_selector("#dlg-result[open]")
    shot("result")
    page.click("#result-sheet")
    page.wait_for_selector("#dlg-sheet[open]")
    shot("sheet")
    page.keyboard.press("Escape")
    page.goto(f"{server.url}/history")
    item = page.locator(".history-item").first
    item.locator("summary").first.click()
    shot("history")
    for name, path in (("rules", "/rules"), ("strategy", "/strategy")):
        page.goto(server.url + path)
        page.wait_for_selector("body[data-ready]")
        shot(name)
    page.goto(f"{server.url}/worked-hand#step-9")
    page.wait_for_selector("#w-totals")
    shot("worked")
    return wide


def main() -> None:
    args = sys.argv[1:]
    out = Path(args[0] if args else "docs/screenshots/languages")
    langs = args[1:] or ["ne"]
    out.mkdir(parents=True, exist_ok=True)
    wide: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("GINRUMMY_SEATS_PER_ADDRESS", "100000/1")
        server = Server(str(Path(tmp) / "shots.sqlite3")).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                for lang in langs:
                    for size, (width, height) in SIZES.items():
                        server._client = httpx.Client(timeout=30)  # a new player per run
                        context = browser.new_context(
                            viewport={"width": width, "height": height}, reduced_motion="reduce"
                        )
                        context.add_init_script(
                            "localStorage.setItem('ginrummy.comfort', "
                            "JSON.stringify({speed: 'off'}))"
                        )
                        wide += _shots(context.new_page(), server, lang, size, out)
                        context.close()
                browser.close()
        finally:
            server.stop()
    for line in wide:
        print(line)
    if wide:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
