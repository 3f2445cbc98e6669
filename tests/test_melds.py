"""Melds, deadwood and lay-offs: one scenario per rule of RULES.md."""

from __future__ import annotations

import pytest

from ginrummy.cards import CardParseError, CardSet, format_cards, parse_cards
from ginrummy.melds import (
    LayOff,
    all_best_arrangements,
    best_arrangement,
    best_layoff,
    deadwood,
    deadwood_after_discard,
    deadwood_after_discard_mask,
    deadwood_mask,
    is_meld,
    knock_options,
    lay_off_spots,
    melds_in,
    run_span,
)


def hand(text: str) -> CardSet:
    return CardSet.parse(text)


def laid_out(text: str, *, ace_high: bool = False) -> list[str]:
    """The best arrangement's melds, each in the rules' notation."""
    return [format_cards(m) for m in best_arrangement(parse_cards(text), ace_high=ace_high).melds]


# --- Runs and sets ----------------------------------------------------------


def test_a_2_3_is_a_run() -> None:
    assert is_meld(parse_cards("AS 2S 3S"))
    assert deadwood(hand("AS 2S 3S")) == 0


def test_q_k_a_is_not_a_run() -> None:
    assert not is_meld(parse_cards("QS KS AS"))
    assert deadwood(hand("QS KS AS")) == 21


def test_q_k_a_is_a_run_with_ace_high_but_k_a_2_never() -> None:
    assert is_meld(parse_cards("QS KS AS"), ace_high=True)
    assert deadwood(hand("QS KS AS"), ace_high=True) == 0
    assert not is_meld(parse_cards("KS AS 2S"), ace_high=True)
    assert deadwood(hand("KS AS 2S"), ace_high=True) == 13


def test_ace_high_ace_still_counts_one() -> None:
    assert deadwood(hand("AS KS 5D"), ace_high=True) == 16


def test_ace_high_ace_goes_to_one_run_only() -> None:
    # The ace can't sit in A-2-3 and Q-K-A at once: it goes where it does most.
    cards = "AS 2S 3S QS KS"
    assert deadwood(hand(cards), ace_high=True) == 5
    assert laid_out(cards, ace_high=True) == ["QS KS AS"]


def test_run_needs_one_suit() -> None:
    assert not is_meld(parse_cards("4S 5S 6H"))
    assert deadwood(hand("4S 5S 6H")) == 15


def test_set_of_three_and_of_four() -> None:
    assert is_meld(parse_cards("7C 7D 7H"))
    assert is_meld(parse_cards("7C 7D 7H 7S"))
    assert not is_meld(parse_cards("7C 7D"))


def test_melds_in_lists_every_meld() -> None:
    found = {format_cards(CardSet.from_mask(m)) for m in melds_in(hand("5H 6H 7H 7C 7D"))}
    assert found == {"5H 6H 7H", "7C 7D 7H"}


def test_a_card_belongs_to_one_meld_only() -> None:
    # 7H could finish the run or the set, not both.
    assert deadwood(hand("5H 6H 7H 7C 7D")) == 11
    assert laid_out("5H 6H 7H 7C 7D") == ["7C 7D 7H"]


def test_court_cards_count_ten() -> None:
    assert deadwood(hand("JC QD KH TS")) == 40


# --- The least deadwood -----------------------------------------------------


def test_least_deadwood_over_greedy_choice() -> None:
    # Taking the set of sevens leaves more deadwood than the two runs.
    cards = "5C 6C 7C 5D 6D 7D 7H"
    assert deadwood(hand(cards)) == 7
    assert laid_out(cards) == ["5C 6C 7C", "5D 6D 7D"]


def test_four_set_split_for_a_run() -> None:
    # Three sevens in a set and the fourth in 7S 8S 9S: gin.
    assert deadwood(hand("7C 7D 7H 7S 8S 9S")) == 0
    assert laid_out("7C 7D 7H 7S 8S 9S") == ["7C 7D 7H", "7S 8S 9S"]


def test_dense_hand_gin_by_throwing_3h() -> None:
    # OpenSpiel's shortcut gets this wrong; every discard is tried here.
    eleven = hand("AS AD AH 2S 2D 2C 2H 3H 4S 4D 4C")
    options = knock_options(eleven)
    assert [str(c) for c, left in options.items() if left == 0] == ["3H"]
    assert deadwood_after_discard(eleven) == 0
    assert deadwood_after_discard_mask(eleven.mask) == 0


