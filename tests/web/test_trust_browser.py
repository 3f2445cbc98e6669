"""The fair deal in a real headless Chromium: the page sends its seed and checks the reveal."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from ginrummy.cards import format_cards
from ginrummy.fairness import commitment, fair_deck, fair_first_dealer

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
        expect(page).to_have_url(re.compile(r"/match/"), timeout=20_000)  # a loaded machine
        match_id = page.url.rsplit("/", 1)[-1]
        api = f"{server.url}/api/matches/{match_id}"
        m = page.request.get(api).json()
        deal = m["fairness"]["deal"]
        assert deal["client_seed_by"] == "you" and re.fullmatch(
            r"[0-9a-f]{32}", deal["client_seed"]
        )
        assert re.fullmatch(r"[0-9a-f]{64}", deal["commitment"])
        if m["table"]["phase"] == "over":
            # The computer ended hand 1 on its first move (took the upcard and knocked
            # before the test first looked): the seed is out, and it must be the one
            # committed to.
            assert deal["server_seed"] is not None
            assert commitment(deal["server_seed"]) == deal["commitment"]
        else:
            assert deal["server_seed"] is None  # hidden while the hand is on
        _play_first_hand(page, api, m, 5)
        page.goto(server.url + "/history")
        item = page.locator(".history-item").first
        item.get_by_text("Deal proofs").click()
        expect(item.locator(".deal-proofs li")).to_have_count(1)
        expect(item.locator(".deal-proofs li").first).to_contain_text("✓ Fair deal, checked here")
        assert not errors, errors
    finally:
        context.close()


def _play_first_hand(page: Any, api: str, m: dict[str, Any], seed: int) -> dict[str, Any]:
    """Play hand 1 out over the API with the page's own seat (its cookie)."""
    rng = random.Random(seed)
    while m["table"]["phase"] != "over":
        body = move(m, rng)
        assert body is not None
        m = page.request.post(api + "/actions", data=body).json()
    return m


def test_the_page_refuses_a_forged_proof_also_after_a_reload(browser: Any, server: Server) -> None:
    """Each forgery passes the old check (the seed hashes to the commitment, the seeds give
    the deck), but not this page's: it remembers the seed it sent, the commitment it saw
    and the cards it was dealt, in this browser, across reloads."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(15_000)
    forgery: dict[str, Any] = {}

    def tamper(route: Any) -> None:
        proofs = route.fetch().json()
        proofs["deals"][0].update(forgery)
        route.fulfill(json=proofs)

    def proof_line() -> Any:
        page.goto(server.url + "/history")
        item = page.locator(".history-item").first
        item.get_by_text("Deal proofs").click()
        return item.locator(".deal-proofs li").first

    try:
        page.goto(server.url + "/")
        page.click("#start-match")
        expect(page).to_have_url(re.compile(r"/match/"), timeout=20_000)  # a loaded machine
        api = f"{server.url}/api/matches/{page.url.rsplit('/', 1)[-1]}"
        m = _play_first_hand(page, api, page.request.get(api).json(), 7)
        deal = page.request.get(api + "/proofs").json()["deals"][0]
        server_seed, dealer = deal["server_seed"], deal["first_dealer"]
        assert dealer == fair_first_dealer(server_seed, deal["client_seed"])
        # Another client seed, with the deck and first dealer it gives: only the seed
        # this page sent can tell.
        other = "f" * 32
        swapped = list(deal["deck"])
        swapped[0], swapped[1] = swapped[1], swapped[0]
        forgeries: list[tuple[dict[str, Any], str]] = [
            (
                {
                    "client_seed": other,
                    "deck": format_cards(fair_deck(server_seed, other, 1)).split(),
                    "first_dealer": fair_first_dealer(server_seed, other),
                },
                "the client seed is not the one this browser sent",
            ),
            ({"deck": swapped}, "the deck is not the one the seeds give"),
            ({"first_dealer": 1 - dealer}, "the first dealer is not the one the seeds give"),
            # A real deal passed off as a test's fixed deck, to skip every check.
            (
                {"fixed": True, "committed": False, "server_seed": None, "deck": None},
                "the server calls this deal fixed by a test",
            ),
        ]
        page.route("**/api/matches/*/proofs", tamper)
        for changes, words in forgeries:
            forgery.clear()
            forgery.update(changes)
            line = proof_line()
            expect(line).to_contain_text("✗ This deal does not check out")
            expect(line).to_contain_text(words)
            page.reload()  # a fresh page: only what this browser stored remembers the deal
            line = proof_line()
            expect(line).to_contain_text(words)
        page.unroute("**/api/matches/*/proofs")
        page.reload()
        expect(proof_line()).to_contain_text("✓ Fair deal, checked here")
        # The table's own check, after a reload of the match page, refuses a forged reveal.
        forgery.clear()
        forgery.update(forgeries[0][0])

        def tamper_match(route: Any) -> None:
            body = route.fetch().json()
            body["fairness"]["deal"].update(forgery)
            route.fulfill(json=body)

        assert m["table"]["phase"] == "over"
        # The true reveal checks out at the table too, against every card seen there.
        page.goto(api.replace("/api/matches/", "/match/"))
        expect(page.locator("#result-fair-mark")).to_have_text("✓ Fair deal")
        page.route(re.compile(r".*/api/matches/[^/]+$"), tamper_match)
        page.goto(api.replace("/api/matches/", "/match/"))
        page.reload()
        fair = page.locator("#result-fair")
        expect(fair).to_have_attribute("open", "")
        expect(page.locator("#result-fair-mark")).to_have_text("✗ This deal does not check out")
        expect(page.locator("#result-fair-text")).to_contain_text(forgeries[0][1])
        assert not errors, errors
    finally:
        context.close()


def test_a_deal_with_no_commitment_shown_first_is_marked_on_the_page(
    browser: Any, server: Server
) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(server.url + "/")
        # The page's own first requests have set its seat cookie before the script's.
        expect(page.locator("#settings-fields .setting").first).to_be_visible()
        # A script's match: no commitment asked for, so the server seed came after the seed.
        m = page.request.post(server.url + "/api/matches", data={"client_seed": "a-script"}).json()
        assert m["fairness"]["deal"]["committed"] is False
        _play_first_hand(page, f"{server.url}/api/matches/{m['id']}", m, 9)
        page.goto(server.url + "/history")
        item = page.locator(".history-item").first
        item.get_by_text("Deal proofs").click()
        expect(item.locator(".deal-proofs li").first).to_contain_text("Deal not committed")
    finally:
        context.close()
