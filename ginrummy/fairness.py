"""A deal neither side chooses alone: commit, contribute, reveal, verify.

Before a hand the server picks a secret *server seed* and shows its SHA-256
(the commitment). The player's browser then sends a *client seed*. The deck
order is derived from both, and the hand number, by a Fisher-Yates shuffle
whose swaps come from HMAC-SHA256 keyed with the server seed. When the hand
ends the server seed is revealed, and anybody can check the commitment and the
deck with the standard library alone (``docs/FAIRNESS.md`` has the few lines).
The first dealer of a match is drawn from the same two seeds
(:func:`fair_first_dealer`), so neither side steers it either.

>>> seed = bytes(range(32)).hex()
>>> deck = fair_deck(seed, "my-browser-seed", 1)
>>> len(set(deck)), str(deck[0])
(52, 'KH')
>>> fair_first_dealer(seed, "my-browser-seed")
1
>>> verify_deal(commitment(seed), seed, "my-browser-seed", 1, deck, first_dealer=1)
[]
>>> verify_deal(commitment(seed), seed, "my-browser-seed", 1, deck, first_dealer=0)
['the first dealer is not the one the seeds give']
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Sequence

from ginrummy.cards import FULL_DECK, Card
from ginrummy.errors import EngineError

__all__ = [
    "SEED_BYTES",
    "SeedError",
    "commitment",
    "fair_deck",
    "fair_first_dealer",
    "verify_deal",
]

SEED_BYTES = 32
"""Length of a server seed in bytes (64 hex digits)."""

MAX_CLIENT_SEED = 200
"""The longest client seed accepted, in characters."""


class SeedError(EngineError):
    """A server or client seed not in its form (codes ``server_seed_*``, ``client_seed_bad``)."""


def _seed_bytes(server_seed: str) -> bytes:
    try:
        raw = bytes.fromhex(server_seed)
    except ValueError:
        raise SeedError("server_seed_not_hex") from None
    if len(raw) != SEED_BYTES:
        raise SeedError("server_seed_length", size=SEED_BYTES, digits=2 * SEED_BYTES)
    return raw


def _check_client_seed(client_seed: str) -> None:
    if not client_seed or len(client_seed) > MAX_CLIENT_SEED or not client_seed.isprintable():
        raise SeedError("client_seed_bad", most=MAX_CLIENT_SEED)


def commitment(server_seed: str) -> str:
    """The SHA-256 of the server seed's bytes, in hex: what is shown before the deal."""
    return hashlib.sha256(_seed_bytes(server_seed)).hexdigest()


def fair_deck(server_seed: str, client_seed: str, nonce: int) -> tuple[Card, ...]:
    """The deck order for hand ``nonce`` from both seeds (see the module docstring).

    The shuffle starts from the cards in index order (clubs, diamonds, hearts,
    spades; ace to king) and for i = 51 down to 1 swaps card i with card j,
    where j is the HMAC-SHA256 (key: server seed bytes; message: the UTF-8 of
    ``f"{client_seed}:{nonce}:{i}"``), read as a big-endian number, modulo i + 1.
    """
    key = _seed_bytes(server_seed)
    _check_client_seed(client_seed)
    cards = list(FULL_DECK)
    for i in range(51, 0, -1):
        digest = hmac.new(key, f"{client_seed}:{nonce}:{i}".encode(), hashlib.sha256).digest()
        j = int.from_bytes(digest, "big") % (i + 1)
        cards[i], cards[j] = cards[j], cards[i]
    return tuple(cards)


def fair_first_dealer(server_seed: str, client_seed: str) -> int:
    """The seat that deals a match's first hand (0 or 1), from the first hand's two seeds.

    The HMAC-SHA256 (key: server seed bytes; message: the UTF-8 of
    ``f"{client_seed}:cut"``), read as a big-endian number, modulo 2. Both
    seeds are fixed before it is drawn, so the cut is under the commitment.
    """
    key = _seed_bytes(server_seed)
    _check_client_seed(client_seed)
    digest = hmac.new(key, f"{client_seed}:cut".encode(), hashlib.sha256).digest()
    return int.from_bytes(digest, "big") % 2


def verify_deal(
    shown_commitment: str,
    server_seed: str,
    client_seed: str,
    nonce: int,
    deck: Sequence[int],
    *,
    first_dealer: int | None = None,
) -> list[str]:
    """What is wrong with a revealed deal; an empty list when it checks out.

    ``first_dealer``, for a match's first hand, is checked against
    :func:`fair_first_dealer` too.
    """
    problems = []
    try:
        if commitment(server_seed) != shown_commitment.lower():
            problems.append("the revealed server seed does not match the commitment")
        expected = fair_deck(server_seed, client_seed, nonce)
        if first_dealer is not None and fair_first_dealer(server_seed, client_seed) != first_dealer:
            problems.append("the first dealer is not the one the seeds give")
    except ValueError as e:
        return [str(e)]
    if tuple(deck) != expected:
        first = next(
            (i for i, (a, b) in enumerate(zip(deck, expected, strict=False)) if a != b),
            min(len(deck), 52),
        )
        problems.append(f"the deck differs from the derived order at position {first + 1}")
    return problems
