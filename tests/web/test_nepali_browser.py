"""With Nepali chosen, a whole hand and every screen a player meets are in Nepali.

One walk in Chromium: the home page, the table through a whole hand (take the
upcard, throw, draw, knock), the result dialog, the score sheet, the history
with its sheet open, and the three learn pages (the worked hand stepped to its
end). At every stop the words on the page (its text, its title and the labels a
screen reader reads) hold no English word but the few the translation keeps on
purpose (:data:`KEPT`, docs/TRANSLATION.md): card indices are single letters,
and numbers are digits, so neither counts as a word.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import JUNK, MELDED, Server, deck

pytestmark = pytest.mark.browser

KEPT = {
    "English",  # the language control names each language in its own script
    "Language",  # and is labelled in both ("Language · भाषा")
    "Aa",  # the display options button: a sample of type
    "SHA",  # SHA-256, the fair deal's hash
    "JSON",
    "CSV",  # the statistics' export formats
}
"""Latin words a Nepali page may show (docs/TRANSLATION.md keeps this list)."""

WORDS = """
() => {
  const parts = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest("kbd, script, style, [hidden], [aria-hidden=true]")) continue;
    if (el.closest("dialog:not([open])")) continue;
    if (el.checkVisibility && !el.checkVisibility()) continue;
    parts.push(node.textContent);
  }
  for (const el of document.querySelectorAll("[aria-label], [title], [alt], [placeholder]")) {
    for (const a of ["aria-label", "title", "alt", "placeholder"]) {
      const v = el.getAttribute(a);
      if (v) parts.push(v);
    }
  }
  return parts.join("\\n");
}
"""


def english_words(page: Page) -> list[str]:
    """The Latin words on the page that are not kept on purpose."""
    text: str = page.evaluate(WORDS)
    text = re.sub(r"\b[\w-]+/[\w./-]+", " ", text)  # a file's path (docs/FAIRNESS.md)
    text = re.sub(r"\b[0-9a-f]{7,}\b", " ", text)  # a hash or a seed, in hexadecimal
    return sorted({w for w in re.findall(r"[A-Za-z]{2,}", text) if w not in KEPT})


def nothing_english(page: Page, where: str) -> None:
    expect(page.locator("html")).to_have_attribute("lang", "ne")
    found = english_words(page)
    assert not found, f"{where}: English left on the Nepali page: {found}"


@pytest.fixture
def server(sqlite_server: Server) -> Server:
    """The page is the same over either database."""
    return sqlite_server


@pytest.fixture
def nepali(browser: Any, server: Server) -> Iterator[Page]:
    """A phone-sized tab whose browser asks for English but whose reader chose Nepali."""
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, locale="en-US", reduced_motion="reduce"
    )
    context.add_init_script(
        "localStorage.setItem('ginrummy.comfort', JSON.stringify({speed: 'off'}))"
    )
    tab = context.new_page()
    problems: list[str] = []
    tab.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    tab.on(
        "request",
        lambda r: (
            None
            if r.url.startswith(("http://127.0.0.1:", "data:"))
            else problems.append(f"request elsewhere: {r.url}")
        ),
    )
    tab.set_default_timeout(20_000)
    yield tab
    context.close()
    assert not problems, problems


def test_a_nepali_reader_meets_no_english(nepali: Page, server: Server) -> None:
    page = nepali
    # The control on the home page switches, and the choice is kept.
    page.goto(server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", "en")
    page.get_by_role("link", name="नेपाली").click()
    expect(page.locator("#home-title")).to_have_text("कम्प्युटरसँग एउटा म्याच")
    nothing_english(page, "home")

    match_id = server.new_match([deck(MELDED, JUNK, "QD", stock="AC AD")])["id"]
    page.context.add_cookies(server.seat_cookies())
    page.goto(f"{server.url}/match/{match_id}")
    expect(page.locator("#hand .card")).to_have_count(10)
    expect(page.locator("#deadwood-count")).to_have_text("१०")
    nothing_english(page, "the table")
    page.click("#btn-take")
    page.locator('#hand .card[data-code="KC"]').dblclick(position={"x": 6, "y": 24})
    expect(page.locator("#log")).to_contain_text("तपाईं: K♣ फालियो")
    page.click("#stock")
    expect(page.locator("#knock-label")).to_have_text("१ मा नक")
    nothing_english(page, "the table, ready to knock")
    page.click("#btn-knock")

    expect(page.locator("#dlg-result")).to_be_visible()
    expect(page.locator("#result-title")).to_contain_text("बाजी तपाईंको")
    nothing_english(page, "the result dialog")
    page.click("#result-sheet")
    expect(page.locator("#dlg-sheet table.sheet tr.sheet-line")).to_have_count(1)
    nothing_english(page, "the score sheet")
    page.keyboard.press("Escape")

    page.goto(server.url + "/history")
    item = page.locator(".history-item").first
    item.get_by_text("स्कोरसिट").click()
    item.get_by_role("button", name="हात देखाउनुहोस्").click()
    nothing_english(page, "history")

    page.click("#nav-stats")
    expect(page.locator("#stats-title")).to_have_text("तपाईंको तथ्याङ्क")
    expect(page.locator("#stats-body > *").first).to_be_visible()
    nothing_english(page, "the statistics")

    page.click("#nav-rules")
    expect(page).to_have_url(re.compile(r"/ne/rules$"))
    expect(page.locator("h1")).to_have_text("नियम")
    nothing_english(page, "the rules")

    page.goto(server.url + "/worked-hand")
    expect(page).to_have_url(re.compile(r"/ne/worked-hand(#step-1)?$"))
    expect(page.locator("#step-count")).to_have_text("चरण १ / ९")
    for _ in range(8):
        nothing_english(page, f"the worked hand, {page.locator('#step-count').inner_text()}")
        page.click("#step-next")
    expect(page.locator("#w-totals")).to_be_visible()
    nothing_english(page, "the worked hand's score")

    page.goto(server.url + "/strategy")
    expect(page.locator("#knock-table-body tr")).not_to_have_count(0)
    nothing_english(page, "the strategy guide")

    # And back: English, by the same control.
    page.get_by_role("link", name="English").click()
    expect(page).to_have_url(re.compile(r"/strategy$"))
    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator("h1")).to_have_text("Playing better")
