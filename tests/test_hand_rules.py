"""Scenario tests: one per rule of RULES.md, each dealt from an explicit deck order.

Unless a test says otherwise, player 0 deals, so player 1 is the non-dealer.
"""

from __future__ import annotations

import pytest
from conftest import deal, deck_order, filler_stock, play, visible_cards

from ginrummy.cards import Card, CardSet
from ginrummy.hand import (
    DealError,
    DeclareBigGin,
    Discard,
    Discarded,
    DrawPile,
    DrawStock,
    Hand,
    IllegalActionError,
    Knock,
    Knocked,
    PassUpcard,
    Phase,
    ResultKind,
    StockDrawn,
    TakeUpcard,
    parse_action,
)
from ginrummy.melds import LayOff
from ginrummy.settings import KnockMode, Settings

C = Card.parse

# Player 1: three melds (AS-2S-3S, 4H-5H-6H, 7C 7D 7S) and the 2C: 2 deadwood.
THREE_MELDS_AND_2C = "AS 2S 3S 4H 5H 6H 7C 7D 7S 2C"
# Player 0: no meld and nothing that lays off on the hand above: 80 deadwood.
NO_MELDS_80 = "KC QD JH 9S TD 6D AH 5D TC 9H"


def base_hand(*, dealer: int = 0, settings: Settings | None = None) -> Hand:
    """Non-dealer holds three melds and the 2C; the dealer holds junk; the upcard is KH."""
    return deal(
        dealer=dealer,
        hands={1 - dealer: THREE_MELDS_AND_2C, dealer: NO_MELDS_80},
        upcard="KH",
        stock="KD 8D",
        settings=settings,
    )


def stock_draw_then(
    knocker_cards: str,
    drawn: str,
    *,
    defender: str = NO_MELDS_80,
    upcard: str = "KH",
    settings: Settings | None = None,
) -> Hand:
    """Both players pass the upcard and player 1 (non-dealer) draws ``drawn`` from the stock."""
    hand = deal(
        hands={1: knocker_cards, 0: defender}, upcard=upcard, stock=drawn, settings=settings
    )
    play(hand, "pass", "pass", "stock")
    return hand


def error_of(hand: Hand, action: str, player: int | None = None) -> str:
    """The message of the IllegalActionError that ``action`` raises."""
    with pytest.raises(IllegalActionError) as info:
        hand.apply(parse_action(action), player)
    return str(info.value)


# --- the deal ----------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_dealer_deals_ten_each_starting_with_non_dealer_then_upcard_then_stock(
    dealer: int,
) -> None:
    order = deck_order(
        dealer=dealer, hands={1 - dealer: THREE_MELDS_AND_2C, dealer: NO_MELDS_80}, upcard="KH"
    )
    hand = Hand.deal(order, dealer=dealer)
    assert hand.cards_of(1 - dealer) == tuple(sorted(order[0:20:2]))
    assert hand.cards_of(dealer) == tuple(sorted(order[1:20:2]))
    assert CardSet(hand.cards_of(1 - dealer)) == CardSet.parse(THREE_MELDS_AND_2C)
    assert hand.pile == (C("KH"),) and hand.first_upcard == C("KH")
    assert hand.stock_count == 31
    play(hand, "pass", "pass", "stock")
    assert C(str(order[21])) in hand.cards_of(1 - dealer)


def test_deck_must_hold_each_card_once() -> None:
    order = list(deck_order(dealer=0, hands={1: THREE_MELDS_AND_2C, 0: NO_MELDS_80}, upcard="KH"))
    with pytest.raises(ValueError, match="52 cards exactly once"):
        Hand.deal([*order[:-1], order[0]], dealer=0)
    with pytest.raises(ValueError, match="52 cards exactly once"):
        Hand.deal(order[:-1], dealer=0)
    # -1 is not a way of writing the king of spades.
    with pytest.raises(ValueError, match="52 cards exactly once"):
        Hand.deal([-1 if c == 51 else c for c in order], dealer=0)
    with pytest.raises(ValueError, match="dealer"):
        Hand.deal(order, dealer=2)


# --- the upcard offer ----------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1])
def test_non_dealer_is_offered_the_upcard_first(dealer: int) -> None:
    hand = base_hand(dealer=dealer)
    assert hand.phase is Phase.UPCARD
    assert hand.to_act == 1 - dealer
    assert hand.legal_actions() == (TakeUpcard(), PassUpcard())
    assert "it is player" in error_of(hand, "take", player=dealer)


def test_dealer_offered_upcard_after_non_dealer_passes() -> None:
    hand = base_hand()
    play(hand, "pass")
    assert (hand.phase, hand.to_act) == (Phase.UPCARD, 0)
    assert hand.legal_actions() == (TakeUpcard(), PassUpcard())
    play(hand, "take")
    assert C("KH") in hand.cards_of(0) and len(hand.cards_of(0)) == 11
    assert hand.phase is Phase.DISCARD and hand.to_act == 0


