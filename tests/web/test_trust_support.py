"""Helpers for the trust tests (no tests here): legal moves and the server's truth."""

from __future__ import annotations

import random
import re
import secrets
from typing import Any

import httpx

from ginrummy.records import match_from_dict
from ginrummy.web.limits import LEGACY_TOKEN, SIGNED_TOKEN
from ginrummy.web.security import SEAT_COOKIE
from ginrummy.web.storage import MatchStore

from ._support import ROOT

CARD = re.compile(r"\b[A23456789TJQK][CDHS]\b")
"""A card token anywhere in text (headers, messages)."""

SEAT_TOKEN = re.compile(rf"(?<={SEAT_COOKIE}=)[A-Za-z0-9_.-]+")
"""The value of a seat cookie the server sets: 32 random bytes, a dot and their
signature, URL-safe base64 (the signature too, since tokens are signed)."""


def headers_text(r: httpx.Response) -> str:
    """The response's headers as text, each seat token replaced by a placeholder.

    A seat token is ``secrets.token_urlsafe(32)``, minted before the request is
    read: it knows no card, but its random characters (and those of its signature)
    spell something like ``-7C-`` now and then, which the card pattern would take for a leak. Its
    shape is checked here, so a token that carried anything else would fail.
    """
    text = "\n".join(f"{k}: {v}" for k, v in r.headers.multi_items())
    for token in SEAT_TOKEN.findall(text):
        fresh = SIGNED_TOKEN.fullmatch(token) or LEGACY_TOKEN.fullmatch(token)
        assert fresh, f"a seat cookie that is not a fresh token: {token!r}"
    return SEAT_TOKEN.sub("<seat token>", text)


def fairness_check() -> Any:
    """The stdlib-only ``check`` function, taken from docs/FAIRNESS.md as printed."""
    text = (ROOT / "docs" / "FAIRNESS.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    space: dict[str, Any] = {}
    exec(compile(code, "FAIRNESS.md", "exec"), space)
    return space["check"]


def new_match(
    client: httpx.Client, url: str, settings: dict[str, Any] | None = None
) -> dict[str, Any]:
    """Start a match as the page does: ask for a commitment, then send a client seed."""
    c = client.post(url + "/api/commitments")
    assert c.status_code == 201, c.text
    body: dict[str, Any] = {
        "commitment": c.json()["commitment"],
        "client_seed": secrets.token_hex(16),
    }
    if settings:
        body["settings"] = settings
    r = client.post(url + "/api/matches", json=body)
    assert r.status_code == 201, r.text
    m: dict[str, Any] = r.json()
    assert m["fairness"]["deal"]["commitment"] == c.json()["commitment"]
    return m


def move(m: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """A legal request body for the match as the player sees it (``None``: deal next)."""
    t = m["table"]
    legal = t["legal"]
    body: dict[str, Any] = {"version": m["version"], "action_id": secrets.token_hex(8)}
    if m["awaiting_deal"]:
        return None
    if legal["take"] or legal["pass"]:
        body["action"] = rng.choice(["take", "pass"] if legal["take"] else ["pass"])
    elif legal["stock"] or legal["pile"]:
        body["action"] = "pile" if legal["pile"] and rng.random() < 0.3 else "stock"
    elif legal["big_gin"]:
        body["action"] = "big_gin"
    elif legal["knock"] and rng.random() < 0.7:
        body["action"] = "knock"
        body["card"] = rng.choice(legal["knock"])["card"]
    else:
        body["action"] = "discard"
        body["card"] = rng.choice(legal["discard"])
    return body


def step(client: httpx.Client, url: str, m: dict[str, Any], rng: random.Random) -> httpx.Response:
    """Make one legal move (or deal the next hand) and return the raw response."""
    body = move(m, rng)
    if body is None:
        deal = {
            "version": m["version"],
            "client_seed": secrets.token_hex(16),
            "action_id": secrets.token_hex(8),
        }
        return client.post(f"{url}/api/matches/{m['id']}/next-hand", json=deal)
    return client.post(f"{url}/api/matches/{m['id']}/actions", json=body)


def hidden_now(db: str, match_id: str) -> set[str]:
    """What the player may not know right now: the computer's concealed cards and the stock."""
    row = MatchStore.open(db).get(match_id)
    assert row is not None
    match = match_from_dict(row.record)
    hand = match.hand
    if hand.is_over:
        return set()
    face_up = set(match.view(0).opponent_pile_cards)
    concealed = {str(c) for c in hand.cards_of(1) if c not in face_up}
    stock = {str(c) for c in hand.deck[52 - hand.stock_count :]}
    return concealed | stock


def stored(db: str, match_id: str) -> tuple[int, Any]:
    """The stored version of a match and the match replayed from its record."""
    row = MatchStore.open(db).get(match_id)
    assert row is not None
    return row.version, match_from_dict(row.record)
