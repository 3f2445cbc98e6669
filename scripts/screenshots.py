"""Retakes the pictures in docs/screenshots: phone and desktop, light and dark.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]

Starts `ginrummy serve` on a throwaway SQLite file and, in Debian's Chromium
(headless, driven by Playwright), takes into OUT_DIR (default: docs/screenshots):

- ``table``: a match against Medium dealt from the home page, the upcard passed
  when offered, so the table shows a hand in play;
- ``hand-over``: that hand played out (the player draws, throws the card the Knock
  button names and knocks when it may) and the result on the screen;
- ``learn-rules``, ``learn-rules-oklahoma`` (opened from an Oklahoma match),
  ``learn-worked`` (its first step), ``learn-worked-score`` (its last step, reached
  with Next), ``learn-strategy`` and ``learn-strategy-figures`` (the measured table).

The table's pictures are ``table.png`` (1280 px) and ``table-phone.png`` (390 px),
the others ``NAME-desktop.png`` and ``NAME-phone.png`` (``hand-over.png`` and
``hand-over-phone.png``); each has a ``-dark`` twin in the dark theme.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SIZES = {"desktop": (1280, 800), "phone": (390, 844)}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _wait(url: str) -> None:
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=1).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"the server at {url} did not start")


def _deal(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.locator("#start-match:enabled").click()
    page.wait_for_url("**/match/**")
    page.locator("body.my-turn").wait_for()
    pass_button = page.get_by_role("button", name="Pass")
    if pass_button.is_visible():  # offered the upcard (the computer may have taken it)
        pass_button.click()
        page.wait_for_timeout(1500)  # the computer's answer plays out


def _play_out(page: Page, base: str) -> None:
    """Play the hand on the table to its end over the API, as a plain player would."""
    api = f"{base}/api/matches/{page.url.rsplit('/', 1)[-1]}"
    m: dict[str, Any] = page.request.get(api).json()
    while m["table"]["phase"] != "over":
        table, legal = m["table"], m["table"]["legal"]
        body: dict[str, Any] = {"version": m["version"]}
        if legal["pass"]:
            body["action"] = "pass"
        elif legal["stock"]:
            body["action"] = "stock"
        elif legal["knock"]:
            body["action"] = "knock"
        else:
            best = table.get("knock") or {}
            body.update(action="discard", card=best.get("card") or legal["discard"][0])
        m = page.request.post(api + "/actions", data=body).json()
    page.reload()
    page.locator("#dlg-result").wait_for()
    page.wait_for_timeout(300)


def _ready(page: Page, path: str) -> None:
    page.goto(path)
    page.locator("body[data-ready='1']").wait_for()


def _oklahoma(page: Page, base: str) -> None:
    body = {"settings": {"knocking": "oklahoma"}}
    m = page.request.post(base + "/api/matches", data=body).json()
    _ready(page, f"{base}/rules?match={m['id']}")


def _worked_score(page: Page, base: str) -> None:
    _ready(page, base + "/worked-hand")
    nxt = page.locator("#step-next")
    while nxt.is_enabled():
        nxt.click()
    page.wait_for_timeout(200)


def _figures(page: Page, base: str) -> None:
    _ready(page, base + "/strategy")
    page.locator("#knock-table-body tr").first.wait_for()
    page.locator("#knock-later").scroll_into_view_if_needed()
    page.evaluate("document.getElementById('knock-later').scrollIntoView()")


SHOTS: dict[str, Any] = {
    "learn-rules": lambda page, base: _ready(page, base + "/rules"),
    "learn-rules-oklahoma": _oklahoma,
    "learn-worked": lambda page, base: _ready(page, base + "/worked-hand"),
    "learn-worked-score": _worked_score,
    "learn-strategy": lambda page, base: _ready(page, base + "/strategy"),
    "learn-strategy-figures": _figures,
}
"""The learn pages' pictures: how to bring each to the screen."""


def _name(shot: str, size: str, scheme: str) -> str:
    if shot in ("table", "hand-over"):
        name = shot if size == "desktop" else f"{shot}-phone"
    else:
        name = f"{shot}-{size}"
    return name + ("" if scheme == "light" else "-dark") + ".png"


def main() -> None:
    out = Path(sys.argv[1] if len(sys.argv) > 1 else "docs/screenshots")
    port = _free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "shots.sqlite3")
        server = subprocess.Popen(
            [sys.executable, "-m", "ginrummy.cli", "serve", "--port", str(port), "--db", db],
            env={**os.environ, "PYTHONUNBUFFERED": "1"},
        )
        try:
            _wait(base + "/api/health")
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
                for scheme in ("light", "dark"):
                    for size, (width, height) in SIZES.items():
                        context = browser.new_context(
                            viewport={"width": width, "height": height},
                            color_scheme=scheme,
                            reduced_motion="reduce",
                        )
                        page = context.new_page()

                        def save(shot: str) -> None:
                            path = out / _name(shot, size, scheme)  # noqa: B023
                            page.screenshot(path=str(path))  # noqa: B023
                            print(f"saved {path}")

                        _deal(page, base)
                        save("table")
                        _play_out(page, base)
                        save("hand-over")
                        for shot, show in SHOTS.items():
                            show(page, base)
                            save(shot)
                        context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
