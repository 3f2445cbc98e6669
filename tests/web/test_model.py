"""The web layer's own values: the match data's one serialisation, the knock button's card."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.hand import Hand, Phase
from ginrummy.web.model import Deal, MatchData, default_knock_card


@settings(deadline=None)
@given(
    seed=st.text(min_size=1, max_size=16),
    fixed=st.lists(st.booleans(), max_size=6),
    next_seed=st.none() | st.text(min_size=64, max_size=64, alphabet="0123456789abcdef"),
    first_dealer=st.none() | st.sampled_from([0, 1]),
    committed=st.booleans(),
)
def test_match_data_reads_back_what_it_wrote(
    seed: str, fixed: list[bool], next_seed: str | None, first_dealer: int | None, committed: bool
) -> None:
    deals = tuple(
        Deal(fixed=True)
        if f
        else Deal(
            commitment="c" * 64,
            server_seed="s" * 64,
            client_seed=f"x{i}",
            client_seed_by="you",
            committed=committed or i > 0,
            first_dealer=first_dealer if i == 0 else None,
        )
        for i, f in enumerate(fixed)
    )
    data = MatchData(seed, deals, next_seed, ("AS 2S",) if fixed else (), first_dealer)
    assert MatchData.from_json(data.to_json()) == data


def test_deals_stored_before_the_flags_read_as_committed_after_the_first_hand() -> None:
    """A match stored before deals said whether they were committed keeps loading: its
    first deal cannot vouch for a commitment, later ones were committed at the hand before."""
    old = {"commitment": "c" * 64, "server_seed": "s" * 64, "client_seed": "x"}
    text = json.dumps({"seed": "ab", "deals": [old, old], "first_dealer": None})
    first, second = MatchData.from_json(text).deals
    assert (first.committed, first.first_dealer) == (False, None)
    assert (second.committed, second.first_dealer) == (True, None)


@settings(max_examples=40, deadline=None)
@given(deal=st.integers(0, 10**6), moves=st.integers(0, 60))
def test_the_knock_buttons_card_is_the_engines_default_knock(deal: int, moves: int) -> None:
    """The card read off the seat's view is the one Hand.default_knock throws."""
    rng = random.Random(deal)
    hand = Hand.from_seed(deal, dealer=deal % 2)
    for _ in range(moves):
        if hand.is_over:
            break
        if hand.phase is Phase.DISCARD and hand.to_act is not None:
            seat = hand.to_act
            assert default_knock_card(hand.view(seat)) == hand.default_knock_card()
            assert default_knock_card(hand.view(1 - seat)) is None
        hand.apply(rng.choice(hand.legal_actions()))