def test_both_pass_then_non_dealer_must_draw_from_stock() -> None:
    hand = base_hand()
    play(hand, "pass", "pass")
    assert (hand.phase, hand.to_act) == (Phase.DRAW, 1)
    assert hand.legal_actions() == (DrawStock(),)
    assert "first draw is from the stock" in error_of(hand, "pile")
    play(hand, "stock")
    assert C("KD") in hand.cards_of(1)
    assert hand.pile == (C("KH"),)
    # From then on play goes on normally: the dealer may take the pile card.
    play(hand, "discard KD")
    assert hand.to_act == 0 and hand.legal_actions() == (DrawStock(), DrawPile())


def test_taking_upcard_is_the_draw() -> None:
    hand = base_hand()
    play(hand, "take")
    assert hand.phase is Phase.DISCARD and hand.to_act == 1
    assert not hand.can(DrawStock()) and not hand.can(DrawPile())
    assert "drawn already" in error_of(hand, "stock")
    play(hand, "discard 2C")
    # The other player takes the next turn, with an ordinary draw.
    assert (hand.phase, hand.to_act) == (Phase.DRAW, 0)
    assert hand.legal_actions() == (DrawStock(), DrawPile())


def test_dealer_taking_upcard_then_non_dealer_plays_next() -> None:
    hand = base_hand()
    play(hand, "pass", "take", "discard KC")
    assert (hand.phase, hand.to_act) == (Phase.DRAW, 1)
    assert hand.legal_actions() == (DrawStock(), DrawPile())


def test_upcard_offer_is_over_once_taken_or_both_passed() -> None:
    hand = base_hand()
    play(hand, "pass", "pass")
    assert "upcard offer is over" in error_of(hand, "take")
    assert "upcard offer is over" in error_of(hand, "pass")
    hand = base_hand()
    assert "first take the upcard or pass" in error_of(hand, "stock")
    assert "first take the upcard or pass" in error_of(hand, "discard 2C")


# --- a turn --------------------------------------------------------------------


def test_a_turn_is_draw_then_discard() -> None:
    hand = base_hand()
    play(hand, "pass", "pass")
    assert "draw first" in error_of(hand, "discard 2C")
    play(hand, "stock")
    assert hand.phase is Phase.DISCARD
    assert "is not in your hand" in error_of(hand, "discard QH")
    play(hand, "discard 2C")
    assert hand.pile == (C("KH"), C("2C"))
    assert len(hand.cards_of(1)) == 10 and hand.to_act == 0


def test_card_taken_from_pile_cannot_be_thrown_back_same_turn_even_as_knock_card() -> None:
    hand = base_hand()
    play(hand, "take")
    # Knocking with the KH would leave only the 2C (2): still not allowed.
    assert "just taken from the pile" in error_of(hand, "discard KH")
    assert "just taken from the pile" in error_of(hand, "knock KH")
    assert Discard(C("KH")) not in hand.legal_actions()
    assert Knock(C("KH")) not in hand.legal_actions()
    assert C("KH") not in hand.knock_options()
    assert hand.can(Knock(C("2C")))  # keeps the KH: 10 deadwood
    # The same holds for a card drawn from the pile later in the hand.
    play(hand, "discard 2C", "pile")
    assert hand.to_act == 0
    assert "just taken from the pile" in error_of(hand, "discard 2C")


def test_card_from_pile_may_be_thrown_on_a_later_turn() -> None:
    hand = base_hand()
    play(hand, "take", "discard 2C", "stock", "discard KD", "stock")
    assert hand.can(Discard(C("KH")))
    play(hand, "discard KH")
    assert hand.pile[-1] == C("KH")


def test_discard_pile_is_public_history() -> None:
    hand = base_hand()
    play(hand, "take", "discard 2C", "stock", "discard KD")
    for player in (0, 1):
        view = hand.view(player)
        assert view.pile == (C("2C"), C("KD"))
        discards = [str(e.card) for e in view.events if isinstance(e, Discarded)]
        assert discards == ["2C", "KD"]


# --- knocking -------------------------------------------------------------------


def test_knock_card_is_not_counted() -> None:
    hand = stock_draw_then(THREE_MELDS_AND_2C, "KD")
    events = hand.apply(Knock(C("KD")))
    assert events == [Knocked(1, C("KD"), 2)]
    result = hand.result
    assert result is not None and result.kind is ResultKind.KNOCK
    assert result.knock_card == C("KD")
    assert result.knocker_deadwood == (C("2C"),)
    assert result.knocker_points == 2
    assert C("KD") not in {c for m in result.knocker_melds for c in m}
    assert (result.defender_points, result.points) == (80, 78)


def test_knock_limit_standard_is_10() -> None:
    # Kept cards: 5S-6S-7S, 8C 8D 8H and AC 2D 3H 4C: exactly 10.
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C AC 2D 3H 4C", "KD")
    assert hand.knock_limit == 10
    assert hand.knock_options()[C("KD")] == 10
    assert Knock(C("KD")) in hand.legal_actions()
    # With 5C instead of 4C the same knock leaves 11.
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C AC 2D 3H 5C", "KD")
    assert error_of(hand, "knock KD") == (
        "throwing KD leaves 11 deadwood; a knock needs 10 or less"
    )
    assert not any(isinstance(a, Knock) for a in hand.legal_actions())


