"""The computer opponents: legal play in every setting, nothing hidden, Hard's habits."""

from __future__ import annotations

import importlib.util
import multiprocessing
import os
import random
import sys
import types
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from ginrummy.arena import run_arena
from ginrummy.bots import BOT_NAMES, UnknownBotError, card_weights, make_bot
from ginrummy.bots._common import bits, deadwood_of, read_record
from ginrummy.bots._lookahead import after_draws, two_draw_future, weighted_future_deadwood
from ginrummy.bots._reading import dealt_danger, melds_with_two, read_table, sample_opponent
from ginrummy.bots._rollout import OUTS_SLACK, outs, outs_throw
from ginrummy.bots.hard import (
    MELDED_TAKES_MISS,
    PASSED_MISS,
    THREW_MISS,
    HardBot,
    HardConfig,
    KnockOdds,
    camp_chance,
    hard_variant,
    knocking_style,
)
from ginrummy.cards import FULL_DECK, Card, CardSet, parse_cards
from ginrummy.hand import (
    Action,
    Discard,
    Discarded,
    DrawPile,
    DrawStock,
    Hand,
    Knock,
    PassUpcard,
    PlayerView,
    StockDrawn,
    TakeUpcard,
    shuffled_deck,
)
from ginrummy.match import Match
from ginrummy.melds import best_arrangement, deadwood_after_discard_mask, is_meld, mask_of
from ginrummy.settings import KnockMode, Settings


