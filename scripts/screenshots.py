"""Retakes the README's pictures of the table: phone and desktop, light and dark.

    .venv/bin/python scripts/screenshots.py [OUT_DIR]

Starts `ginrummy serve` on a throwaway SQLite file, deals a match against
Medium in Debian's Chromium (headless, driven by Playwright), passes the upcard
so the table shows a hand in play, and saves ``table.png`` (1280 px),
``table-phone.png`` (390 px) and their ``-dark`` twins into OUT_DIR
(default: docs/screenshots).
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

from playwright.sync_api import Page, sync_playwright

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
SIZES = {"table": (1280, 800), "table-phone": (390, 844)}


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
    pass_button = page.get_by_role("button", name="Pass")
    pass_button.wait_for()
    pass_button.click()
    page.wait_for_timeout(1500)  # the computer's answer plays out


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
                    for name, (width, height) in SIZES.items():
                        context = browser.new_context(
                            viewport={"width": width, "height": height},
                            color_scheme=scheme,
                            reduced_motion="reduce",
                        )
                        page = context.new_page()
                        _deal(page, base)
                        suffix = "" if scheme == "light" else "-dark"
                        path = out / f"{name}{suffix}.png"
                        page.screenshot(path=str(path))
                        print(f"saved {path}")
                        context.close()
                browser.close()
        finally:
            server.terminate()
            server.wait(timeout=10)


if __name__ == "__main__":
    main()