OKLAHOMA = Settings(knocking=KnockMode.OKLAHOMA)


def test_oklahoma_limit_is_upcard_value() -> None:
    seven = "AC AD 2H 3C"  # deadwood 7 beside two melds
    eight = "AC AD 2H 4C"  # deadwood 8
    hand = stock_draw_then(f"5S 6S 7S 8H 8D 8C {seven}", "KD", upcard="7H", settings=OKLAHOMA)
    assert hand.knock_limit == 7
    assert hand.can(Knock(C("KD")))
    hand = stock_draw_then(f"5S 6S 7S 8H 8D 8C {eight}", "KD", upcard="7H", settings=OKLAHOMA)
    assert error_of(hand, "knock KD") == "throwing KD leaves 8 deadwood; a knock needs 7 or less"
    # The same cards may knock under the standard limit.
    hand = stock_draw_then(f"5S 6S 7S 8H 8D 8C {eight}", "KD", upcard="7H")
    assert hand.can(Knock(C("KD")))


@pytest.mark.parametrize("upcard", ["TS", "JS", "QS", "KS"])
def test_oklahoma_court_upcard_limit_10(upcard: str) -> None:
    ten, eleven = "AC 2D 3H 4C", "AC 2D 3H 5C"
    hand = stock_draw_then(f"5S 6S 7S 8H 8D 8C {ten}", "KD", upcard=upcard, settings=OKLAHOMA)
    assert hand.knock_limit == 10
    assert hand.can(Knock(C("KD")))
    hand = stock_draw_then(f"5S 6S 7S 8H 8D 8C {eleven}", "KD", upcard=upcard, settings=OKLAHOMA)
    assert not hand.can(Knock(C("KD")))


def test_oklahoma_ace_upcard_allows_only_gin() -> None:
    # Three melds and the AD: knocking with KD would leave 1.
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C 2C 3C 4C AD", "KD", upcard="AS", settings=OKLAHOMA)
    assert hand.knock_limit == 0
    assert error_of(hand, "knock KD") == "only gin ends this hand, and throwing KD leaves 1"
    assert not any(isinstance(a, Knock) for a in hand.legal_actions())
    # Drawing the 5C makes gin (2C-5C), which may end the hand.
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C 2C 3C 4C KD", "5C", upcard="AS", settings=OKLAHOMA)
    assert Knock(C("KD")) in hand.legal_actions()
    play(hand, "knock KD")
    assert hand.result is not None and hand.result.kind is ResultKind.GIN


def test_gin_only_mode_has_no_knock() -> None:
    gin_only = Settings(knocking=KnockMode.GIN_ONLY)
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C 2C 3C 4C AD", "KD", settings=gin_only)
    assert hand.knock_limit == 0
    assert not hand.can(Knock(C("KD")))
    assert not any(isinstance(a, Knock) for a in hand.legal_actions())
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C 2C 3C 4C KD", "5C", settings=gin_only)
    assert [a for a in hand.legal_actions() if isinstance(a, Knock)] == [Knock(C("KD"))]


def test_knock_options_show_the_count_each_discard_leaves() -> None:
    hand = stock_draw_then(THREE_MELDS_AND_2C, "KD")
    options = hand.knock_options()
    assert options[C("KD")] == 2 and options[C("2C")] == 10
    assert min(options.values()) == 2
    assert set(options) == set(hand.cards_of(1))


# --- gin and big gin ----------------------------------------------------------------

GIN_AFTER_5C = "5S 6S 7S 8H 8D 8C 2C 3C 4C KD"
# Holds the 8S and 9S, which lay off onto a 5S-6S-7S run (8S, then 9S) after a knock.
DEFENDER_WITH_8S = "KC QD JH 9S 8S 6D 5D 3D TC 9H"


@pytest.mark.parametrize("bonus", [25, 0, 100])
def test_gin_pays_defender_deadwood_plus_bonus(bonus: int) -> None:
    hand = stock_draw_then(
        GIN_AFTER_5C, "5C", defender=DEFENDER_WITH_8S, settings=Settings(gin_bonus=bonus)
    )
    play(hand, "knock KD")
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner, result.knocker) == (ResultKind.GIN, 1, 1)
    assert result.defender_points == 80
    assert result.points == 80 + bonus


def test_nothing_is_laid_off_on_gin() -> None:
    hand = stock_draw_then(GIN_AFTER_5C, "5C", defender=DEFENDER_WITH_8S)
    play(hand, "knock KD")
    assert hand.result is not None
    assert hand.result.lay_offs == ()
    assert C("8S") in hand.result.defender_deadwood
    # Against a knock with 1 (the AD kept), the same 8S is laid off.
    hand = stock_draw_then(GIN_AFTER_5C, "AD", defender=DEFENDER_WITH_8S)
    play(hand, "knock KD")
    assert hand.result is not None and hand.result.kind is ResultKind.KNOCK
    assert [lay.card for lay in hand.result.lay_offs] == [C("8S"), C("9S")]
    assert hand.result.defender_points == 80 - 8 - 9