def deck_for(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> tuple[Card, ...]:
    """A deck order that deals these hands, turns this upcard and starts the stock so."""
    nd, de = parse_cards(non_dealer), parse_cards(dealer)
    assert len(nd) == 10 and len(de) == 10
    head = [c for pair in zip(nd, de, strict=True) for c in pair]
    head += parse_cards(upcard) + parse_cards(stock)
    rest = [c for c in FULL_DECK if c not in set(head)]
    deck = tuple(head + rest)
    assert len(set(deck)) == 52
    return deck


def first_stock_draw(deck: tuple[Card, ...]) -> Hand:
    """The hand dealt from ``deck`` (the other player dealing) after both players passed
    the upcard and the first player drew from the stock: eleven cards to throw from."""
    hand = Hand.deal(deck, dealer=1)
    hand.apply(PassUpcard())
    hand.apply(PassUpcard())
    hand.apply(DrawStock())
    return hand


def play_out(hand: Hand, names: tuple[str, str], seed: int) -> None:
    """Play a hand to its end, checking each bot's view and action on the way."""
    bots = [make_bot(names[0], seed=seed), make_bot(names[1], seed=seed + 1)]
    while not hand.is_over:
        player = hand.to_act
        assert player is not None
        view = hand.view(player)
        assert_nothing_hidden(hand, view)
        action = bots[player].choose(view)
        assert action in hand.legal_actions() or _is_chosen_knock(hand, action), (
            names[player],
            str(action),
        )
        hand.apply(action)


def _is_chosen_knock(hand: Hand, action: Action) -> bool:
    return isinstance(action, Knock) and action.melds is not None and hand.can(action)


def assert_nothing_hidden(hand: Hand, view: PlayerView) -> None:
    """No card of the other hand that the player has not seen appears in the view."""
    other = 1 - view.player
    shown = CardSet(view.opponent_pile_cards)
    hidden = CardSet(hand.cards_of(other)) - shown
    stock = CardSet(hand.deck[52 - hand.stock_count :])
    secret = hidden | stock
    assert view.opponent_hand is None
    assert not CardSet(view.hand) & secret
    assert not CardSet(view.pile) & secret
    for event in view.events:
        if isinstance(event, StockDrawn) and event.player == other:
            assert event.card is None
        for value in getattr(event, "__slots__", ()):
            item = getattr(event, value)
            if isinstance(item, Card):
                assert item not in secret


SETTINGS = [
    Settings(),
    Settings(knocking=KnockMode.OKLAHOMA),
    Settings(knocking=KnockMode.GIN_ONLY),
    Settings(ace_high=True, big_gin=True, undercut_bonus=10, gin_bonus=30),
]


def test_make_bot_knows_every_name_and_rejects_others() -> None:
    for name in BOT_NAMES:
        assert make_bot(name, seed=1).name == name
    assert make_bot("HARD", seed=1).name == "hard"
    with pytest.raises(UnknownBotError, match="the bots are easy, medium, hard"):
        make_bot("grandmaster", seed=1)


@pytest.mark.parametrize("name", BOT_NAMES)
@pytest.mark.parametrize("settings", SETTINGS, ids=["standard", "oklahoma", "gin_only", "house"])
def test_every_bot_plays_legal_hands_in_every_setting(name: str, settings: Settings) -> None:
    for seed in range(6):
        hand = Hand.from_seed(seed, dealer=seed % 2, settings=settings)
        play_out(hand, (name, "medium" if seed % 2 else "hard"), seed)
        assert hand.result is not None


def _play_deals(mode: KnockMode, deals: list[tuple[int, int]]) -> None:
    """Play hand i from seed s for each (i, s): ``BOT_NAMES[i % len(BOT_NAMES)]`` against the
    next one."""
    count = len(BOT_NAMES)
    for i, seed in deals:
        first = BOT_NAMES[i % count]
        second = BOT_NAMES[(i + 1) % count]
        settings = Settings(knocking=mode, ace_high=i % 5 == 0, big_gin=i % 7 == 0)
        hand = Hand.from_seed(seed, dealer=i % 2, settings=settings)
        play_out(hand, (first, second) if i % 2 else (second, first), i)


def play_random_hands(mode: KnockMode, hands_per_bot: int, processes: int = 1) -> None:
    """Each bot plays ``hands_per_bot`` random-seed hands in this knock mode, all checked.

    The hands are seated as :func:`_play_deals` seats them, so every bot plays two hands in
    every ``len(BOT_NAMES)``. The same hands are played whatever ``processes`` is; with more
    than one they are shared out among that many forked processes, and the first failure
    is raised here.
    """
    rng = random.Random(f"bots/{mode}")
    deals = [(i, rng.randrange(1 << 30)) for i in range(hands_per_bot * len(BOT_NAMES) // 2)]
    if processes <= 1:
        _play_deals(mode, deals)
        return
    fork = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(processes, mp_context=fork) as pool:
        shares = [pool.submit(_play_deals, mode, deals[k::processes]) for k in range(processes)]
        for share in shares:
            share.result()


@pytest.mark.parametrize("mode", list(KnockMode))
def test_every_bot_plays_random_hands_without_an_illegal_action(mode: KnockMode) -> None:
    play_random_hands(mode, 20)


@pytest.mark.parametrize("mode", list(KnockMode))
def test_hard_plays_whole_short_matches_legally(mode: KnockMode) -> None:
    # Matches to 30: most knock decisions come near the target, where Hard
    # weighs the score; the views come from the match, scores and all.
    rng = random.Random(f"matches/{mode}")
    for i in range(6):
        match = Match.new(Settings(knocking=mode, match_to=30), rng=rng)
        other = ("simple", "camper", "medium")[i % 3]
        bots = [make_bot("hard", seed=i), make_bot(other, seed=i)]
        while True:
            hand = match.hand
            while not hand.is_over:
                player = hand.to_act
                assert player is not None
                view = match.view(player)
                assert view.scores == match.scores
                assert_nothing_hidden(hand, view)
                action = bots[player].choose(view)
                assert action in hand.legal_actions() or _is_chosen_knock(hand, action), (
                    "hard" if player == 0 else other,
                    str(action),
                )
                match.apply(action)
            if match.is_over:
                break
            match.next_hand(shuffled_deck(rng))
        assert max(match.scores) >= 30


@pytest.mark.slow
@pytest.mark.parametrize("mode", list(KnockMode))
def test_every_bot_plays_700_random_hands_without_an_illegal_action(mode: KnockMode) -> None:
    # 700 hands a bot in each mode, 2,100 a bot in all, on every core: Hard's look-ahead and
    # play-outs make them the test command's longest suite.
    play_random_hands(mode, 700, processes=len(os.sched_getaffinity(0)))


@pytest.mark.parametrize("name", BOT_NAMES)
def test_same_view_and_seed_give_the_same_action(name: str) -> None:
    kept = make_bot(name, seed=99)
    for seed in range(6):
        hand = Hand.from_seed(seed, dealer=0)
        other = make_bot("medium", seed=0)
        while not hand.is_over:
            player = hand.to_act
            assert player is not None
            view = hand.view(player)
            if player == 1:
                action = kept.choose(view)
                assert make_bot(name, seed=99).choose(view) == action
                assert kept.choose(view) == action
            else:
                action = other.choose(view)
            hand.apply(action)


# --- Hard's habits -----------------------------------------------------------


def test_hard_throws_an_unconnected_king_before_a_connected_four() -> None:
    deck = deck_for(
        "AS 2S 3S 7H 7D 7C 9S TS 4D 4C",
        "5H 6D 8C JH QC 3D 2H 9D TC 6S",
        "QD",
        "KC",
    )
    hand = first_stock_draw(deck)
    assert make_bot("hard", seed=1).choose(hand.view(0)) == Discard(Card.parse("KC"))


def _showed_queen_hand() -> Hand:
    # The dealer takes the Q♥ upcard: they show they collect queens (or hearts near it).
    deck = deck_for(
        "AS 2S 3S 4H 4D 4C 6C 7C 9D QS",
        "QD 5S 9H 3H 2C 8D 5D TH JC AH",
        "QH",
        "KC",
    )
    hand = Hand.deal(deck, dealer=1)
    hand.apply(PassUpcard())
    hand.apply(TakeUpcard())
    hand.apply(Discard(Card.parse("2C")))
    hand.apply(DrawStock())
    return hand


def test_a_pickup_raises_its_rank_then_its_neighbours_then_the_cards_beyond() -> None:
    """The reading's three factors go to the three relations its docs name, in that order."""
    hand = Hand.from_seed(2, dealer=0)
    taken = parse_cards("JS")[0]
    assert hand.view(1).pile[-1] == taken
    hand.apply(TakeUpcard())
    weights = card_weights(hand.view(0))
    by_card = {str(Card(c)): w for c, w in weights.items() if w != 1.0}
    same_rank = {c: by_card.pop(c) for c in ("JC", "JD", "JH") if c in by_card}
    assert same_rank and set(same_rank.values()) == {2.2}
    assert {c: by_card[c] for c in ("TS", "QS")} == {"TS": 2.0, "QS": 2.0}
    assert {c: by_card[c] for c in ("9S", "KS")} == {"9S": 1.4, "KS": 1.4}
    assert set(by_card) == {"TS", "QS", "9S", "KS"}


def test_the_draw_forced_after_both_passed_the_upcard_declines_nothing() -> None:
    """The non-dealer passes the upcard once by choice; its stock draw after the dealer
    passed too is the rules', so the upcard's rank counts as passed once, not twice."""
    hand = Hand.from_seed(2, dealer=1)
    upcard = hand.view(0).pile[-1]
    hand.apply(PassUpcard())  # the non-dealer, seat 0
    hand.apply(PassUpcard())  # the dealer
    hand.apply(DrawStock())  # seat 0 again: forced
    view = hand.view(1)
    assert read_record(view).opp_passed == [int(upcard)]
    same_rank = [c for c in range(52) if c % 13 == int(upcard) % 13 and c != int(upcard)]
    weights = card_weights(view)
    assert {weights[c] for c in same_rank if c in weights} == {0.55}
    # Nor is it the pile card the other player let go by on the turn of its throw.
    throw = next(a for a in hand.view(0).legal_actions if isinstance(a, Discard))
    hand.apply(throw)
    assert read_record(hand.view(1)).opp_last_passed is None


def test_hard_does_not_throw_the_card_the_other_hand_showed_it_collects() -> None:
    hand = _showed_queen_hand()
    view = hand.view(0)
    # The Q♠ and the K♣ leave the same deadwood; only one feeds the other player.
    kept = {c: hand.knock_options()[c] for c in (Card.parse("QS"), Card.parse("KC"))}
    assert kept[Card.parse("QS")] == kept[Card.parse("KC")]
    assert make_bot("hard", seed=3).choose(view) == Discard(Card.parse("KC"))


def _pair_hand(pile_nines: bool) -> Hand:
    """The non-dealer holds 9♣ 9♦ and a lone 8♠; the other two nines are dead or unseen."""
    upcard, thrown = ("9H", "9S") if pile_nines else ("QC", "KH")
    deck = deck_for(
        "AS 2S 3S 4H 4D 4C 9C 9D 8S JD",
        f"{thrown} 6D JC JH 3D 2H TD TC 6S KD",
        upcard,
        "5H 7D 4S",
    )
    hand = first_stock_draw(deck)  # the 5♥
    hand.apply(Discard(Card.parse("JD")))
    hand.apply(DrawStock())  # the 7♦
    hand.apply(Discard(Card.parse(thrown)))
    hand.apply(DrawStock())  # the 4♠: the nines are now the worst deadwood
    return hand


def test_hard_keeps_a_pair_while_its_other_cards_are_unseen() -> None:
    hand = _pair_hand(pile_nines=False)
    action = make_bot("hard", seed=5).choose(hand.view(0))
    assert action == Discard(Card.parse("8S"))


def test_hard_drops_a_pair_once_both_other_cards_are_in_the_pile() -> None:
    hand = _pair_hand(pile_nines=True)
    view = hand.view(0)
    assert {Card.parse("9H"), Card.parse("9S")} <= set(view.pile)
    action = make_bot("hard", seed=5).choose(view)
    assert action in (Discard(Card.parse("9C")), Discard(Card.parse("9D")))


def test_hard_knocks_with_the_arrangement_that_leaves_fewest_lay_offs() -> None:
    # 4♠-7♠ and three sevens can be laid down as [4♠ 5♠ 6♠ 7♠] [7♣ 7♦ 7♥]
    # (open at 3♠ and 8♠) or as [4♠ 5♠ 6♠] [7♣ 7♦ 7♥ 7♠] (open at 3♠ only).
    deck = deck_for(
        "4S 5S 6S 7S 7C 7D KH AC AD 2H",
        "5H 6D JC JH 3D 9H TD TC QS KD",
        "7H",
    )
    hand = Hand.deal(deck, dealer=1)
    hand.apply(TakeUpcard())
    action = make_bot("hard", seed=2).choose(hand.view(0))
    assert isinstance(action, Knock)
    assert action.card == Card.parse("KH")
    assert action.melds is not None
    masks = sorted(mask_of(m) for m in action.melds)
    proof = sorted([mask_of(parse_cards("4S 5S 6S")), mask_of(parse_cards("7C 7D 7H 7S"))])
    assert masks == proof


def _late_knock_view(low: str, scores: tuple[int, int]) -> PlayerView:
    """Hard's eighth turn: three melds, the K♣ to throw and ``low`` left as deadwood.

    Both players have drawn from the stock and thrown what they drew, so the
    other hand is hidden and, this late, likely to be tidy; its last throw, the Q♦,
    is one a player who knocks at once could make (``knocker_throw``). The scores are
    the running match totals, as ``Match.view`` fills them in.
    """
    other = "4D" if low == "2D" else "2D"  # drawn and thrown by the other player
    stock = f"KH 9H 8C 2H 6D JC QS {other} 8H 6C 5D 4C 3D QD JS"
    deck = deck_for(
        f"AS 2S 3S 7H 7D 7C 9S TS KC {low}",
        "4H 5C 8D JH QC 3C 6H KD 5S TD",
        "QH",
        stock,
    )
    hand = Hand.deal(deck, dealer=1)
    hand.apply(PassUpcard())
    hand.apply(PassUpcard())
    for card in stock.split()[:-1]:
        hand.apply(DrawStock())
        hand.apply(Discard(Card.parse(card)))
    hand.apply(DrawStock())  # the J♠ completes 9♠ T♠ J♠
    view = hand.view(0)
    assert Knock(Card.parse("KC")) in view.legal_actions
    return replace(view, scores=scores)


def test_hard_knocks_late_when_the_knock_wins_the_match() -> None:
    # At 0-0 Hard plays on for gin this late in the hand; needing 5 points
    # for the match, a knock with 5 deadwood most likely wins it: it knocks.
    hard = make_bot("hard", seed=1)
    assert hard.choose(_late_knock_view("5H", (0, 0))) == Discard(Card.parse("KC"))
    action = hard.choose(_late_knock_view("5H", (95, 0)))
    assert isinstance(action, Knock) and action.card == Card.parse("KC")
    # Without the score habit it plays on whatever the score.
    blind = hard_variant("-score", seed=1)
    assert blind.choose(_late_knock_view("5H", (95, 0))) == Discard(Card.parse("KC"))


def test_hard_judges_two_knock_cards_of_equal_worth_on_the_same_dealt_hands(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Three melds and two fives: knocking with either five leaves the same melds
    # and 5 deadwood, so the two knocks are worth the same, and Hard's knock
    # search must find them so (the same dealt hands for both), not tell them
    # apart by the luck of two sets of deals.
    deck = deck_for(
        "AS 2S 3S 7H 7D 7C 9S TS JS 5H",
        "4H 6C 8D JH QC 3C 6H KD 5S TD",
        "QH",
        "5C",
    )
    view = first_stock_draw(deck).view(0)
    assert {Knock(Card.parse("5H")), Knock(Card.parse("5C"))} <= set(view.legal_actions)
    judged: list[KnockOdds] = []
    original = HardBot._knock_odds

    def recording(self: HardBot, *args: Any, **kwargs: Any) -> KnockOdds:
        odds = original(self, *args, **kwargs)
        judged.append(odds)
        return odds

    monkeypatch.setattr(HardBot, "_knock_odds", recording)
    action = make_bot("hard", seed=3).choose(view)
    assert len(judged) == 2
    assert judged[0] == judged[1]
    # In its first turn, with 5 deadwood and the undercut unlikely, it knocks.
    assert isinstance(action, Knock) and action.card in parse_cards("5H 5C")


def test_hard_will_not_risk_an_undercut_that_gives_the_other_player_the_match() -> None:
    hard = hard_variant("", seed=1)
    # What the knock search might find for a late knock with 5 deadwood needing
    # 5 points for the match: the match won in 3 dealt hands of 4, an undercut in 1 of 8.
    odds = KnockOdds(ev=4.0, undercut=0.125, wins_match=0.75)
    assert hard._should_knock(8, 5, odds, 3)
    # The same undercuts when each would end the match for the other player
    # (they have 90): the risk counts twice, too much this late.
    assert not hard._should_knock(8, 5, replace(odds, loses_match=0.125), 3)
    # With only 2 deadwood the undercut is rare enough: it knocks for the match.
    action = make_bot("hard", seed=1).choose(_late_knock_view("2D", (95, 90)))
    assert isinstance(action, Knock) and action.card == Card.parse("KC")


def test_hard_prefers_the_upcard_that_makes_a_meld() -> None:
    deck = deck_for(
        "8H 9H AS 2D 5C JS QD KC 3H 6S",
        "5H 6D JC JH 3D 9S TD TC QS KD",
        "TH",
    )
    hand = Hand.deal(deck, dealer=1)
    assert make_bot("hard", seed=2).choose(hand.view(0)) == TakeUpcard()


def test_hard_with_take_to_knock_takes_a_lone_card_that_lets_it_knock_at_once() -> None:
    # 17 points (K♥ 4♠ 3♥) beside a run and three twos: the A♣ shares no meld with the
    # hand, but taken for the K♥ it leaves 8, a knock in Hard's first turn.
    deck = deck_for(
        "6C 7C 8C 9C 2D 2H 2S KH 3H 4S",
        "5D 5H 5S 9H TH JH QC QD AS 7D",
        "AC",
    )
    hand = Hand.deal(deck, dealer=1)
    taker = hard_variant("+take_to_knock", seed=1)
    assert taker.choose(hand.view(0)) == TakeUpcard()
    hand.apply(TakeUpcard())
    knock = taker.choose(hand.view(0))
    assert isinstance(knock, Knock) and knock.card == Card.parse("KH")
    # Without it a card that shares no meld is only a swap of deadwood: Hard passes.
    assert hard_variant("-take_to_knock", seed=1).choose(Hand.deal(deck, dealer=1).view(0)) == (
        PassUpcard()
    )


def test_easy_does_not_knock_with_eight_deadwood_early_in_the_hand() -> None:
    # After taking the 3♠ the non-dealer may knock with 8 deadwood on its first turn.
    deck = deck_for(
        "AS 2S 4H 4D 4C 9C TC JC 8D KH",
        "5H 6D JD JH 3D 9H TD 7C QS KD",
        "3S",
    )
    hand = Hand.deal(deck, dealer=1)
    hand.apply(TakeUpcard())
    knocks = [a for a in hand.legal_actions() if isinstance(a, Knock)]
    assert min(hand.knock_options()[a.card] for a in knocks) == 8
    action = make_bot("easy", seed=4).choose(hand.view(0))
    assert isinstance(action, Discard)
    assert make_bot("medium", seed=4).choose(hand.view(0)) == Knock(Card.parse("KH"))


# --- the faithful camper (MARJJ v5's rules) -----------------------------------


def test_camper_takes_the_upcard_only_when_it_melds_it() -> None:
    # 8♥ 9♥ in hand: the 10♥ makes a run and lowers the deadwood; the 10♠ melds nothing.
    hands = ("8H 9H AS 2D 5C JS QD KC 3H 6S", "5H 6D JC JH 3D 9S TD TC QS KD")
    camper = make_bot("camper", seed=1)
    hand = Hand.deal(deck_for(*hands, "TH"), dealer=1)
    assert camper.choose(hand.view(0)) == TakeUpcard()
    hand = Hand.deal(deck_for(*hands, "TS"), dealer=1)
    assert camper.choose(hand.view(0)) == PassUpcard()


def test_camper_knocks_in_its_first_turn() -> None:
    deck = deck_for(
        "AS 2S 4H 4D 4C 9C TC JC 8D KH",
        "5H 6D JD JH 3D 9H TD 7C QS KD",
        "3S",
    )
    hand = Hand.deal(deck, dealer=1)
    hand.apply(TakeUpcard())
    action = make_bot("camper", seed=4).choose(hand.view(0))
    assert isinstance(action, Knock) and action.card == Card.parse("KH")


def test_camper_plays_for_gin_after_its_first_turns_but_knocks_at_the_wall() -> None:
    view = _late_knock_view("5H", (0, 0))
    camper = make_bot("camper", seed=1)
    assert camper.choose(view) == Discard(Card.parse("KC"))
    # With two cards left in the stock a plain throw ends the hand dead: it knocks.
    action = camper.choose(replace(view, stock_count=2))
    assert isinstance(action, Knock) and action.card == Card.parse("KC")


def test_camper_throws_after_the_other_player_took_the_same_pile_card_twice() -> None:
    # The other player takes the upcard, throws it later, the camper takes it
    # and throws it back, and the other player takes it again: the camper's
    # memory of what was taken names that card twice.
    hand = Hand.deal(shuffled_deck(random.Random(11)), dealer=1)
    card = hand.view(0).first_upcard
    camper = make_bot("camper", seed=3)

    def throw_other_than(player: int, keep: Card) -> None:
        hand.apply(Discard(next(c for c in sorted(hand.cards_of(player)) if c != keep)))

    hand.apply(PassUpcard())
    hand.apply(TakeUpcard())
    throw_other_than(1, card)
    hand.apply(DrawStock())
    throw_other_than(0, card)
    hand.apply(DrawStock())
    hand.apply(Discard(card))
    hand.apply(DrawPile())
    throw_other_than(0, card)
    hand.apply(DrawStock())
    throw_other_than(1, card)
    hand.apply(DrawStock())
    hand.apply(Discard(card))
    hand.apply(DrawPile())
    throw_other_than(1, card)
    hand.apply(DrawStock())
    action = camper.choose(hand.view(0))
    assert action in hand.legal_actions() or isinstance(action, Knock)


def test_camper_lays_out_the_melds_that_offer_the_fewest_lay_offs() -> None:
    # As for Hard: [4♠ 5♠ 6♠] [7♣ 7♦ 7♥ 7♠] leaves one open run end, not two.
    deck = deck_for(
        "4S 5S 6S 7S 7C 7D KH AC AD 2H",
        "5H 6D JC JH 3D 9H TD TC QS KD",
        "7H",
    )
    hand = Hand.deal(deck, dealer=1)
    hand.apply(TakeUpcard())
    action = make_bot("camper", seed=2).choose(hand.view(0))
    assert isinstance(action, Knock) and action.melds is not None
    masks = sorted(mask_of(m) for m in action.melds)
    assert masks == sorted([mask_of(parse_cards("4S 5S 6S")), mask_of(parse_cards("7C 7D 7H 7S"))])


# --- OpenSpiel's simple bot (the port) ------------------------------------------

_OS_HAND = ("2C 3C 4C 5D 6D 7D 9H 9S KH JD", "5H 6H JC JH 3D 8H TD TC QS KD")


def test_openspiel_takes_a_pile_card_that_melds_or_lets_it_knock_at_once() -> None:
    bot = make_bot("openspiel", seed=1)
    # The 9♣ makes three nines: 10 points left after throwing the K♥, a knock.
    assert bot.choose(Hand.deal(deck_for(*_OS_HAND, "9C"), dealer=1).view(0)) == TakeUpcard()
    # The A♠ melds nothing and leaves 29 points: the stock.
    assert bot.choose(Hand.deal(deck_for(*_OS_HAND, "AS"), dealer=1).view(0)) == PassUpcard()
    # With J♦ gone the A♠ still melds nothing, but K♥ out it leaves 1 point: a knock.
    hands = ("2C 3C 4C 5D 6D 7D 9H 9S 9D KH", _OS_HAND[1])
    assert bot.choose(Hand.deal(deck_for(*hands, "AS"), dealer=1).view(0)) == TakeUpcard()
    assert (
        make_bot("simple", seed=1).choose(Hand.deal(deck_for(*hands, "AS"), dealer=1).view(0))
        == PassUpcard()
    )


def test_openspiel_throws_its_highest_ranked_deadwood_card() -> None:
    # Deadwood K♣ K♠ Q♥ 2♦: both kings score as the queen; OpenSpiel orders spades
    # before clubs, so the king of clubs goes.
    hand = first_stock_draw(deck_for("AH 2H 3H 5D 6D 7D KC KS QH 2D", _OS_HAND[1], "8S", "4S"))
    assert make_bot("openspiel", seed=1).choose(hand.view(0)) == Discard(Card.parse("KC"))


def test_openspiel_reckons_eleven_cards_its_own_way_and_lets_a_knock_pass() -> None:
    # [5♣ 6♣ 7♣] [5♥ 6♥ 7♥] leave A♦ 2♦ 5♦ 2♠ 7♠: 10 points after throwing the 7♠, a
    # legal knock. OpenSpiel's search finds [5♣ 5♦ 5♥] [7♣ 7♥ 7♠] first (as many points
    # melded), counts 11 without its highest card and throws the 6♥ instead.
    deck = deck_for("5C 6C 7C AD 2D 5D 5H 6H 7H 2S", "3H 4H JC JH 3D 8H TD TC QS KD", "8S", "7S")
    hand = first_stock_draw(deck)
    assert Knock(Card.parse("7S")) in hand.legal_actions()
    assert make_bot("openspiel", seed=1).choose(hand.view(0)) == Discard(Card.parse("6H"))


@given(st.sets(st.integers(0, 51)))
def test_a_masks_cards_are_listed_lowest_first(cards: set[int]) -> None:
    assert bits(mask_of(cards)) == sorted(cards)


@given(
    cards=st.lists(st.integers(0, 51), min_size=18, max_size=18, unique=True),
    ace_high=st.booleans(),
)
def test_the_look_ahead_shortcut_gives_the_searched_deadwood(
    cards: list[int], ace_high: bool
) -> None:
    # A drawn card that melds with nothing is answered without a search.
    hand = mask_of(cards[:10])
    fast = after_draws(hand, cards[10:], ace_high)
    searched = [deadwood_after_discard_mask(hand | 1 << u, ace_high) for u in cards[10:]]
    assert fast == searched


@given(
    cards=st.lists(st.integers(0, 51), min_size=16, max_size=16, unique=True),
    ace_high=st.booleans(),
)
def test_looking_two_draws_ahead_never_promises_more_than_the_hand_or_less_than_gin(
    cards: list[int], ace_high: bool
) -> None:
    # Every draw can be thrown back, so neither look-ahead is worse than the hand kept.
    hand = mask_of(cards[:10])
    live = [(c, 1.0) for c in cards[10:]]
    now = deadwood_of(hand, ace_high)
    assert 0 <= two_draw_future(hand, live, ace_high, best=3) <= now
    assert 0 <= weighted_future_deadwood(hand, live, ace_high, best=3) <= now


def test_hard_knocks_at_the_wall_rather_than_let_the_hand_die() -> None:
    view = _late_knock_view("5H", (0, 0))
    hard = make_bot("hard", seed=1)
    assert hard.choose(view) == Discard(Card.parse("KC"))
    # Two cards left: a plain throw would end the hand dead, for nothing.
    action = hard.choose(replace(view, stock_count=2))
    assert isinstance(action, Knock) and action.card == Card.parse("KC")
    assert hard_variant("-wall", seed=1).choose(replace(view, stock_count=2)) == Discard(
        Card.parse("KC")
    )


# --- reading how the other player knocks, from the match's earlier hands ----------


def _match_where_the_dealer_plays_on(knock_at: int | None) -> Match:
    """Player 1 deals itself a hand with 1 point of deadwood and 0 one with 3; both
    draw and throw blind until player 1 knocks at its ``knock_at``-th turn, or (None)
    player 0 knocks at its fifth, after player 1 has played on for four turns."""
    deck = deck_for(
        "6C 7C 8C 2D 2H 2S QD QH QS 3H",
        "2C 3C 4C 5D 5H 5S 9H TH JH AS",
        "KC",
        "KD JS TS 9S 8S 7S 6S 4S 3S KH",
    )
    match = Match.start(deck, first_dealer=1)
    match.apply(PassUpcard())
    match.apply(PassUpcard())
    turns = [0, 0]
    while True:
        player = match.hand.to_act
        assert player is not None
        match.apply(DrawStock())
        turns[player] += 1
        drawn = match.view(player).drawn
        assert drawn is not None
        if (player, turns[player]) in ((1, knock_at), (0, 5 if knock_at is None else 0)):
            match.apply(Knock(drawn))
            break
        match.apply(Discard(drawn))
    match.next_hand(shuffled_deck(random.Random(5)))
    return match


def test_the_next_hands_view_holds_the_earlier_hand_as_both_players_saw_it_end() -> None:
    match = _match_where_the_dealer_plays_on(None)
    first = match.hands[0].result
    for player in (0, 1):
        view = match.view(player)
        assert view.hand_number == 2
        assert [e.result for e in view.earlier] == [first]
        assert view.earlier[0].turns == (5, 4)
        assert view.earlier[0].knock_limit == 10
    assert Match.start(shuffled_deck(random.Random(1)), first_dealer=0).view(0).earlier == ()


def test_hard_reads_a_passed_up_knock_as_camping_and_a_late_knock_as_knocking() -> None:
    played_on = _match_where_the_dealer_plays_on(None)
    # Player 1's ten cards, shown when player 0 knocked, count 1, and the log
    # shows it threw each card it drew: it could have knocked at each of its
    # four turns and did not.
    assert knocking_style(played_on.view(0), 3) == (1, 0)
    # Within its first four turns, that proves nothing.
    assert knocking_style(played_on.view(0), 4) == (0, 0)
    # To player 1, player 0 held 3 points from the deal, played on at its fourth
    # turn and knocked at its fifth: both after the first three.
    assert knocking_style(played_on.view(1), 3) == (1, 1)
    assert knocking_style(played_on.view(1), 4) == (0, 1)
    assert knocking_style(played_on.view(1), 5) == (0, 0)
    knocked = _match_where_the_dealer_plays_on(4)
    assert knocking_style(knocked.view(0), 3) == (0, 1)
    assert knocking_style(knocked.view(0), 4) == (0, 0)


def test_hard_knocks_for_more_turns_against_a_player_who_camps() -> None:
    # Hard holds 1 point of deadwood at its fifth turn of the second hand. Against
    # a player it has no reading of, it plays on for gin after its third turn;
    # against one the first hand showed camping, it knocks while the other hand is young.
    view = _second_hand_at_turn()
    assert view.drawn is not None
    hard = make_bot("hard", seed=3)
    assert knocking_style(view, 3) == (1, 0)
    assert isinstance(hard.choose(view), Knock)
    assert hard.choose(replace(view, earlier=())) == Discard(view.drawn)


def test_knocker_turns_sets_how_long_hard_knocks_against_a_player_who_knocked_late() -> None:
    # The same fifth turn, after a first hand in which the other player knocked at its
    # fourth turn: knocking for five turns against such a player, Hard knocks where it
    # otherwise plays on; with no reading (a match's first hand) it plays on as before,
    # and against the camper it knocks for its camping turns whatever the setting.
    view = _second_hand_at_turn(knock_at=4)
    assert view.drawn is not None
    assert knocking_style(view, 3) == (0, 1)
    five = hard_variant("knocker_turns=5", seed=3)
    assert isinstance(five.choose(view), Knock)
    assert hard_variant("knocker_turns=4", seed=3).choose(view) == Discard(view.drawn)
    assert make_bot("hard", seed=3).choose(view) == Discard(view.drawn)
    assert five.choose(replace(view, earlier=())) == Discard(view.drawn)
    camped = _second_hand_at_turn()
    assert isinstance(hard_variant("knocker_turns=2", seed=3).choose(camped), Knock)


def test_knocker_choosiness_tidies_only_the_play_outs_hands_against_a_knocker() -> None:
    # After the other player's 8th turn the play-outs deal its hand tidied with
    # round(0.7 * 8) = 6 extra cards; with the setting, against a player read as knocking
    # late, round(0.35 * 8) = 3. The knock search's hands, and every hand against
    # anyone else, are tidied as before; off (0), nothing changes.
    config = hard_variant("knocker_choosiness=0.35", seed=1).config
    assert config.tidying(8, playouts=True, knocker=True) == 3
    assert config.tidying(8, playouts=True) == 6
    assert config.tidying(8, knocker=True) == 6
    assert HardConfig().tidying(8, playouts=True, knocker=True) == 6


def test_hard_knocks_for_two_turns_against_a_player_who_knocked_late() -> None:
    # Hard's third turn of the second hand, holding 1 point of deadwood. After a first
    # hand in which the other player knocked at its fourth turn, the app's Hard plays on
    # for an undercut or gin (``knocker_turns=2``); without the setting, in a match's
    # first hand, and against a player who passed up a knock, it knocks at once.
    view = _second_hand_at_turn(3, knock_at=4)
    assert view.drawn is not None
    hard = make_bot("hard", seed=3)
    assert hard.choose(view) == Discard(view.drawn)
    assert isinstance(hard_variant("knocker_turns=0", seed=3).choose(view), Knock)
    assert isinstance(hard.choose(replace(view, earlier=())), Knock)
    assert isinstance(hard.choose(_second_hand_at_turn(3)), Knock)


def test_knocker_playouts_widen_hards_early_play_outs_unless_it_reads_a_camper() -> None:
    # Hard's throw in a match's first hand (nobody read yet, ``simple``'s throws read a
    # knocker), where weighing 5 throws on twice ``rollout_samples`` dealt hands from its
    # first turn throws another card than Hard without the setting, which widens its
    # play-outs only from its 7th turn (``late_playouts``). Given earlier hands in which
    # the other player passed up a knock (a camper), the app's Hard plays as without the
    # setting though ``late_playouts=1`` still throws another card.
    first = _after_turns(94, 10, bot="simple").view(0)
    assert make_bot("hard", seed=94).choose(first) == Discard(parse_cards("8H")[0])
    assert hard_variant("late_playouts=1", seed=94).choose(first) == Discard(parse_cards("8H")[0])
    assert hard_variant("knocker_playouts=0", seed=94).choose(first) == Discard(
        parse_cards("6S")[0]
    )
    camper = replace(
        _after_turns(117, 10, bot="simple").view(0), earlier=_second_hand_at_turn(3).earlier
    )
    assert make_bot("hard", seed=117).choose(camper) == Discard(parse_cards("5H")[0])
    assert hard_variant("knocker_playouts=0", seed=117).choose(camper) == Discard(
        parse_cards("5H")[0]
    )
    assert hard_variant("late_playouts=1", seed=117).choose(camper) == Discard(parse_cards("7S")[0])


def test_knocker_belief_turns_the_wide_play_outs_off_when_first_hand_throws_read_camping() -> None:
    # First hands, nobody read by the earlier hands. The camper's low throws (its
    # ``camp_chance`` 0.98 at seed 4745) turn the wider play-outs off at the app's belief
    # of 0.5 (a belief of 1 keeps them on); ``simple``'s (0.40 at seed 94) leave them
    # on; at 0 they play only against a player the earlier hands show knocking late.
    camper = _after_turns(4745, 14).view(0)
    assert camp_chance(read_record(camper).opp_threw) > 0.9
    assert hard_variant("knocker_belief=1", seed=4745).choose(camper) == Discard(
        parse_cards("9S")[0]
    )
    hard = make_bot("hard", seed=4745)
    assert hard.choose(camper) == hard_variant("knocker_playouts=0", seed=4745).choose(camper)
    assert hard.choose(camper) == Discard(parse_cards("KH")[0])
    knocker = _after_turns(94, 10, bot="simple").view(0)
    assert camp_chance(read_record(knocker).opp_threw) < 0.5  # the app's Hard throws 8H here
    read_only = hard_variant("knocker_belief=0", seed=94)
    assert read_only.choose(knocker) == Discard(parse_cards("6S")[0])


def test_knocker_throws_weigh_more_throws_in_the_play_outs_against_a_knocker_only() -> None:
    # Hard's throw in a match's first hand against ``simple`` (read as knocking at once;
    # the app's Hard weighs 8 throws within 10 points there): 9H is valued more than 6
    # points (``late_margin``) above the best throw but within 10, so only with the wider
    # margin is it played out, and the play-outs choose it; more throws at the old margin
    # change nothing. Given earlier hands in which the other player passed up a knock (a
    # camper), the setting is idle.
    knocker = _after_turns(104, 9, bot="simple").view(0)
    before = hard_variant("knocker_throws=0", seed=104)
    wider = hard_variant("knocker_throws=8,knocker_margin=10", seed=104)
    assert before.choose(knocker) == Discard(parse_cards("KH")[0])
    assert wider.choose(knocker) == Discard(parse_cards("9H")[0])
    assert make_bot("hard", seed=104).choose(knocker) == Discard(parse_cards("9H")[0])
    more = hard_variant("knocker_throws=8,knocker_margin=6", seed=104)
    assert more.choose(knocker) == Discard(parse_cards("KH")[0])
    camper = replace(knocker, earlier=_second_hand_at_turn(3).earlier)
    assert wider.choose(camper) == before.choose(camper) == Discard(parse_cards("KH")[0])


def _second_hand_at_turn(turn: int = 5, knock_at: int | None = None) -> PlayerView:
    """Hard's view at its ``turn``-th turn of a match's second hand, holding 1 point of
    deadwood, after the first hand of :func:`_match_where_the_dealer_plays_on`
    (by default one in which the other player passed up a knock)."""
    match = _match_where_the_dealer_plays_on(knock_at)
    assert match.hand.dealer == 0
    second = deck_for(
        "KD KS 9D 7H 4D JC 3S 5C TD 8H",
        "6C 7C 8C 2D 2H 2S QD QH QS AH",
        "9C",
        "JD 4H 6H 5S 8D JS 3D TH 4C KC",
    )
    match.hands[-1] = Hand.deal(second, dealer=0)
    match.apply(PassUpcard())
    match.apply(PassUpcard())
    while True:
        player = match.hand.to_act
        assert player is not None
        match.apply(DrawStock())
        view = match.view(player)
        assert view.drawn is not None
        if player == 0 and len(view.hand) == 11 and _turns_of(view) == turn:
            return view
        match.apply(Discard(view.drawn))


def _turns_of(view: PlayerView) -> int:
    return sum(isinstance(e, StockDrawn) and e.player == view.player for e in view.events)


def _bench(name: str) -> types.ModuleType:
    path = Path(__file__).resolve().parent.parent / "bench" / f"{name}.py"
    # A bench script imports the scripts beside it, as it does when run.
    if str(path.parent) not in sys.path:
        sys.path.append(str(path.parent))
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Registered before it runs: its dataclasses look their module up by name.
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@given(st.integers(0, 10_000), st.integers(0, 29), st.integers(0, 8))
def test_the_oracle_diagnostic_deals_the_other_hand_exactly(
    seed: int, turns: int, extra: int
) -> None:
    """bench/bench_oracle.py measures what knowing the other hand is worth: with its
    reading every dealt guess (tidied or not) is the other player's real hand."""
    oracle = _bench("bench_oracle")
    match = _after_turns(seed, turns)
    rng = random.Random(seed)
    view = match.view(0)
    theirs = mask_of(match.view(1).hand)
    reading = oracle.knowing(read_table(view, read_record(view)), theirs)
    assert sample_opponent(reading, rng, extra) == theirs
    assert all(reading.p_live(c) == 0.0 for c in bits(theirs))


@given(st.integers(0, 10_000), st.integers(0, 29))
def test_the_knock_labels_play_on_from_the_same_table_with_only_the_stock_shuffled(
    seed: int, turns: int
) -> None:
    """bench/bench_knock_labels.py plays a hand on in copies whose stock is shuffled anew:
    each copy is the same table to both players, with the same cards left to draw."""
    labels = _bench("bench_knock_labels")
    match = _after_turns(seed, turns)
    fork = labels.reshuffled(match, random.Random(seed))
    for player in (0, 1):
        assert fork.view(player) == match.view(player)
    drawn = 52 - match.hand.stock_count
    assert fork.hand.deck[:drawn] == match.hand.deck[:drawn]
    assert sorted(fork.hand.deck[drawn:]) == sorted(match.hand.deck[drawn:])
    assert fork.hand is not match.hand


@given(st.integers(0, 10_000), st.integers(0, 40))
def test_the_posterior_bench_reproduces_simples_play_from_its_true_deal(
    seed: int, turns: int
) -> None:
    """bench/bench_posterior.py reads the other hand of a player who knocks at once by
    replaying ``simple``'s rules over guessed deals: from the true deal (its ten cards
    and its stock draws) the replay gives the hand ``simple`` really holds, and every
    hand it samples could be that hand."""
    posterior = _bench("bench_posterior")
    match = _after_turns(seed, turns, bot="simple")
    dealt = [int(c) for c in Hand.from_seed(seed, dealer=0).view(1).hand]
    if match.hand.is_over:
        return
    view = match.view(0)
    draws = _bench("bench_reading").stock_draws(match.hand.events, 1)
    acts, never = posterior.acts_of(view)
    theirs = mask_of(match.view(1).hand)
    assert not any(never >> c & 1 for c in dealt + draws)
    assert posterior.replay(dealt + draws, acts, view.knock_limit, False) == theirs
    for hand in posterior.sample_posterior(view, random.Random(seed), 3, 300):
        assert hand.bit_count() == view.opponent_card_count
        assert not hand & (mask_of(view.hand) | mask_of(view.pile))
        assert hand & mask_of(view.opponent_pile_cards) == mask_of(view.opponent_pile_cards)


def _after_turns(seed: int, turns: int, bot: str = "camper") -> Match:
    """A match where two ``bot`` players have played ``turns`` actions of the first hand."""
    match = Match.start(Hand.from_seed(seed, dealer=0).deck, first_dealer=0)
    bots = [make_bot(bot, seed=seed), make_bot(bot, seed=seed + 1)]
    for _ in range(turns):
        if match.hand.is_over:
            break
        view = match.view(match.hand.to_act or 0)
        match.apply(bots[view.player].choose(view))
    return match


@given(st.integers(0, 10_000), st.integers(4, 24))
def test_a_silent_player_is_not_dealt_a_hand_it_would_have_ended_the_hand_with(
    seed: int, turns: int
) -> None:
    match = _after_turns(seed, turns)
    view = match.view(0)
    record = read_record(view)
    reading = read_table(view, record)
    hard = hard_variant("+silence,-melded_takes,knocker_throw=0", seed)
    fits = hard._fits(view, record, reading, (0, 0))
    if record.opp_turns < 1:
        assert fits is None
        return
    assert fits is not None
    # ``unread_fit`` keeps half the guesses that could have knocked while nothing tells
    # a camper (1, 0) from a knocker (0, 1): the other player's earlier hands.
    halves = hard_variant("unread_fit=0.5,-melded_takes,knocker_throw=0", seed)
    styles = ((0, 0), (1, 0), (0, 1))
    unread, camper, knocker = (halves._fits(view, record, reading, s) for s in styles)
    assert unread is not None and camper is not None and knocker is not None
    rng = random.Random(seed)
    hands = [mask_of(FULL_DECK[c] for c in rng.sample(range(52), 10)) for _ in range(50)]
    # A gin, a knock with 2 and one with 10 (random hands are seldom this close).
    for last in ("TH", "2S", "TS"):
        hands.append(mask_of(parse_cards("AC 2C 3C 4D 5D 6D 7H 8H 9H " + last)))
    first_turns = record.opp_turns <= 3
    for hand in hands:
        dead = deadwood_of(hand, False)
        could_knock = dead <= view.knock_limit
        # Every player knocks when it can in its first turns; later a camper may
        # wait, but nobody holding gin throws on.
        assert fits(hand) == (0.0 if dead == 0 or (first_turns and could_knock) else 1.0)
        assert camper(hand) == fits(hand)
        assert knocker(hand) == (0.0 if could_knock else 1.0)
        assert unread(hand) == (0.5 if fits(hand) and could_knock else fits(hand))


@given(st.integers(0, 10_000))
def test_a_dealt_guess_that_does_not_fit_the_play_is_dealt_again(seed: int) -> None:
    match = _after_turns(seed, 9)
    view = match.view(0)
    reading = read_table(view, read_record(view))
    unseen = bits(reading.unseen)
    # The card the other player holds with a chance nearest one half.
    card = min(unseen, key=lambda c: (abs(reading.p_opp[c] - 0.5), c))
    rng = random.Random(seed)
    # 200 plain guesses: with 30, the card came up once or never in about 1 seed in 50.
    plain = [sample_opponent(reading, rng, 2) for _ in range(200)]
    fitted = [
        sample_opponent(reading, rng, 2, lambda h: float(not h >> card & 1)) for _ in range(30)
    ]
    size = reading.opp_unknown + reading.known_opp.bit_count()
    assert all(h.bit_count() == size for h in plain + fitted)
    assert sum(h >> card & 1 for h in fitted) <= 1 < sum(h >> card & 1 for h in plain)


@given(st.integers(0, 10_000), st.integers(6, 30))
def test_a_card_taken_from_the_pile_is_dealt_in_a_meld(seed: int, turns: int) -> None:
    match = _after_turns(seed, turns)
    view = match.view(0)
    record = read_record(view)
    reading = read_table(view, record)
    assume(reading.known_opp != 0 and not match.hand.is_over)
    fits = hard_variant("-silence,+melded_takes,knocker_throw=0", seed)._fits(
        view, record, reading, (0, 0)
    )
    assert fits is not None
    rng = random.Random(seed)
    for _ in range(50):
        hand = reading.known_opp | mask_of(
            FULL_DECK[c] for c in rng.sample(bits(reading.unseen), reading.opp_unknown)
        )
        out = reading.known_opp & ~_melded_mask(hand)
        assert fits(hand) == (MELDED_TAKES_MISS if out else 1.0)


def _melded_mask(hand: int) -> int:
    """The cards of ``hand`` in the melds of its least-deadwood arrangement."""
    return hand & ~mask_of(best_arrangement(CardSet.from_mask(hand)).deadwood)


@given(st.integers(0, 10_000), st.integers(1, 4), st.booleans())
def test_a_throws_dealt_danger_is_the_share_of_dealt_hands_it_would_meld_with(
    seed: int, count: int, ace_high: bool
) -> None:
    """With ``dealt_danger`` Hard weighs a throw by the share of the hands dealt to the
    other player in which it forms a meld with two of their cards."""
    rng = random.Random(seed)
    guesses = [mask_of(FULL_DECK[c] for c in rng.sample(range(52), 10)) for _ in range(count)]
    throws = rng.sample(range(52), 6)
    shares = dealt_danger(guesses, throws, ace_high)
    for card in throws:
        melding = [
            any(
                is_meld([card, x, y], ace_high=ace_high)
                for x, y in combinations(bits(guess & ~(1 << card)), 2)
            )
            for guess in guesses
        ]
        assert shares[card] == pytest.approx(sum(melding) / count)


@given(st.integers(0, 10_000), st.integers(1, 11))
def test_a_hands_outs_are_the_cards_that_would_meld_with_two_of_its_cards(
    seed: int, size: int
) -> None:
    """The play-outs' gin chaser counts a hand's outs: every card it does not hold that
    forms a meld with two of its cards (aces low)."""
    rng = random.Random(seed)
    hand = mask_of(FULL_DECK[c] for c in rng.sample(range(52), size))
    expected = sum(
        any(is_meld([card, x, y]) for x, y in combinations(bits(hand), 2))
        for card in range(52)
        if not hand >> card & 1
    )
    assert outs(hand) == expected


@given(st.integers(0, 10_000), st.floats(0.1, 5.0), st.booleans())
def test_the_gin_chasers_throw_keeps_more_outs_within_a_few_points_of_the_least_deadwood(
    seed: int, weight: float, locks: bool
) -> None:
    """The quick gin chaser never throws the card just taken, leaves at most OUTS_SLACK
    points above the least deadwood, and no other such throw beats it on deadwood less
    ``weight`` per out."""
    rng = random.Random(seed)
    cards = rng.sample(range(52), 11)
    hand = mask_of(FULL_DECK[c] for c in cards)
    locked = cards[0] if locks else -1
    card, left = outs_throw(hand, locked, False, weight)
    assert card != locked and hand >> card & 1
    after = {c: deadwood_of(hand & ~(1 << c), False) for c in cards if c != locked}
    assert left == after[card] <= min(after.values()) + OUTS_SLACK
    value = left - weight * outs(hand & ~(1 << card))
    for c, dead in after.items():
        if dead <= min(after.values()) + OUTS_SLACK:
            assert value <= dead - weight * outs(hand & ~(1 << c)) + 1e-9


@given(st.integers(0, 10_000), st.integers(3, 30))
def test_a_dealt_guess_the_other_players_last_throw_or_pass_melds_with_is_rarely_kept(
    seed: int, turns: int
) -> None:
    """A player does not break a meld to throw a card, and takes a pile card that melds:
    with ``last_turn`` Hard deals such hands rarely."""
    match = _after_turns(seed, turns)
    view = match.view(0)
    record = read_record(view)
    assume(record.opp_threw and not match.hand.is_over)
    fits = hard_variant("-silence,-melded_takes,+last_turn,knocker_throw=0", seed)._fits(
        view, record, read_table(view, record), (0, 0)
    )
    assert fits is not None
    # The other player's last turn, from the log: the draw before its last throw,
    # and the card on the pile when it drew from the stock (a stock draw before any
    # throw is the one the rules force after both passed the upcard: it passes nothing).
    events = list(view.events)
    thrown_at = max(i for i, e in enumerate(events) if isinstance(e, Discarded) and e.player == 1)
    thrown = events[thrown_at]
    assert isinstance(thrown, Discarded)
    threw = int(thrown.card)
    passed: int | None = None
    if isinstance(events[thrown_at - 1], StockDrawn):
        before = [int(e.card) for e in events[: thrown_at - 1] if isinstance(e, Discarded)]
        passed = before[-1] if before else None
    rng = random.Random(seed)
    for _ in range(40):
        hand = mask_of(FULL_DECK[c] for c in rng.sample(range(52), 10))
        expected = THREW_MISS if melds_with_two(hand, threw, False) else 1.0
        if passed is not None and melds_with_two(hand | 1 << threw, passed, False):
            expected *= PASSED_MISS
        assert fits(hand) == pytest.approx(expected)


@given(st.integers(0, 10_000), st.integers(3, 30))
def test_a_knockers_dealt_guess_is_one_its_last_throw_left_at_the_least_deadwood(
    seed: int, turns: int
) -> None:
    """A player who knocks at once throws its dearest deadwood card: with ``knocker_throw``
    Hard rarely deals it a hand its last throw did not leave at the least deadwood, and
    against a player ``adapt`` reads as a camper the rule is off."""
    match = _after_turns(seed, turns, "simple")
    view = match.view(0)
    record = read_record(view)
    assume(record.opp_threw and not match.hand.is_over)
    reading = read_table(view, record)
    bot = hard_variant("-silence,-melded_takes", seed)
    fits = bot._fits(view, record, reading, (0, 0))
    assert fits is not None
    threw = record.opp_threw[-1]
    rng = random.Random(seed)
    for _ in range(40):
        hand = mask_of(FULL_DECK[c] for c in rng.sample(bits(reading.unseen), 10))
        least = deadwood_after_discard_mask(hand | 1 << threw)
        assert fits(hand) == (0.05 if deadwood_of(hand, False) > least else 1.0)
    # A camper throws by its look-ahead, not to the least deadwood: not read so.
    assert bot._fits(view, record, reading, (1, 0)) is None


def test_a_knocker_that_threw_a_five_past_a_lone_eight_is_rarely_dealt_it() -> None:
    """Throwing the lone eight would have left less deadwood than the five: a knocker's
    hand holds no such card. Had the throw been a king, the eight fits."""
    bot = hard_variant("-silence,-melded_takes", 1)
    view = _after_turns(1, 12, "simple").view(0)
    hand = mask_of(parse_cards("AS 2S 3S 7H 7D 7C 4C 5C 6C 8C"))
    for threw, chance in (("5D", 0.05), ("KD", 1.0)):
        record = replace(read_record(view), opp_threw=[int(Card.parse(threw))])
        fits = bot._fits(view, record, read_table(view, record), (0, 0))
        assert fits is not None
        assert fits(hand) == chance


def test_the_outcomes_bench_adds_up_to_the_arenas_points_a_hand() -> None:
    """bench/bench_outcomes.py counts the arena's own hands: as many as the arena plays for
    the same seeds, and its kinds' worth sums to the arena's points a hand."""
    outcomes = _bench("bench_outcomes").count(("medium", "simple"), [3, 4], Settings())
    report = run_arena(("medium", "simple"), [3, 4], kind="matches")
    assert outcomes.hands == report.hands
    worth = sum(row[-1] for row in outcomes.rows())
    assert worth == pytest.approx(report.points_per_hand)
