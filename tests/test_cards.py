"""Cards: the pack, the points and the text notation of RULES.md, both ways."""

from __future__ import annotations

import pytest

from ginrummy.cards import (
    FULL_DECK,
    Card,
    CardParseError,
    CardSet,
    format_cards,
    parse_card,
    parse_cards,
)


def test_one_pack_of_52_distinct_cards() -> None:
    assert len(FULL_DECK) == 52 == len(set(FULL_DECK))
    assert {str(c) for c in FULL_DECK} == {r + s for r in "A23456789TJQK" for s in "CDHS"}


@pytest.mark.parametrize(
    ("card", "points"),
    [("AS", 1), ("2C", 2), ("9H", 9), ("TD", 10), ("JC", 10), ("QH", 10), ("KS", 10)],
)
def test_card_points_ace_one_court_cards_ten(card: str, points: int) -> None:
    assert Card.parse(card).points == points


def test_every_card_writes_and_reads_back() -> None:
    for card in FULL_DECK:
        assert parse_card(str(card)) == card
        assert parse_card(card.symbol) == card
        assert eval(repr(card)) == card  # repr is pasteable code


@pytest.mark.parametrize(
    "token",
    ["TD", "10D", "10d", "td", "T♦", "10♦", "t♦", " TD ", "10♦\ufe0f"],
)
def test_ten_is_written_t_or_10_any_case_or_symbol(token: str) -> None:
    assert parse_card(token) == Card.parse("TD")
    assert str(parse_card(token)) == "TD"


@pytest.mark.parametrize(
    ("token", "card"),
    [("as", "AS"), ("Ah", "AH"), ("7♣", "7C"), ("q♥", "QH"), ("K♠", "KS"), ("j♦", "JD")],
)
def test_lower_case_and_suit_symbols(token: str, card: str) -> None:
    assert str(parse_card(token)) == card


def test_symbol_writes_the_suit_symbol_and_10() -> None:
    assert Card.parse("TH").symbol == "10♥"
    assert Card.parse("AC").symbol == "A♣"
    assert Card.parse("KD").name == "king of diamonds"


@pytest.mark.parametrize("token", ["1S", "11H", "ZS", "AX", "A", "", "ASS", "10", "♠A", "0C"])
def test_bad_token_error_names_it(token: str) -> None:
    with pytest.raises(CardParseError) as info:
        parse_card(token)
    assert repr(token) in str(info.value)
    assert isinstance(info.value, ValueError)
    assert (info.value.code, dict(info.value.params)) == ("bad_card", {"token": token})


def test_parse_cards_reads_spaces_and_commas_in_order_and_names_the_bad_one() -> None:
    assert format_cards(parse_cards("AS, 10d 7♣,qh")) == "AS TD 7C QH"
    with pytest.raises(CardParseError, match="'XX'"):
        parse_cards("AS XX 2S")


def test_card_from_rank_and_suit_and_range_checks() -> None:
    assert Card.from_rank_suit(0, 3) == Card.parse("AS")
    assert Card.from_rank_suit(12, 0) == Card.parse("KC")
    for bad in (52, -1):
        with pytest.raises(ValueError):
            Card(bad)
    with pytest.raises(ValueError):
        Card.from_rank_suit(13, 0)


def test_card_set_is_an_immutable_set_of_cards() -> None:
    hand = CardSet.parse("AS 2S 3S")
    assert len(hand) == 3 and Card.parse("2S") in hand and Card.parse("4S") not in hand
    assert hand | CardSet.parse("4S") == CardSet.parse("AS 2S 3S 4S")
    assert hand - CardSet.parse("AS") == CardSet.parse("2S 3S")
    assert hand.points == 6
    assert CardSet.parse("2S") <= hand and not hand <= CardSet.parse("2S")
    assert eval(repr(hand)) == hand
    with pytest.raises(AttributeError):
        hand.mask = 0
    with pytest.raises(ValueError, match="AS appears twice"):
        CardSet(parse_cards("AS AS"))
    with pytest.raises(KeyError):
        hand.remove(Card.parse("KD"))
