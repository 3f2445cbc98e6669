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
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from playwright.sync_api import Page, sync_playwright

from ginrummy.cards import FULL_DECK, format_cards, parse_cards

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam

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
MELDED = "AS 2S 3S 4H 5H 6H 9C 9D 9S KC"
JUNK = "2C 4C 6C 8C TC JH KH 3D 7D KD"


def _deck() -> str:
    """The deal of the browser tests: you can knock with 1 after two draws."""
    you, them = parse_cards(MELDED), parse_cards(JUNK)
    named = [*you, *them, *parse_cards("QD AC AD")]
    order = [c for pair in zip(you, them, strict=True) for c in pair]
    order += parse_cards("QD AC AD") + [c for c in FULL_DECK if c not in set(named)]
    return format_cards(order)


@dataclass
class Server:
    """``ginrummy serve`` in test mode, and one player's HTTP client (its seat cookie)."""

    url: str
    client: httpx.Client

    def new_match(self) -> str:
        body = {"test_decks": [_deck()], "first_dealer": 1}
        r = self.client.post(self.url + "/api/matches", json=body)
        r.raise_for_status()
        return str(r.json()["id"])

    def seat_cookies(self) -> list[SetCookieParam]:
        return [{"name": k, "value": v, "url": self.url} for k, v in self.client.cookies.items()]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


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
    match_id = server.new_match()
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
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {**os.environ, "GINRUMMY_TEST_DECKS": "screenshots", "PYTHONUNBUFFERED": "1"}
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "shots.sqlite3")
        command = [sys.executable, "-m", "ginrummy.cli", "serve", "--port", str(port), "--db", db]
        proc = subprocess.Popen(command, env=env)
        try:
            for _ in range(300):
                try:
                    httpx.get(url + "/api/health", timeout=1)
                    break
                except httpx.HTTPError:
                    time.sleep(0.1)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                for lang in langs:
                    for size, (width, height) in SIZES.items():
                        server = Server(url, httpx.Client(timeout=30))  # a new player
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
            proc.terminate()
            proc.wait(timeout=10)
    for line in wide:
        print(line)
    if wide:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