def test_gin_cannot_be_undercut() -> None:
    # The defender has no deadwood either.
    hand = stock_draw_then(GIN_AFTER_5C, "5C", defender="9S TS JS QH QD QC 2D 3D 4D 5D")
    play(hand, "knock KD")
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner, result.defender_points, result.points) == (
        ResultKind.GIN,
        1,
        0,
        25,
    )


BIG_GIN_AFTER_4S = "5S 6S 7S 8H 8D 8C 2C 3C 4C 5C"


def test_big_gin_house_rule_pays_31() -> None:
    hand = stock_draw_then(
        BIG_GIN_AFTER_4S, "4S", defender=DEFENDER_WITH_8S, settings=Settings(big_gin=True)
    )
    assert DeclareBigGin() in hand.legal_actions()
    play(hand, "big_gin")
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner, result.knocker) == (ResultKind.BIG_GIN, 1, 1)
    assert result.points == 80 + 31
    assert result.knock_card is None and result.knocker_deadwood == ()
    assert result.knocker_points == 0 and result.lay_offs == ()
    laid = [c for m in result.knocker_melds for c in m]
    assert len(laid) == 11 and CardSet(laid) == CardSet(hand.cards_of(1))
    assert hand.view(0).opponent_hand == hand.cards_of(1)


def test_big_gin_bonus_setting_is_used() -> None:
    hand = stock_draw_then(
        BIG_GIN_AFTER_4S,
        "4S",
        defender=DEFENDER_WITH_8S,
        settings=Settings(big_gin=True, big_gin_bonus=50),
    )
    play(hand, "big_gin")
    assert hand.result is not None and hand.result.points == 130


def test_big_gin_not_allowed_when_rule_off() -> None:
    hand = stock_draw_then(BIG_GIN_AFTER_4S, "4S", defender=DEFENDER_WITH_8S)
    assert DeclareBigGin() not in hand.legal_actions()
    assert error_of(hand, "big_gin") == "big gin is a house rule that is off in this match"
    # Ordinary gin (throwing one card) stays open.
    assert hand.can(Knock(C("4S")))


def test_big_gin_needs_all_eleven_cards_melded() -> None:
    hand = stock_draw_then(GIN_AFTER_5C, "5C", settings=Settings(big_gin=True))
    assert DeclareBigGin() not in hand.legal_actions()
    assert error_of(hand, "big_gin") == "big gin needs all eleven cards in melds"


def test_big_gin_may_follow_taking_the_upcard() -> None:
    hand = deal(
        hands={1: BIG_GIN_AFTER_4S, 0: NO_MELDS_80}, upcard="4S", settings=Settings(big_gin=True)
    )
    play(hand, "take", "big_gin")
    assert hand.result is not None and hand.result.kind is ResultKind.BIG_GIN


# --- laying off ---------------------------------------------------------------------

# Knocker melds 3S-4S-5S, 8C 8D 8H and 2C-3C-4C; keeps the AD (1).
KNOCKER_345 = "3S 4S 5S 8H 8D 8C 2C 3C 4C AD"


def knock_result(knocker: str, defender: str, *, drawn: str = "KD", card: str = "KD") -> Hand:
    """Player 1 draws ``drawn`` and knocks with ``card`` against ``defender``."""
    hand = stock_draw_then(knocker, drawn, defender=defender)
    play(hand, f"knock {card}")
    return hand


def test_six_then_seven_both_lay_off_onto_knockers_three_four_five() -> None:
    hand = knock_result(KNOCKER_345, "6S 7S KC QD JH TC 9H 5D 2H 9D")
    result = hand.result
    assert result is not None
    run = result.knocker_melds.index((C("3S"), C("4S"), C("5S")))
    assert result.lay_offs == (LayOff(C("6S"), run), LayOff(C("7S"), run))
    assert result.defender_points == 10 + 10 + 10 + 10 + 9 + 5 + 2 + 9
    assert result.points == result.defender_points - 1


def test_run_takes_cards_at_both_ends() -> None:
    hand = knock_result(KNOCKER_345, "2S 6S KC QD JH TC 9H 5D 2H 9D")
    result = hand.result
    assert result is not None
    assert {lay.card for lay in result.lay_offs} == {C("2S"), C("6S")}


def test_three_set_takes_its_fourth_card() -> None:
    hand = knock_result(KNOCKER_345, "8S KC QD JH TC 9H 5D 2H 9D 6C")
    result = hand.result
    assert result is not None
    eights = result.knocker_melds.index((C("8C"), C("8D"), C("8H")))
    assert result.lay_offs == (LayOff(C("8S"), eights),)


def test_four_set_takes_no_lay_off() -> None:
    # Knocker: 8C 8D 8H 8S and 2C-3C-4C, keeps AD 2D 5H (8). The defender's
    # 7S and 9S sit next to the 8S, but a set is not a run.
    hand = knock_result("8C 8D 8H 8S 2C 3C 4C AD 2D 5H", "7S 9S 7D 9D KC QD JH TC 6H 3S")
    result = hand.result
    assert result is not None
    assert (C("8C"), C("8D"), C("8H"), C("8S")) in result.knocker_melds
    assert result.lay_offs == ()
    assert result.defender_points == 81 and result.points == 81 - 8


