"""The page's finishing touches: deleting an unfinished match from the history, sounds
and their mute switch, the deal animation and the win celebration (off with reduced
motion), at phone and desktop size."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from ._support import JUNK, MELDED, Server, deck, watched_tab
from .test_axe_browser import assert_clean

pytestmark = pytest.mark.browser

SIZES = [(390, 844), (1280, 800)]


def _tab(browser: Any, width: int, height: int) -> Iterator[Page]:
    scheme = "light" if width < 600 else "dark"
    yield from watched_tab(
        browser, width, height, animation=True, color_scheme=scheme, bypass_csp=True
    )


@pytest.fixture(params=SIZES, ids=["phone-light", "desktop-dark"])
def tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[Page]:
    """A fresh tab at a phone's size in light colours or a desktop's in dark; any script
    error fails the test. It may inject axe-core (see test_axe_browser)."""
    yield from _tab(browser, *request.param)


@pytest.fixture(
    params=[("normal", False, SIZES[1]), ("normal", True, SIZES[0]), ("off", False, SIZES[0])],
    ids=["motion-desktop", "reduced-motion-phone", "speed-off-phone"],
)
def motion_tab(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[Page, str, bool]]:
    """A tab with an animation speed, the system asking for reduced motion or not."""
    speed, reduced, (width, height) = request.param
    for page in _tab(browser, width, height):
        page.emulate_media(reduced_motion="reduce" if reduced else "no-preference")
        yield page, speed, reduced


def _line(page: Page, match_id: str) -> Any:
    return page.locator(".history-item", has=page.locator(f'a[href="/match/{match_id}"]'))


def test_an_unfinished_match_is_deleted_from_the_history_after_a_confirmation(
    tab: Page, sqlite_server: Server
) -> None:
    server = sqlite_server
    kept = server.new_match([deck(MELDED, JUNK, "QD")])["id"]
    gone = server.new_match([deck(MELDED, JUNK, "QD")])["id"]
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(server.url + "/history")
    line = _line(tab, gone)
    delete = line.get_by_role("button", name="Delete")
    expect(delete).to_be_in_viewport()
    # Asked first; "Keep it" keeps it.
    delete.click()
    dialog = tab.locator("#dlg-delete")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Delete this match?")
    assert_clean(tab, "the delete confirmation")
    dialog.get_by_role("button", name="Keep it").click()
    expect(dialog).to_be_hidden()
    expect(delete).to_be_focused()
    assert server.client.get(f"{server.url}/api/matches/{gone}").status_code == 200
    delete.click()
    dialog.get_by_role("button", name="Delete").click()
    expect(line).to_have_count(0)
    expect(tab.locator("#live")).to_have_text("The match was deleted.")
    assert server.client.get(f"{server.url}/api/matches/{gone}").status_code == 404
    expect(_line(tab, kept)).to_have_count(1)
    tab.reload()
    expect(_line(tab, kept)).to_have_count(1)
    expect(_line(tab, gone)).to_have_count(0)


# Counts what the page starts: audio contexts, tones (AudioScheduledSourceNode.start) and
# the animations it names (the deal's and the celebration's).
HOOKS = """
window.__audio = {contexts: 0, starts: 0};
const RealContext = window.AudioContext;
window.AudioContext = class extends RealContext {
  constructor(...a) { super(...a); window.__audio.contexts += 1; }
};
const realStart = AudioScheduledSourceNode.prototype.start;
AudioScheduledSourceNode.prototype.start = function (...a) {
  window.__audio.starts += 1;
  return realStart.apply(this, a);
};
window.__animations = [];
const realAnimate = Element.prototype.animate;
Element.prototype.animate = function (frames, options) {
  if (options && options.id) window.__animations.push(options.id);
  return realAnimate.call(this, frames, options);
};
"""


def _speed(speed: str) -> str:
    """The animation speed, set before the page's first load (a reload keeps the options)."""
    return (
        "if (!localStorage.getItem('ginrummy.comfort')) "
        f"localStorage.setItem('ginrummy.comfort', JSON.stringify({{speed: '{speed}'}}))"
    )


def _tones(page: Page) -> int:
    starts: int = page.evaluate("window.__audio.starts")
    return starts


def test_sounds_wait_for_a_gesture_and_the_mute_switch_is_honoured_and_kept(
    tab: Page, sqlite_server: Server
) -> None:
    server = sqlite_server
    tab.context.add_init_script(HOOKS)
    tab.context.add_init_script(_speed("off"))
    match_id = server.new_match([deck(MELDED, JUNK, "QD")])["id"]
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(f"{server.url}/match/{match_id}")
    expect(tab.locator("#hand .card")).to_have_count(10)
    toggle = tab.get_by_role("button", name="Sound", exact=True)
    expect(toggle).to_be_in_viewport()
    expect(toggle).to_have_attribute("aria-pressed", "true")
    box = toggle.bounding_box()
    assert box is not None and box["width"] >= 44
    assert tab.evaluate("window.__audio") == {"contexts": 0, "starts": 0}  # nothing unasked
    tab.click("#btn-take")
    expect(tab.locator("#btn-knock")).to_be_visible()
    tab.wait_for_function("window.__audio.starts > 0")  # the draw is heard
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    heard = _tones(tab)
    tab.click("#btn-knock")
    expect(tab.locator("#dlg-result")).to_be_visible()
    tab.wait_for_timeout(300)
    assert _tones(tab) == heard, "a muted table made a sound"
    # Kept in this browser: muted after a reload, in the display options too.
    tab.reload()
    expect(tab.get_by_role("button", name="Sound", exact=True)).to_have_attribute(
        "aria-pressed", "false"
    )
    # The hand is over: its result opens again after the reload; close it first.
    expect(tab.locator("#dlg-result")).to_be_visible()
    tab.keyboard.press("Escape")
    expect(tab.locator("#dlg-result")).to_be_hidden()
    tab.click("#open-comfort")
    expect(tab.locator("#opt-sound")).not_to_be_checked()


