"""Real servers for the web tests: ``ginrummy serve`` in a subprocess on a free port.

Each server runs in test mode (``GINRUMMY_TEST_DECKS``), so a test can start a
match from deck orders it wrote itself; nothing else differs from real play.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest

from ginrummy.cards import FULL_DECK, Card, format_cards, parse_cards
from ginrummy.hand import Action, action_name

if TYPE_CHECKING:
    from playwright._impl._api_structures import SetCookieParam
    from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]

SQLITE_ONLY = pytest.mark.parametrize("db_url", ["sqlite"], indirect=True, scope="session")
"""For a browser test about the page alone (layout, focus, dialogs, keys): the page is the
same over either database, and the storage is tested over both by the API suites and the
play-through browser tests, so such a test runs once, over SQLite."""

# Animation off, unless the page has kept a speed of its own (a reload keeps the choice).
NO_ANIMATION = """
const saved = JSON.parse(localStorage.getItem('ginrummy.comfort') || '{}');
if (!('speed' in saved)) localStorage.setItem('ginrummy.comfort', JSON.stringify({speed: 'off'}));
"""

# Hands the scenarios deal. The player sits first (non-dealer, offered the
# upcard first); the computer's hand has no meld and no way to knock soon.
MELDED = "AS 2S 3S 4H 5H 6H 9C 9D 9S KC"
"""Three melds and the K♣: taking the Q♦ and throwing the K♣ leaves 10."""
JUNK = "2C 4C 6C 8C TC JH KH 3D 7D KD"
"""No meld, 70 deadwood."""
ALSO_JUNK = "3C 5C 7C JC QC QH 2D 4D 6D 8D"
"""Another hand with no meld (the player's, when they must not knock)."""


def free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def deck(you: str, computer: str, upcard: str, stock: str = "") -> str:
    """The deck order dealing ``you`` and ``computer`` when the computer deals.

    ``stock`` is the top of the stock, top card first; the cards not named
    follow in card order.
    """
    mine, theirs = parse_cards(you), parse_cards(computer)
    assert len(mine) == len(theirs) == 10
    named = [*mine, *theirs, *parse_cards(upcard), *parse_cards(stock)]
    assert len(set(named)) == len(named), "a card is named twice"
    order: list[Card] = []
    for a, b in zip(mine, theirs, strict=True):
        order += [a, b]
    order += parse_cards(upcard) + parse_cards(stock)
    order += [c for c in FULL_DECK if c not in set(named)]
    return format_cards(order)


SECOND_HAND = deck(JUNK, ALSO_JUNK, "9H")
"""Hand 2 after the player won hand 1, so dealt by the player: the computer, first to
play, gets ``JUNK`` and the player ``ALSO_JUNK`` (the Q♥ among them). No meld either
side, so the computer cannot end the hand at once, as a random deal now and then lets
it (by taking the upcard and knocking)."""


@dataclass
class Server:
    """A ``ginrummy serve`` process and the database it keeps matches in."""

    db: str
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen[bytes] | None = None
    log: Path | None = None
    _client: httpx.Client | None = None
    root: Path = ROOT
    """The checkout whose ``ginrummy`` package the process runs (another version's, to
    test an update)."""

    @property
    def client(self) -> httpx.Client:
        """An HTTP client for one test player: it keeps the seat cookie the server gives.

        Cookies do not depend on the port, so the same player may talk to another
        server on 127.0.0.1 (a restart, a second process) with it.
        """
        if self._client is None:
            self._client = httpx.Client(timeout=30)
        return self._client

    def seat_cookies(self) -> list[SetCookieParam]:
        """The test player's seat cookie, for a browser context (``add_cookies``)."""
        from ginrummy.web.security import SEAT_COOKIE

        token = self.client.cookies.get(SEAT_COOKIE)
        assert token, "the server has not given this player a seat yet"
        return [{"name": SEAT_COOKIE, "value": token, "url": self.url}]

    @property
    def url(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, test_mode: bool = True, settings: Mapping[str, str] = {}) -> Server:
        """Start the process and wait until it answers; ``settings``: environment
        variables of its own (``GINRUMMY_...``), over this process's."""
        env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_TEST_DECKS"}
        if test_mode:
            env["GINRUMMY_TEST_DECKS"] = "web-tests"
        env["PYTHONUNBUFFERED"] = "1"
        # Every test player comes from 127.0.0.1 and asks faster than anybody clicks: lift
        # the new seats per address and the requests per seat (test_hardening, test_trust
        # and test_processes check those limits on servers set for it).
        env.setdefault("GINRUMMY_SEATS_PER_ADDRESS", "100000/1")
        env.setdefault("GINRUMMY_RATE_LIMIT", "1000/1000")
        env.update(settings)
        log_path = Path(os.environ.get("TMPDIR", "/tmp")) / f"ginrummy-serve-{self.port}.log"
        self.log = log_path
        with log_path.open("wb") as out:
            self.proc = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "ginrummy.cli",
                    "serve",
                    "--port",
                    str(self.port),
                    "--db",
                    self.db,
                ],
                cwd=self.root,
                env=env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 60  # a busy machine starts Python slowly
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited: {log_path.read_text()}")
            try:
                if httpx.get(self.url + "/api/health", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not start: {log_path.read_text()}")

    def stop(self) -> None:
        """Stop the process as a restart would (SIGTERM: it closes its connections)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        self.proc = None

    def kill(self) -> None:
        """Kill the process with SIGKILL, as a crash would: no shutdown, no goodbyes."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def new_match(
        self,
        decks: Iterable[str] = (),
        *,
        settings: dict[str, Any] | None = None,
        first_dealer: int = 1,
        seats: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """Start a match from these deck orders over the API; returns the response."""
        body: dict[str, Any] = {"test_decks": list(decks), "first_dealer": first_dealer}
        if settings:
            body["settings"] = settings
        if seats is not None:
            body["seats"] = seats
        r = self.client.post(self.url + "/api/matches", json=body, timeout=30)
        assert r.status_code == 201, r.text
        data: dict[str, Any] = r.json()
        return data


def page_move(action: Action) -> dict[str, Any]:
    """An engine action as the page sends it: the action's name, its card, and a knock's
    melds when it names them (a hand that can be laid out more than one way)."""
    move: dict[str, Any] = {"action": action_name(action).value}
    card = getattr(action, "card", None)
    if card is not None:
        move["card"] = str(card)
    melds = getattr(action, "melds", None)
    if melds is not None:
        move["melds"] = [[str(c) for c in meld] for meld in melds]
    return move


def card_codes(value: Any) -> set[str]:
    """Every string in a JSON value that names a card (``7C``, ``TD``...)."""
    found: set[str] = set()
    if isinstance(value, str):
        if len(value) == 2 and value[0] in "A23456789TJQK" and value[1] in "CDHS":
            found.add(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            found |= card_codes(k) | card_codes(v)
    elif isinstance(value, list):
        for v in value:
            found |= card_codes(v)
    return found


def watched_tab(
    browser: Any,
    width: int = 1280,
    height: int = 800,
    *,
    animation: bool = False,
    console_errors: bool = False,
    only_from: str | None = None,
    timeout: float = 10_000,
    **context: Any,
) -> Iterator[Page]:
    """A fresh tab in a browser context of its own (no saved state), for a fixture to yield.

    The test fails, after it ran, on any script error; with ``console_errors`` also on an
    error written to the console (a CSP violation is one), and with ``only_from`` on any
    request to anywhere but that address (and ``data:``/``blob:``). ``context`` goes to
    ``browser.new_context`` (``color_scheme``, ``bypass_csp`` for a tab that injects
    axe-core...).
    """
    ctx = browser.new_context(viewport={"width": width, "height": height}, **context)
    if not animation:
        ctx.add_init_script(NO_ANIMATION)
    page = ctx.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    if console_errors:
        page.on(
            "console",
            lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None,
        )
    if only_from is not None:
        local = (only_from, "data:", "blob:")
        page.on(
            "request",
            lambda r: None if r.url.startswith(local) else problems.append(f"fetched {r.url}"),
        )
    page.set_default_timeout(timeout)
    yield page
    ctx.close()
    assert not problems, problems