def test_defender_never_lays_off_on_own_melds() -> None:
    # The defender lays out 9H-TH-JH; the QH would extend it, but that is just
    # a longer meld of the defender's own; only the 6S goes onto the knocker's run.
    hand = knock_result(KNOCKER_345, "9H TH JH QH 6S KC QD TC 5D 9D")
    result = hand.result
    assert result is not None
    assert result.defender_melds == ((C("9H"), C("TH"), C("JH"), C("QH")),)
    assert [lay.card for lay in result.lay_offs] == [C("6S")]
    for lay in result.lay_offs:
        assert 0 <= lay.meld_index < len(result.knocker_melds)


def test_knocker_never_lays_off() -> None:
    # Knocker keeps the 6H (6), which would fit the defender's 3H-4H-5H.
    hand = knock_result(
        "AS 2S 3S 8H 8D 8C 2C 3C 4C 6H", "3H 4H 5H KC QD JH TC 9H 5D 9D", drawn="KS", card="KS"
    )
    result = hand.result
    assert result is not None
    assert result.knocker_deadwood == (C("6H"),) and result.knocker_points == 6
    assert (C("3H"), C("4H"), C("5H")) in result.defender_melds


def test_defender_chooses_own_melds_and_lay_offs_jointly() -> None:
    # Alone, 6S-7S-8S is the defender's best meld (52 left). Jointly, 7D 7H 7S
    # as a set frees the 6S for the knocker's 3S-4S-5S and the 8S for the 8 set.
    defender = "6S 7S 8S 7D 7H QC QD 5D 3D KC"
    hand = knock_result(KNOCKER_345, defender)
    result = hand.result
    assert result is not None
    assert result.defender_melds == ((C("7D"), C("7H"), C("7S")),)
    assert {lay.card for lay in result.lay_offs} == {C("6S"), C("8S")}
    assert result.defender_points == 10 + 10 + 5 + 3 + 10


# --- scoring ------------------------------------------------------------------------

# Knocker 5S-6S-7S, 8C 8D 8H, 2C-3C-4C and the 9D: knocks with 9.
KNOCKER_9 = "5S 6S 7S 8H 8D 8C 2C 3C 4C 9D"


def test_knock_scores_the_difference_to_the_knocker() -> None:
    hand = knock_result(KNOCKER_9, NO_MELDS_80)
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner, result.points) == (ResultKind.KNOCK, 1, 80 - 9)


def test_undercut_scores_difference_plus_bonus() -> None:
    hand = knock_result(KNOCKER_9, "9S TS JS QH QD QC 2D 3D 4D AS")
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner) == (ResultKind.UNDERCUT, 0)
    assert (result.knocker_points, result.defender_points) == (9, 1)
    assert result.points == 9 - 1 + 25


@pytest.mark.parametrize("bonus", [0, 10, 25, 100])
def test_tie_is_an_undercut_worth_exactly_the_bonus(bonus: int) -> None:
    hand = stock_draw_then(
        KNOCKER_9,
        "KD",
        defender="9S TS JS QH QD QC 2D 3D 4D 9H",
        settings=Settings(undercut_bonus=bonus),
    )
    play(hand, "knock KD")
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner) == (ResultKind.UNDERCUT, 0)
    assert result.knocker_points == result.defender_points == 9
    assert result.points == bonus


def test_undercut_counts_the_defender_after_lay_offs() -> None:
    # The defender has 4 deadwood (the 4S) until it goes onto the knocker's 5S-6S-7S.
    hand = knock_result(KNOCKER_9, "9S TS JS QH QD QC AD 2D 3D 4S")
    result = hand.result
    assert result is not None
    assert [lay.card for lay in result.lay_offs] == [C("4S")]
    assert result.defender_points == 0
    assert (result.kind, result.points) == (ResultKind.UNDERCUT, 9 + 25)


# The knocker may lay out 9C 9H 9S with AS-2S-3S or with 2D 2H 2S: 8 deadwood either way.
KNOCKER_TWO_WAYS = "9C AD 2D 2H 3H 9H AS 2S 3S KC"
DEFENDER_WITH_4S = "4S 5C 6C 7C 8D TH JD QS KH 6H"


