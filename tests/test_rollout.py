"""Hard's play-outs of the rest of a hand: each ends the way the rules say it must."""

from __future__ import annotations

import random
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from ginrummy.bots._common import read_record
from ginrummy.bots._reading import read_table
from ginrummy.bots._rollout import Playout, _play, throw_outcomes
from ginrummy.cards import Card, parse_cards
from ginrummy.hand import Discard, DrawStock, Hand, Phase
from ginrummy.melds import mask_of

KNOCKER = Playout(
    knock_limit=10,
    gin_bonus=25,
    undercut_bonus=25,
    my_turns=5,
    their_turns=5,
    my_knock_turns=3,
    their_knock_turns=1 << 20,
    ace_high=False,
)
CAMPER = replace(KNOCKER, their_knock_turns=3)

# Three melds and the 5♣: the 4♠ gives gin.
MINE = mask_of(parse_cards("AS 2S 3S 7H 7D 7C 9S TS JS 5C"))


def stock(cards: str) -> list[int]:
    """A stock whose last card is drawn first (as the play-outs draw)."""
    return [int(c) for c in parse_cards(cards)]


def card(name: str) -> int:
    return int(Card.parse(name))


def test_a_gin_drawn_on_my_turn_scores_the_bonus_and_all_their_deadwood() -> None:
    theirs = mask_of(parse_cards("KC QD JH 9D 8C 6H 4D 2C 5H 3D"))
    # They leave the 10♣ and draw the Q♥: nothing melds, so they throw a ten-pointer
    # (76 points left in their hand); the 4♠ then gives me gin.
    assert _play(MINE, theirs, card("TC"), stock("8D 6C 4S QH"), KNOCKER) == 25 + 67


def test_a_throw_that_completes_their_hand_costs_the_gin_against_me() -> None:
    theirs = mask_of(parse_cards("8H 9H TH 4C 4D 4S JC QC KC 2D"))
    # The 7♥ extends their run of hearts: they take it, throw the 2♦ and go gin.
    assert _play(MINE, theirs, card("7H"), stock("8D 6C 4S QH"), KNOCKER) == -(25 + 5)


def test_a_player_who_knocks_at_once_is_undercut_by_a_lower_hand() -> None:
    theirs = mask_of(parse_cards("8H 9H TH 4C 4D 4S JC QC KC 9C"))
    # They draw the 8♦, throw the 9♣ and knock with 8; my 5 undercuts: 3 + 25.
    assert _play(MINE, theirs, card("2H"), stock("6C 5D 4S 8D"), KNOCKER) == 3 + 25


def test_a_camper_waits_and_my_gin_comes_first() -> None:
    theirs = mask_of(parse_cards("8H 9H TH 4C 4D 4S JC QC KC 9C"))
    # Past its knocking turns a camper keeps the 8 points; the 4♠ gives me gin.
    assert _play(MINE, theirs, card("2H"), stock("6C 5D 4S 8D"), CAMPER) == 25 + 8


def test_at_the_wall_both_knock_rather_than_let_the_hand_die() -> None:
    theirs = mask_of(parse_cards("8H 9H TH 4C 4D 4S JC QC KC 9C"))
    # Three cards left: their draw leaves two, so the camper knocks with 8 and is undercut.
    assert _play(MINE, theirs, card("2H"), stock("6C 4S 8D"), CAMPER) == 3 + 25
    # Four left: my draw of the 3♥ leaves two and I knock with 3 against their 8.
    assert _play(MINE, theirs, card("2H"), stock("6C 5D 3H 8D"), CAMPER) == 8 - 3


def test_a_hand_with_no_knock_before_the_wall_is_dead() -> None:
    theirs = mask_of(parse_cards("KC QD JH 9D 8C 6H 4D 2C 5H 3D"))
    # Nobody gets near a knock in the last three cards: nobody scores.
    assert _play(MINE, theirs, card("TC"), stock("KH KD QH"), CAMPER) == 0


def test_a_knocker_that_takes_to_knock_ends_the_hand_on_a_low_throw() -> None:
    # Two melds and 15 points: the 2♥ melds nothing, but taken in place of the 7♠ it
    # leaves 10, a knock against my 39 (OpenSpiel's bot takes it and knocks).
    theirs = mask_of(parse_cards("8H 9H TH JH 4C 4D 4S 2C 6D 7S"))
    mine = mask_of(parse_cards("AS 2S 3S 7H 7D 7C 9S TS KD QC"))
    takes = replace(KNOCKER, their_knock_takes=True)
    assert _play(mine, theirs, card("2H"), stock("KH 6C QS"), takes) == -(39 - 10)
    # Without the rule they draw the Q♠, throw it with 15 left, and the wall kills the hand.
    assert _play(mine, theirs, card("2H"), stock("KH 6C QS"), KNOCKER) == 0
    # A camper past its knocking turns does not take a card to knock with.
    camper = replace(takes, their_knock_turns=3)
    assert _play(mine, theirs, card("2H"), stock("KH 6C QS"), camper) == 0


def _discard_view(seed: int, draws: int) -> tuple[Hand, int]:
    """A hand some turns in, the player to act holding eleven cards."""
    hand = Hand.from_seed(seed, dealer=seed % 2)
    rng = random.Random(seed)
    while True:
        if hand.phase in (Phase.UPCARD, Phase.DRAW):
            hand.apply(DrawStock() if hand.phase is Phase.DRAW else hand.legal_actions()[0])
        elif draws == 0 or hand.stock_count <= 4:
            player = hand.to_act
            assert player is not None
            return hand, player
        else:
            draws -= 1
            throws = [a for a in hand.legal_actions() if isinstance(a, Discard)]
            hand.apply(rng.choice(throws))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), draws=st.integers(1, 12), extra=st.integers(0, 4))
def test_a_throws_outcome_does_not_depend_on_the_throws_weighed_beside_it(
    seed: int, draws: int, extra: int
) -> None:
    # Every throw meets the same dealt hands and stocks: a difference between two
    # throws is the throw's, not the luck of the deal.
    hand, player = _discard_view(seed, draws)
    view = hand.view(player)
    reading = read_table(view, read_record(view))
    throws = [int(a.card) for a in view.legal_actions if isinstance(a, Discard)][:4]
    rules = replace(KNOCKER, knock_limit=view.knock_limit)
    together = throw_outcomes(reading, reading.mine, throws, random.Random(seed), rules, 6, extra)
    for c in throws:
        alone = throw_outcomes(reading, reading.mine, [c], random.Random(seed), rules, 6, extra)
        assert alone[c] == together[c]
        assert -(25 + 10 + 100) <= together[c] <= 25 + 100
