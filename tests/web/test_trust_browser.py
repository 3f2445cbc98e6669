"""The fair deal in a real headless Chromium: the page sends its seed and checks the reveal."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ._support import Server
from .test_trust_support import move

pytestmark = pytest.mark.browser


def test_the_page_seeds_the_deal_and_checks_every_proof(browser: Any, server: Server) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(10_000)
    try:
        page.goto(server.url + "/")
        page.click("#start-match")
        expect(page).to_have_url(re.compile(r"/match/"))
        match_id = page.url.rsplit("/", 1)[-1]
        api = f"{server.url}/api/matches/{match_id}"
        m = page.request.get(api).json()
        deal = m["fairness"]["deal"]
        assert deal["client_seed_by"] == "you" and re.fullmatch(
            r"[0-9a-f]{32}", deal["client_seed"]
        )
        assert deal["server_seed"] is None and re.fullmatch(r"[0-9a-f]{64}", deal["commitment"])
        # Play the hand out over the API with the page's own seat.
        rng = random.Random(5)
        while m["table"]["phase"] != "over":
            body = move(m, rng)
            assert body is not None
            m = page.request.post(api + "/actions", data=body).json()
        page.goto(server.url + "/history")
        item = page.locator(".history-item").first
        item.get_by_text("Deal proofs").click()
        expect(item.locator(".deal-proofs li")).to_have_count(1)
        expect(item.locator(".deal-proofs li").first).to_contain_text("✓ Fair deal, checked here")
        assert not errors, errors
    finally:
        context.close()
