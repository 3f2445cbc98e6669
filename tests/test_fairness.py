"""The fair-deal scheme: commitment, derivation, and the stand-alone check in the docs."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.cards import format_cards
from ginrummy.fairness import SeedError, commitment, fair_deck, fair_first_dealer, verify_deal

DOC = Path(__file__).resolve().parent.parent / "docs" / "FAIRNESS.md"
SEED = "ab" * 32

seeds = st.binary(min_size=32, max_size=32).map(bytes.hex)
client_seeds = st.text(
    alphabet=st.characters(min_codepoint=33, max_codepoint=126), min_size=1, max_size=40
)


def doc_check() -> object:
    """The stand-alone Python check printed in docs/FAIRNESS.md, executed as written."""
    code = re.search(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert code is not None, "docs/FAIRNESS.md lost its Python check"
    namespace: dict[str, object] = {}
    exec(code.group(1), namespace)
    return namespace["check"]


def test_commitment_is_sha256_of_seed_bytes() -> None:
    assert commitment(SEED) == hashlib.sha256(bytes.fromhex(SEED)).hexdigest()


@given(seeds, client_seeds, st.integers(min_value=1, max_value=10_000))
@settings(max_examples=50, deadline=None)
def test_deck_is_a_permutation_fixed_by_both_seeds(server: str, client: str, nonce: int) -> None:
    deck = fair_deck(server, client, nonce)
    assert sorted(deck) == list(range(52))
    assert fair_deck(server, client, nonce) == deck
    assert verify_deal(commitment(server), server, client, nonce, deck) == []


def test_each_seed_and_the_hand_number_change_the_deal() -> None:
    base = fair_deck(SEED, "client", 1)
    assert fair_deck("cd" * 32, "client", 1) != base
    assert fair_deck(SEED, "client2", 1) != base
    assert fair_deck(SEED, "client", 2) != base


def test_documented_check_confirms_a_revealed_deal() -> None:
    check = doc_check()
    deck = fair_deck(SEED, "browser-7f3a", 3)
    assert callable(check)
    assert check(commitment(SEED), SEED, "browser-7f3a", 3, format_cards(deck)) == "fair"


def test_tampering_with_one_card_is_detected() -> None:
    deck = list(fair_deck(SEED, "browser", 1))
    deck[10], deck[11] = deck[11], deck[10]
    problems = verify_deal(commitment(SEED), SEED, "browser", 1, deck)
    assert problems == ["the deck differs from the derived order at position 11"]
    check = doc_check()
    assert callable(check)
    with pytest.raises(AssertionError, match="not the one the seeds give"):
        check(commitment(SEED), SEED, "browser", 1, format_cards(deck))


def test_a_different_revealed_seed_breaks_the_commitment() -> None:
    deck = fair_deck("cd" * 32, "browser", 1)
    problems = verify_deal(commitment(SEED), "cd" * 32, "browser", 1, deck)
    assert "does not match the commitment" in problems[0]


@pytest.mark.parametrize(
    ("bad", "code"),
    [("xyz", "server_seed_not_hex"), ("ab" * 31, "server_seed_length"), ("", "server_seed_length")],
)
def test_bad_server_seed_is_a_clear_error(bad: str, code: str) -> None:
    with pytest.raises(SeedError, match="server seed") as info:
        fair_deck(bad, "client", 1)
    assert info.value.code == code
    if code == "server_seed_length":
        assert dict(info.value.params) == {"size": 32, "digits": 64}


@pytest.mark.parametrize("bad", ["", "x" * 201, "line\nbreak"])
def test_bad_client_seed_is_a_clear_error(bad: str) -> None:
    with pytest.raises(SeedError, match="client seed") as info:
        fair_deck(SEED, bad, 1)
    assert (info.value.code, dict(info.value.params)) == ("client_seed_bad", {"most": 200})


@given(seeds, client_seeds)
@settings(max_examples=50, deadline=None)
def test_the_first_dealer_is_fixed_by_both_seeds_and_checked(server: str, client: str) -> None:
    dealer = fair_first_dealer(server, client)
    assert dealer in (0, 1) and fair_first_dealer(server, client) == dealer
    deck = fair_deck(server, client, 1)
    assert verify_deal(commitment(server), server, client, 1, deck, first_dealer=dealer) == []
    wrong = verify_deal(commitment(server), server, client, 1, deck, first_dealer=1 - dealer)
    assert wrong == ["the first dealer is not the one the seeds give"]


def test_either_seed_can_change_the_first_dealer() -> None:
    """The cut depends on both seeds: some client seed, and some server seed, turns it over."""
    base = fair_first_dealer(SEED, "client")
    assert any(fair_first_dealer(SEED, f"client{i}") != base for i in range(20))
    assert any(fair_first_dealer(f"{i:02x}" * 32, "client") != base for i in range(20))


def test_documented_check_confirms_the_first_dealer() -> None:
    check = doc_check()
    assert callable(check)
    deck = format_cards(fair_deck(SEED, "browser-7f3a", 1))
    dealer = fair_first_dealer(SEED, "browser-7f3a")
    assert check(commitment(SEED), SEED, "browser-7f3a", 1, deck, first_dealer=dealer) == "fair"
    with pytest.raises(AssertionError, match="first dealer"):
        check(commitment(SEED), SEED, "browser-7f3a", 1, deck, first_dealer=1 - dealer)