def test_knock_options_name_each_discard() -> None:
    options = knock_options(hand("AS 2S 3S 4S 5C 5D 5H KC KD 9H QH"))
    assert len(options) == 11
    assert options[parse_cards("KC")[0]] == 29
    assert min(options.values()) == 29  # throw a court card, keep 9H and two more


def test_best_discard_from_a_four_set() -> None:
    # Two four-sets and a three-card run: throw a card of a four-set, gin.
    assert deadwood_after_discard(hand("7C 7D 7H 7S KC KD KH KS 2H 3H 4H")) == 0


def test_deadwood_mask_matches_deadwood() -> None:
    cards = hand("AS 2S 3S 4S 5C 5D 5H KC KD 9H")
    assert deadwood_mask(cards.mask) == deadwood(cards) == 29


def test_hand_size_is_checked() -> None:
    with pytest.raises(ValueError, match="at most 11"):
        deadwood(hand("AC 2C 3C 4C 5C 6C 7C 8C 9C TC JC QC"))
    with pytest.raises(ValueError, match="11-card"):
        deadwood_after_discard(hand("AC 2C 3C"))
    with pytest.raises(ValueError, match="11-card"):
        knock_options(hand("AC 2C 3C"))


def test_duplicate_card_is_an_error() -> None:
    with pytest.raises(ValueError, match="twice"):
        deadwood(parse_cards("AS AS 2S"))


def test_bad_card_token_names_it() -> None:
    with pytest.raises(CardParseError, match="'1S'"):
        best_arrangement(parse_cards("AS 1S"))


# --- Laying out: the tie-break ----------------------------------------------


def test_tie_break_is_fixed() -> None:
    # A six-card run is one run or two; the documented rule picks the one
    # long run (fewest melds), always, whatever order the cards come in.
    cards = "AS 2S 3S 4S 5S 6S"
    choices = all_best_arrangements(parse_cards(cards))
    layouts = [[format_cards(m) for m in a.melds] for a in choices]
    assert layouts == [["AS 2S 3S 4S 5S 6S"], ["AS 2S 3S", "4S 5S 6S"]]
    assert laid_out(cards) == ["AS 2S 3S 4S 5S 6S"]
    assert laid_out("6S 5S 4S 3S 2S AS") == laid_out(cards)


def test_tie_break_keeps_the_deadwood_lowest_in_card_order() -> None:
    # KC finishes the run JC QC KC or the set KC KD KH: 20 dead either way, two
    # cards either way; JC QC come before KD KH in card order, so they stay out.
    choices = all_best_arrangements(parse_cards("KH KD KC QC JC"))
    assert [str(a) for a in choices] == [
        "[KC KD KH] deadwood JC QC (20)",
        "[JC QC KC] deadwood KD KH (20)",
    ]
    assert best_arrangement(parse_cards("JC QC KC KD KH")) == choices[0]


def test_all_best_arrangements_offer_the_knocker_a_choice() -> None:
    # 7S in the four-set or at the bottom of 7S 8S 9S TS: gin either way, and
    # the choice matters to the defender (8S or 7D could be laid off).
    choices = all_best_arrangements(parse_cards("7C 7D 7H 7S 8S 9S TS"))
    assert [[format_cards(m) for m in a.melds] for a in choices] == [
        ["7C 7D 7H", "7S 8S 9S TS"],
        ["7C 7D 7H 7S", "8S 9S TS"],
    ]


def test_arrangement_lists_melds_by_lowest_card() -> None:
    a = best_arrangement(parse_cards("KD QD JD 2C 3C 4C 9H"))
    assert [format_cards(m) for m in a.melds] == ["2C 3C 4C", "JD QD KD"]
    assert format_cards(a.deadwood) == "9H"
    assert str(a) == "[2C 3C 4C | JD QD KD] deadwood 9H (9)"


def test_empty_hand() -> None:
    assert deadwood(CardSet()) == 0
    assert best_arrangement([]).melds == ()


# --- Laying off -------------------------------------------------------------


