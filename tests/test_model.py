"""The other player modelled as a camper: its own hand always fits its throws."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.arena import build_bot
from ginrummy.bots._common import read_record
from ginrummy.bots._model import Throw, camper_would_throw, throws
from ginrummy.bots._reading import read_table, sample_opponent
from ginrummy.bots.hard import hard_variant
from ginrummy.cards import Card, mask_of, parse_cards
from ginrummy.hand import Hand, Phase, shuffled_deck
from ginrummy.settings import Settings


def card(name: str) -> int:
    return int(Card.parse(name))


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), opponent=st.sampled_from(["hard", "simple"]))
def test_the_campers_real_hand_fits_its_latest_throw(seed: int, opponent: str) -> None:
    """At every throw of the camper's opponent, the camper's true ten cards fit the
    camper's latest throw as rebuilt from the opponent's view (pile, takes, turn), and
    the throws rebuilt are the camper's throws."""
    rng = random.Random(seed)
    hand = Hand.deal(shuffled_deck(rng), dealer=rng.randrange(2), settings=Settings())
    bots = [build_bot(opponent, seed), build_bot("camper", seed + 1)]
    while not hand.is_over:
        player = hand.to_act or 0
        view = hand.view(player)
        if player == 0 and view.phase == Phase.DISCARD:
            made = throws(view)
            assert [t.card for t in made] == read_record(view).opp_threw
            truth = mask_of(hand.view(1).hand)
            if made:
                assert camper_would_throw(truth, made[-1], False)
        hand.apply(bots[player].choose(view))


def test_a_throw_the_camper_would_not_make_does_not_fit() -> None:
    """The camper throws among its dearest unmelded cards: a 3 thrown while a lone
    king was kept is not the camper's throw; from a hand where it was the only
    unmelded card, it is."""
    melded = mask_of(parse_cards("AS 2S 3S 7H 7D 7C 9C TC JC"))
    threw = Throw(card("3H"), None, pile=0, took=0, held=0, turn=4)
    with_king = melded | 1 << card("KD")
    assert not camper_would_throw(with_king, threw, False)
    # With the king's place taken by a card that extends a run, the 3 is the only card
    # left out of the melds: the camper's one candidate.
    with_run = melded | 1 << card("8C")
    assert camper_would_throw(with_run, threw, False)


def test_the_card_taken_from_the_pile_is_never_thrown_back() -> None:
    """A throw of the very card taken that turn cannot be the camper's."""
    hand = mask_of(parse_cards("AS 2S 3S 7H 7D 7C 9C TC JC 4D"))
    taken_and_thrown = Throw(card("KD"), card("KD"), pile=0, took=0, held=0, turn=3)
    assert not camper_would_throw(hand, taken_and_thrown, False)


def test_hard_with_the_model_deals_the_camper_fewer_hands_it_could_not_hold() -> None:
    """With ``camper_model``, Hard's guesses at the camper's hand that break its latest
    throw count for less, and the camper's real hand never does."""
    base, model = hard_variant("", 1), hard_variant("camper_model=2", 1)
    lowered = 0
    for seed in range(3):
        rng = random.Random(seed)
        hand = Hand.deal(shuffled_deck(rng), dealer=0, settings=Settings())
        bots = [base, build_bot("camper", seed)]
        while not hand.is_over:
            player = hand.to_act or 0
            view = hand.view(player)
            record = read_record(view)
            if player == 0 and view.phase == Phase.DISCARD and record.opp_turns >= 2:
                reading = read_table(view, record)
                plain = base._fits(view, record, reading, (0, 0))
                modelled = model._fits(view, record, reading, (0, 0))
                assert plain is not None and modelled is not None
                truth = mask_of(hand.view(1).hand)
                assert modelled(truth) == plain(truth)
                guesses = [sample_opponent(reading, rng) for _ in range(20)]
                lowered += sum(modelled(g) < plain(g) for g in guesses)
            hand.apply(bots[player].choose(view))
    assert lowered > 0
