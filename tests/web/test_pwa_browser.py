"""The installed app's update: a new version installs beside the old one and the player
is told it is ready; Reload loads it."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import ROOT, Server

pytestmark = pytest.mark.browser


def _version(page: Page) -> str:
    src = page.locator("script[type=module]").get_attribute("src") or ""
    return src.split("/")[2]


def test_a_new_version_is_offered_and_loaded_by_reload(browser: Any, tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'update.sqlite3'}"
    old = Server(db).start(test_mode=False)
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    try:
        page.goto(old.url + "/")
        page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=30_000)
        first = _version(page)
        old.stop()
        # The next version of the app: the same, with one static file changed.
        copy = tmp_path / "next"
        shutil.copytree(
            ROOT / "ginrummy",
            copy / "ginrummy",
            ignore=shutil.ignore_patterns("offline", "__pycache__"),
        )
        with (copy / "ginrummy/web/static/style.css").open("a") as css:
            css.write("\n/* the next version */\n")
        new = Server(db, port=old.port, root=copy).start(test_mode=False)
        try:
            expect(page.locator("#update-bar")).to_be_hidden()
            page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).update()")
            bar = page.locator("#update-bar")
            expect(bar).to_be_visible(timeout=30_000)
            expect(bar).to_contain_text("A new version of the game is ready.")
            assert _version(page) == first  # nothing changes until the player says so
            page.click("#update-reload")
            page.wait_for_function(
                "(first) => !document.querySelector(`script[src*='/${first}/']`)",
                arg=first,
                timeout=30_000,
            )
            assert _version(page) != first
            expect(page.locator("#update-bar")).to_be_hidden()
        finally:
            new.stop()
    finally:
        context.close()
        old.stop()
    assert problems == []