def test_six_then_seven_both_lay_off_onto_three_four_five() -> None:
    r = best_layoff([parse_cards("3S 4S 5S")], parse_cards("6S 7S KD"))
    assert [(str(lay.card), lay.meld_index) for lay in r.lay_offs] == [("6S", 0), ("7S", 0)]
    assert r.deadwood_points == 10


def test_run_takes_cards_at_both_ends() -> None:
    r = best_layoff([parse_cards("4H 5H 6H")], parse_cards("2H 3H 7H 8H"))
    assert {str(lay.card) for lay in r.lay_offs} == {"2H", "3H", "7H", "8H"}
    assert r.deadwood_points == 0


def test_three_set_takes_its_fourth_card() -> None:
    r = best_layoff([parse_cards("9C 9D 9H")], parse_cards("9S KD"))
    assert r.lay_offs == (LayOff(parse_cards("9S")[0], 0),)
    assert r.deadwood_points == 10


def test_four_set_takes_no_lay_off() -> None:
    r = best_layoff([parse_cards("9C 9D 9H 9S")], parse_cards("8S TS KD"))
    assert r.lay_offs == ()
    assert r.deadwood_points == 28


def test_card_does_more_good_laid_off_than_in_own_meld() -> None:
    # 6S 7S 8S is a meld of the defender's own, leaving 9S 9D dead (18). Laying
    # 6S 7S 8S 9S all off on the knocker's 3S 4S 5S leaves only 9D: 9.
    r = best_layoff([parse_cards("3S 4S 5S")], parse_cards("6S 7S 8S 9S 9D"))
    assert r.deadwood_points == 9
    assert r.melds == ()
    assert [str(lay.card) for lay in r.lay_offs] == ["6S", "7S", "8S", "9S"]


def test_own_meld_kept_when_it_does_more_good() -> None:
    r = best_layoff([parse_cards("3S 4S 5S")], parse_cards("7D 7C 7H 6S KD"))
    assert [format_cards(m) for m in r.melds] == ["7C 7D 7H"]
    assert [str(lay.card) for lay in r.lay_offs] == ["6S"]
    assert r.deadwood_points == 10


def test_ace_does_not_lay_off_on_a_king_unless_ace_high() -> None:
    knocker = [parse_cards("JH QH KH")]
    assert best_layoff(knocker, parse_cards("AH")).deadwood_points == 1
    assert best_layoff(knocker, parse_cards("AH"), ace_high=True).deadwood_points == 0


def test_lay_off_never_raises_the_count() -> None:
    defender = parse_cards("6S 7S 8S 9S 9D 2C")
    r = best_layoff([parse_cards("3S 4S 5S")], defender)
    assert r.deadwood_points <= deadwood(defender)


def test_knocker_melds_must_be_melds() -> None:
    with pytest.raises(ValueError, match="not a meld"):
        best_layoff([parse_cards("3S 4S 6S")], parse_cards("5S"))


# --- the one lay-off model and the ace-high span -------------------------------------


def test_run_span_reads_an_ace_above_the_king_as_13() -> None:
    assert run_span(CardSet.parse("QH KH AH").mask) == (2, 11, 13)
    assert run_span(CardSet.parse("AH 2H 3H 4H").mask) == (2, 0, 3)
    assert run_span(CardSet.parse("9C TC JC QC KC AC").mask) == (0, 8, 13)
    assert run_span(CardSet.parse("4C 4D 4S").mask) is None


def test_lay_off_spots_chain_outward_from_runs_and_name_a_sets_fourth() -> None:
    run, three, four = (CardSet.parse(t).mask for t in ("5D 6D 7D", "KC KH KS", "2C 2D 2H 2S"))
    spots = lay_off_spots([run, three, four])
    assert [(s.meld_index, s.is_run) for s in spots] == [(0, True), (1, False), (2, False)]
    assert [format_cards(c) for c in spots[0].chains] == ["4D 3D 2D AD", "8D 9D TD JD QD KD"]
    assert [format_cards(c) for c in spots[1].chains] == ["KD"]
    assert spots[2].chains == ()
    # Under the ace-high rule a run reaching the king may take the ace on top.
    high = lay_off_spots([CardSet.parse("JD QD KD").mask], ace_high=True)[0]
    assert format_cards(high.chains[1]) == "AD"
    assert lay_off_spots([CardSet.parse("JD QD KD").mask])[0].chains[1] == ()