def test_knocker_may_choose_among_equal_arrangements() -> None:
    def knock(melds: str) -> Hand:
        hand = deal(hands={1: KNOCKER_TWO_WAYS, 0: DEFENDER_WITH_4S}, upcard="9S")
        play(hand, "take", f"knock KC {melds}")
        return hand

    choices = deal(hands={1: KNOCKER_TWO_WAYS, 0: DEFENDER_WITH_4S}, upcard="9S")
    play(choices, "take")
    options = {frozenset(CardSet(m) for m in a.melds) for a in choices.knock_arrangements(C("KC"))}
    assert options == {
        frozenset({CardSet.parse("9C 9H 9S"), CardSet.parse("AS 2S 3S")}),
        frozenset({CardSet.parse("9C 9H 9S"), CardSet.parse("2D 2H 2S")}),
    }
    with_run = knock("[9C 9H 9S] [AS 2S 3S]").result
    with_set = knock("[2D 2H 2S] [9C 9H 9S]").result
    assert with_run is not None and with_set is not None
    assert with_run.knocker_points == with_set.knocker_points == 8
    # The run takes the defender's 4S; the set of twos takes nothing.
    assert [lay.card for lay in with_run.lay_offs] == [C("4S")]
    assert with_set.lay_offs == ()
    assert with_run.points == with_set.points - 4
    assert CardSet.parse("2D 2H 2S") <= CardSet(c for m in with_set.knocker_melds for c in m)


def test_knock_melds_must_be_a_least_deadwood_arrangement() -> None:
    hand = deal(hands={1: KNOCKER_TWO_WAYS, 0: DEFENDER_WITH_4S}, upcard="9S")
    play(hand, "take")
    before = hand.state_key()
    for melds in [
        "[9C 9H 9S]",  # leaves more deadwood than the best
        "[AS 2S 3S] [2D 2H 2S]",  # not a valid pair of melds (2S twice)
        "[9C 9H 9S] [AS 2S 3S] [AD 2D 3D]",  # 3D is not held
        "[9C 9H 9S] [AS AS 2S]",  # the same card twice
        "[9C 9H KC]",  # includes the knock card
    ]:
        message = error_of(hand, f"knock KC {melds}")
        assert "melds" in message
        assert hand.state_key() == before


def test_spades_double_doubles_a_hand_under_a_spade_upcard() -> None:
    settings = Settings(spades_double=True)
    hand = stock_draw_then(KNOCKER_9, "KD", upcard="KS", settings=settings)
    play(hand, "knock KD")
    assert hand.result is not None
    assert (hand.result.multiplier, hand.result.points) == (2, 2 * (80 - 9))
    hand = stock_draw_then(KNOCKER_9, "KD", upcard="KH", settings=settings)
    play(hand, "knock KD")
    assert hand.result is not None
    assert (hand.result.multiplier, hand.result.points) == (1, 80 - 9)
    hand = stock_draw_then(KNOCKER_9, "KD", upcard="KS")
    play(hand, "knock KD")
    assert hand.result is not None and hand.result.points == 80 - 9


def test_ace_high_house_rule_melds_queen_king_ace_in_a_knock() -> None:
    cards = "QS KS AS 8H 8D 8C 2C 3C 4C 5H"
    hand = stock_draw_then(cards, "KD", settings=Settings(ace_high=True))
    play(hand, "knock KD")
    assert hand.result is not None
    assert (C("QS"), C("KS"), C("AS")) in hand.result.knocker_melds
    assert hand.result.knocker_points == 5
    hand = stock_draw_then(cards, "KD")
    assert not hand.can(Knock(C("KD")))  # QS KS AS is 21 deadwood


# --- the dead hand -------------------------------------------------------------------


def draw_and_throw(hand: Hand) -> None:
    """The player to act draws from the stock and throws the card drawn."""
    hand.apply(DrawStock())
    event = hand.events[-1]
    assert isinstance(event, StockDrawn) and event.card is not None
    hand.apply(Discard(event.card))


def test_dead_hand_when_discard_leaves_two_in_stock() -> None:
    hand = base_hand()
    play(hand, "pass", "pass")
    for _ in range(28):
        draw_and_throw(hand)
    assert hand.stock_count == 3 and not hand.is_over
    play(hand, "stock")
    assert hand.stock_count == 2 and hand.phase is Phase.DISCARD
    draw_and_throw_card = hand.events[-1]
    assert isinstance(draw_and_throw_card, StockDrawn) and draw_and_throw_card.card is not None
    hand.apply(Discard(draw_and_throw_card.card))
    result = hand.result
    assert result is not None
    assert (result.kind, result.winner, result.points) == (ResultKind.DEAD, None, 0)
    assert hand.to_act is None and hand.legal_actions() == ()
    assert error_of(hand, "stock") == "the hand is over"


def test_player_who_left_two_in_stock_can_still_knock() -> None:
    hands = {1: "5S 6S 7S 8H 8D 8C 2C 3C 4C KD", 0: NO_MELDS_80}
    # The non-dealer draws first, so draw 29 (the one that leaves two) is theirs.
    stock = filler_stock(hands=hands, upcard="KH", before=28, then="AD")
    hand = deal(hands=hands, upcard="KH", stock=stock)
    play(hand, "pass", "pass")
    for _ in range(14):
        draw_and_throw(hand)
        draw_and_throw(hand)
    play(hand, "stock")
    assert (hand.stock_count, hand.to_act) == (2, 1)
    assert C("AD") in hand.cards_of(1)
    assert Knock(C("KD")) in hand.legal_actions()
    plain = hand.clone()
    play(plain, "discard KD")
    assert plain.result is not None and plain.result.kind is ResultKind.DEAD
    play(hand, "knock KD")
    assert hand.result is not None and hand.result.kind is ResultKind.KNOCK
    assert hand.result.knocker_points == 1