def test_the_deal_animation_and_the_win_celebration_run_only_when_motion_is_welcome(
    motion_tab: tuple[Page, str, bool], sqlite_server: Server
) -> None:
    server = sqlite_server
    tab, speed, reduced = motion_tab
    moves = speed != "off" and not reduced
    tab.context.add_init_script(HOOKS)
    tab.context.add_init_script(_speed(speed))
    server.client.get(server.url + "/api/matches")  # the test player's seat, for this tab too
    tab.context.add_cookies(server.seat_cookies())
    tab.goto(server.url + "/")
    tab.click("#start-match")
    expect(tab.locator("#hand .card")).to_have_count(10)
    tab.wait_for_function("document.body.classList.contains('my-turn')", timeout=20_000)
    animations: list[str] = tab.evaluate("window.__animations")
    assert ("deal" in animations) is moves
    # A match won in one hand: the final dialog, with confetti only if motion is welcome.
    match_id = server.new_match([deck(MELDED, JUNK, "QD")], settings={"match_to": 10})["id"]
    tab.goto(f"{server.url}/match/{match_id}")
    tab.click("#btn-take")
    tab.click("#btn-knock")
    final = tab.locator("#dlg-final")
    expect(final).to_contain_text("You win the match!")
    if moves:
        expect(final.locator(".celebration .confetti").first).to_be_attached()
        expect(final.locator(".celebration")).to_have_count(0, timeout=5_000)  # and gone
        expect(tab.locator("#final-again")).to_be_focused()
    else:
        tab.wait_for_timeout(400)
        expect(tab.locator(".celebration")).to_have_count(0)
    animations = tab.evaluate("window.__animations")
    assert ("celebrate" in animations) is moves


def _luminance(page: Page, selector: str) -> float:
    """The relative luminance (0 black to 1 white) of an element's background colour."""
    rgb: list[float] = page.evaluate(
        """s => getComputedStyle(document.querySelector(s)).backgroundColor
            .match(/[\\d.]+/g).slice(0, 3).map(Number)""",
        selector,
    )
    r, g, b = (pow(float(c) / 255, 2.2) for c in rgb)
    return float(0.2126 * r + 0.7152 * g + 0.0722 * b)


def test_the_learn_pages_follow_the_theme_the_game_page_uses(
    tab: Page, sqlite_server: Server
) -> None:
    server = sqlite_server
    pages = ["/rules", "/worked-hand", "/strategy"]
    system_dark = tab.viewport_size is not None and tab.viewport_size["width"] > 600
    # As the system (this tab's scheme: light on the phone, dark on the desktop).
    tab.goto(server.url + pages[0])
    expect(tab.locator("body")).to_have_attribute("data-ready", "1")
    assert (_luminance(tab, "html") < 0.1) is system_dark
    # The player's choice on the game page wins, on every learn page.
    choice = "light" if system_dark else "dark"
    tab.goto(server.url + "/")
    expect(tab.locator("#start-match")).to_be_enabled()
    tab.click("#open-comfort")
    tab.select_option("#opt-theme", choice)
    for path in pages:
        tab.goto(server.url + path)
        expect(tab.locator("body")).to_have_attribute("data-ready", "1")
        assert (_luminance(tab, "html") < 0.1) is not system_dark, path
        for box in (".toc", ".caption", ".data"):
            if tab.locator(box).count():
                # Boxes follow the page: light ones on a light page, dark on a dark one.
                assert (_luminance(tab, box) < 0.1) is not system_dark, (path, box)
        assert_clean(tab, f"{path} in the {choice} theme chosen on the game page")


def test_each_worked_hand_step_shows_its_table_and_caption_on_one_screen(
    tab: Page, sqlite_server: Server
) -> None:
    tab.goto(sqlite_server.url + "/worked-hand")
    expect(tab.locator("body")).to_have_attribute("data-ready", "1")
    steps = int(tab.locator("#step-dots button").count())
    assert steps >= 9
    for n in range(1, steps + 1):
        expect(tab.locator("#step-count")).to_have_text(f"Step {n} of {steps}")
        expect(tab.locator("#w-status")).not_to_contain_text("{")
        seen = tab.evaluate(
            """() => { const r = s => document.querySelector(s).getBoundingClientRect();
                return {bar: r('.stepper'), table: r('#worked-table'), caption: r('.caption'),
                        next: r('#step-next'), height: innerHeight}; }"""
        )
        bar, height = seen["bar"], seen["height"]
        for part in ("table", "caption"):  # whole, under the step buttons, on the screen
            assert seen[part]["top"] >= bar["bottom"] - 1, (n, part, seen)
            assert seen[part]["bottom"] <= height + 1, (n, part, seen)
        assert seen["next"]["top"] >= 0 and seen["next"]["bottom"] <= height
        if n < steps:
            tab.click("#step-next")
    # Previous and Next stay at hand wherever the reader scrolls.
    tab.mouse.wheel(0, 5000)
    tab.wait_for_timeout(200)
    expect(tab.locator("#step-prev")).to_be_in_viewport()
    expect(tab.locator("#step-next")).to_be_in_viewport()