def dead_hand_with_pile_take() -> Hand:
    """A dead hand in which the dealer took one card (the 2C) from the pile."""
    hand = base_hand()
    play(hand, "take", "discard 2C", "pile", "discard 9H")
    while not hand.is_over:
        draw_and_throw(hand)
    return hand


def test_dead_hand_reveals_nothing() -> None:
    hand = dead_hand_with_pile_take()
    assert hand.result is not None and hand.result.kind is ResultKind.DEAD
    result = hand.result
    assert result.knocker is None and result.knocker_melds == () and result.defender_melds == ()
    assert result.knocker_deadwood == () and result.defender_deadwood == ()
    for player in (0, 1):
        view = hand.view(player)
        other = set(hand.cards_of(1 - player))
        assert view.opponent_hand is None
        shown = visible_cards(view)
        # Only what the other player took from the pile and still holds.
        assert shown & other == set(view.opponent_pile_cards)
        assert all(
            e.card is None for e in view.events if isinstance(e, StockDrawn) and e.player != player
        )
    assert hand.view(1).opponent_pile_cards == (C("2C"),)
    assert hand.view(0).opponent_pile_cards == (C("KH"),)


def test_views_during_play_hide_the_other_hand_and_the_stock() -> None:
    hand = base_hand()
    play(hand, "take", "discard 2C", "stock")
    stock = set(hand.deck[52 - hand.stock_count :])
    for player in (0, 1):
        view = hand.view(player)
        shown = visible_cards(view)
        assert not shown & stock
        assert shown & set(hand.cards_of(1 - player)) <= set(view.opponent_pile_cards)
    # Player 0 drew the KD: player 0 sees it, player 1 sees only that a card was drawn.
    assert hand.view(0).drawn == C("KD")
    assert hand.view(1).drawn is None
    assert hand.view(1).events[-1] == StockDrawn(0, None)
    assert hand.view(0).events[-1] == StockDrawn(0, C("KD"))


def test_views_after_a_knock_show_both_hands() -> None:
    hand = stock_draw_then(THREE_MELDS_AND_2C, "KD")
    play(hand, "knock KD")
    assert hand.view(0).opponent_hand == hand.cards_of(1)
    assert hand.view(1).opponent_hand == hand.cards_of(0)


# --- turns and illegal actions ----------------------------------------------------------


def test_out_of_turn_action_rejected() -> None:
    hand = base_hand()
    assert error_of(hand, "pass", player=0) == "it is player 1's turn, not player 0's"
    play(hand, "take")
    assert error_of(hand, "discard KC", player=0) == "it is player 1's turn, not player 0's"
    assert not hand.can(Discard(C("KC")), player=0)
    hand.apply(Discard(C("2C")), player=1)
    assert hand.to_act == 0


def test_illegal_action_leaves_state_untouched() -> None:
    hands = [base_hand()]
    for script in (["pass"], ["pass", "pass"], ["take"], ["pass", "pass", "stock"]):
        hand = base_hand()
        play(hand, *script)
        hands.append(hand)
    over = stock_draw_then(THREE_MELDS_AND_2C, "KD")
    play(over, "knock KD")
    hands.append(over)
    candidates = [
        "take", "pass", "stock", "pile", "discard KH", "discard 2C", "discard QS", "knock KH",
        "knock 2C", "knock 7C", "knock KD", "knock 2C [AS 2S 3S]", "big_gin", "discard KC",
    ]  # fmt: skip
    checked = 0
    for hand in hands:
        for text in candidates:
            action = parse_action(text)
            for player in (None, 0, 1):
                if hand.can(action, player):
                    continue
                before = hand.state_key()
                events = len(hand.events)
                view = hand.view(0), hand.view(1)
                with pytest.raises(IllegalActionError):
                    hand.apply(action, player)
                assert hand.state_key() == before
                assert len(hand.events) == events
                assert (hand.view(0), hand.view(1)) == view
                checked += 1
    assert checked > 100


def test_actions_that_are_not_actions_or_cards_are_rejected_cleanly() -> None:
    hand = base_hand()
    play(hand, "take")
    before = hand.state_key()
    for action in (Discard(60), Discard(-1), Knock(99), "discard 2C"):  # type: ignore[arg-type]
        with pytest.raises(IllegalActionError):
            hand.apply(action)  # type: ignore[arg-type]
    assert hand.state_key() == before


def test_error_messages_say_what_is_wrong() -> None:
    hand = base_hand()
    play(hand, "pass", "pass", "stock")
    assert error_of(hand, "discard QS") == "QS is not in your hand"
    assert error_of(hand, "knock 7C") == "throwing 7C leaves 26 deadwood; a knock needs 10 or less"


# --- refusals carry a stable code and params --------------------------------------------


def refusal_of(hand: Hand, action: str, player: int | None = None) -> tuple[str, dict[str, object]]:
    """The code and params of the IllegalActionError that ``action`` raises."""
    with pytest.raises(IllegalActionError) as info:
        hand.apply(parse_action(action), player)
    assert hand.can(parse_action(action), player) is False
    return info.value.code, dict(info.value.params)


def test_refusals_of_the_turn_order_have_codes() -> None:
    hand = base_hand()
    assert refusal_of(hand, "pass", player=0) == ("not_your_turn", {"to_act": 1, "player": 0})
    assert refusal_of(hand, "stock") == ("upcard_first", {})
    assert refusal_of(hand, "discard 2C") == ("upcard_first", {})
    play(hand, "pass", "pass")
    assert refusal_of(hand, "take") == ("upcard_offer_over", {})
    assert refusal_of(hand, "pile") == ("stock_first", {})
    assert refusal_of(hand, "discard 2C") == ("draw_first", {})
    play(hand, "stock")
    assert refusal_of(hand, "stock") == ("drawn_already", {})
    play(hand, "knock KD")
    assert refusal_of(hand, "stock") == ("hand_over", {})


def test_refusals_of_a_card_have_codes_naming_the_card() -> None:
    hand = base_hand()
    play(hand, "take")
    assert refusal_of(hand, "discard QS") == ("card_not_held", {"card": "QS"})
    assert refusal_of(hand, "discard KH") == ("card_just_taken", {"card": "KH"})
    with pytest.raises(IllegalActionError) as info:
        hand.apply(Discard(60))  # type: ignore[arg-type]
    assert (info.value.code, dict(info.value.params)) == ("not_a_card", {"card": "60"})
    with pytest.raises(IllegalActionError) as info:
        hand.apply("discard 2C")  # type: ignore[arg-type]
    assert info.value.code == "not_an_action"


def test_a_knock_over_the_limit_says_the_deadwood_and_the_limit() -> None:
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C AC 2D 3H 5C", "KD")
    assert refusal_of(hand, "knock KD") == (
        "knock_card_too_high",
        {"card": "KD", "deadwood": 11, "limit": 10},
    )
    # The knock with no card named (the Knock button) throws the best card.
    with pytest.raises(IllegalActionError) as info:
        hand.default_knock()
    assert (info.value.code, dict(info.value.params)) == (
        "knock_too_high",
        {"deadwood": 11, "limit": 10},
    )
    assert str(info.value) == "your best throw leaves 11 deadwood; a knock needs 10 or less"
    assert hand.default_knock_card() is None


def test_gin_only_refusals_say_the_deadwood() -> None:
    oklahoma = Settings(knocking=KnockMode.OKLAHOMA)
    hand = stock_draw_then("5S 6S 7S 8H 8D 8C 2C 3C 4C AD", "KD", upcard="AS", settings=oklahoma)
    assert refusal_of(hand, "knock KD") == ("knock_card_gin_only", {"card": "KD", "deadwood": 1})
    with pytest.raises(IllegalActionError) as info:
        hand.default_knock()
    assert (info.value.code, dict(info.value.params)) == ("gin_only", {"deadwood": 1})


def test_the_default_knock_throws_the_card_that_leaves_least_highest_first() -> None:
    # Throwing KD leaves the 2C (2); any other throw leaves more.
    hand = stock_draw_then(THREE_MELDS_AND_2C, "KD")
    assert hand.default_knock() == Knock(C("KD"))
    assert hand.default_knock_card() == C("KD")
    before = base_hand()
    with pytest.raises(IllegalActionError) as info:
        before.default_knock()
    assert info.value.code == "upcard_first"
    play(before, "pass", "pass")
    with pytest.raises(IllegalActionError) as info:
        before.default_knock()
    assert info.value.code == "draw_first"
    with pytest.raises(IllegalActionError) as info:
        hand.default_knock(player=0)
    assert info.value.code == "not_your_turn"


def test_big_gin_refusals_have_codes() -> None:
    hand = stock_draw_then(BIG_GIN_AFTER_4S, "4S", defender=DEFENDER_WITH_8S)
    assert refusal_of(hand, "big_gin") == ("big_gin_off", {})
    hand = stock_draw_then(GIN_AFTER_5C, "5C", settings=Settings(big_gin=True))
    assert refusal_of(hand, "big_gin") == ("big_gin_unmelded", {})


def test_refused_melds_have_codes() -> None:
    hand = deal(hands={1: KNOCKER_TWO_WAYS, 0: DEFENDER_WITH_4S}, upcard="9S")
    play(hand, "take")
    assert refusal_of(hand, "knock KC [9C 9H 9S]") == ("melds_not_best", {})
    assert refusal_of(hand, "knock KC [9C 9H 9S] [AS AS 2S]") == ("melds_bad_cards", {})


def test_a_bad_deck_or_dealer_is_refused_with_a_code() -> None:
    order = list(deck_order(dealer=0, hands={1: THREE_MELDS_AND_2C, 0: NO_MELDS_80}, upcard="KH"))
    with pytest.raises(DealError) as info:
        Hand.deal(order[:-1], dealer=0)
    assert info.value.code == "bad_deck"
    with pytest.raises(DealError) as info:
        Hand.deal(order, dealer=2)
    assert (info.value.code, dict(info.value.params)) == ("bad_dealer", {"dealer": 2})
