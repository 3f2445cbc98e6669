"""Property tests: random legal play under every knock mode and house rule.

At every step of every hand: the 52 cards are all somewhere, exactly once;
each player's view shows nothing it should not; ``legal_actions()`` is
exactly the set of actions ``can()`` accepts; and at the end the result adds
up. Records of hands and whole matches, finished or not, load back equal.

``legal_actions()`` lists each knock without melds (the engine's preferred
arrangement); a knock naming one of the other least-deadwood arrangements
is legal as well, and is checked separately.
"""

from __future__ import annotations

import random

from conftest import visible_cards
from hypothesis import given
from hypothesis import settings as hsettings
from hypothesis import strategies as st

from ginrummy.arena import event_message
from ginrummy.cards import FULL_DECK, Card
from ginrummy.hand import (
    Action,
    DeclareBigGin,
    Discard,
    DrawPile,
    DrawStock,
    Event,
    Hand,
    Knock,
    PassUpcard,
    PileDrawn,
    ResultKind,
    TakeUpcard,
    UpcardTaken,
    action_name,
    event_kind,
    parse_action,
    shuffled_deck,
)
from ginrummy.match import Match
from ginrummy.records import dump_hand, dump_match, load_hand, load_match
from ginrummy.settings import KnockMode, Settings, ShutoutRule

EXAMPLES = hsettings(max_examples=150, deadline=None)

rule_sets = st.builds(
    Settings,
    match_to=st.integers(10, 120),
    knocking=st.sampled_from(list(KnockMode)),
    undercut_bonus=st.integers(0, 100),
    gin_bonus=st.integers(0, 100),
    big_gin_bonus=st.integers(0, 100),
    big_gin=st.booleans(),
    ace_high=st.booleans(),
    game_bonus=st.booleans(),
    line_bonus=st.booleans(),
    shutout=st.sampled_from(list(ShutoutRule)),
    spades_double=st.booleans(),
)
seeds = st.integers(0, 2**32 - 1)


def pick(hand: Hand, rng: random.Random) -> Action:
    """A random legal action, leaning towards play that ends hands (so knocks get tested)."""
    legal = hand.legal_actions()
    enders = [a for a in legal if isinstance(a, (Knock, DeclareBigGin))]
    if enders and rng.random() < 0.7:
        action = rng.choice(enders)
        if isinstance(action, Knock) and rng.random() < 0.5:
            choices = hand.knock_arrangements(action.card)
            return Knock(action.card, rng.choice(choices).melds)
        return action
    discards = [a for a in legal if isinstance(a, Discard)]
    if discards and rng.random() < 0.8:
        options = hand.knock_options()
        return min(discards, key=lambda a: (options[a.card], rng.random()))
    return rng.choice(legal)


def candidate_actions(hand: Hand, rng: random.Random) -> list[Action]:
    """Actions to ask ``can()`` about: every kind, every held card, and some cards not held."""
    held = set(hand.cards_of(0)) | set(hand.cards_of(1))
    others = rng.sample([c for c in FULL_DECK if c not in held], 6)
    cards = [*held, *others]
    return [
        TakeUpcard(),
        PassUpcard(),
        DrawStock(),
        DrawPile(),
        DeclareBigGin(),
        *(Discard(c) for c in cards),
        *(Knock(c) for c in cards),
    ]


def stock_of(hand: Hand) -> list[Card]:
    return list(hand.deck[52 - hand.stock_count :])


def taken_from_pile(hand: Hand, player: int) -> set[Card]:
    return {
        e.card
        for e in hand.events
        if isinstance(e, (PileDrawn, UpcardTaken)) and e.player == player
    }


def check_step(hand: Hand, rng: random.Random) -> None:
    # Conservation: both hands, the pile, the stock and the knock card.
    result = hand.result
    everywhere = [*hand.cards_of(0), *hand.cards_of(1), *hand.pile, *stock_of(hand)]
    if result is not None and result.knock_card is not None:
        everywhere.append(result.knock_card)
    assert sorted(everywhere) == list(FULL_DECK)

    # Views.
    stock = set(stock_of(hand))
    revealed = result is not None and result.kind is not ResultKind.DEAD
    for player in (0, 1):
        view = hand.view(player)
        other = set(hand.cards_of(1 - player))
        assert view.hand == hand.cards_of(player)
        shown = visible_cards(view)
        assert not shown & stock
        if revealed:
            assert view.opponent_hand == hand.cards_of(1 - player)
        else:
            assert view.opponent_hand is None
            assert set(view.opponent_pile_cards) <= taken_from_pile(hand, 1 - player)
            assert shown & other == set(view.opponent_pile_cards)
        if hand.to_act == player:
            assert view.legal_actions == hand.legal_actions()
        else:
            assert view.legal_actions == ()

    # legal_actions() is exactly what can() accepts.
    legal = hand.legal_actions()
    assert len(set(legal)) == len(legal)
    for action in candidate_actions(hand, rng):
        assert hand.can(action) == (action in legal), action
        if hand.to_act is not None:
            assert not hand.can(action, 1 - hand.to_act)
    for action in legal:
        assert hand.can(action, hand.to_act)
        if isinstance(action, Knock):
            for arrangement in hand.knock_arrangements(action.card):
                assert hand.can(Knock(action.card, arrangement.melds))


def check_result(hand: Hand) -> None:
    result = hand.result
    assert result is not None
    s = hand.settings
    if result.kind is ResultKind.DEAD:
        assert (result.winner, result.points, result.knocker) == (None, 0, None)
        assert hand.stock_count == 2
        return
    knocker = result.knocker
    assert knocker is not None
    defender = 1 - knocker
    mult = 2 if s.spades_double and hand.first_upcard.suit == 3 else 1
    assert result.multiplier == mult
    # Both hands as laid down account for every card held.
    laid = [c for m in result.knocker_melds for c in m] + list(result.knocker_deadwood)
    assert sorted(laid) == sorted(hand.cards_of(knocker))
    own = [c for m in result.defender_melds for c in m] + list(result.defender_deadwood)
    own += [lay.card for lay in result.lay_offs]
    assert sorted(own) == sorted(hand.cards_of(defender))
    assert result.knocker_points == sum(c.points for c in result.knocker_deadwood)
    assert result.defender_points == sum(c.points for c in result.defender_deadwood)
    assert result.knocker_points <= max(hand.knock_limit, 0)
    k, d = result.knocker_points, result.defender_points
    if result.kind is ResultKind.BIG_GIN:
        assert s.big_gin and len(laid) == 11 and k == 0 and result.lay_offs == ()
        assert (result.winner, result.points) == (knocker, (d + s.big_gin_bonus) * mult)
    elif result.kind is ResultKind.GIN:
        assert k == 0 and result.lay_offs == ()
        assert (result.winner, result.points) == (knocker, (d + s.gin_bonus) * mult)
    elif result.kind is ResultKind.KNOCK:
        assert 0 < k < d
        assert (result.winner, result.points) == (knocker, (d - k) * mult)
    else:
        assert result.kind is ResultKind.UNDERCUT and k > 0 and d <= k
        assert (result.winner, result.points) == (defender, (k - d + s.undercut_bonus) * mult)


@given(seed=seeds, rules=rule_sets, dealer=st.integers(0, 1))
@EXAMPLES
def test_random_hands_keep_every_invariant(seed: int, rules: Settings, dealer: int) -> None:
    rng = random.Random(seed)
    hand = Hand.deal(shuffled_deck(rng), dealer=dealer, settings=rules)
    stop = rng.randrange(60)
    while True:
        check_step(hand, rng)
        if len(hand.actions) == stop or hand.is_over:
            assert load_hand(dump_hand(hand)) == hand
        if hand.is_over:
            break
        action = pick(hand, rng)
        check_names(action, hand.apply(action))
    check_result(hand)


def check_names(action: Action, events: list[Event]) -> None:
    """One vocabulary: the record text, the name with the card apart, the event, the arena."""
    name = action_name(action)
    assert str(action).split()[0] == name.value
    assert parse_action(str(action)) == action
    card = getattr(action, "card", None)
    melds = getattr(action, "melds", None)
    assert parse_action(name.value, card=card, melds=melds) == action
    if isinstance(action, (Discard, Knock)):
        assert parse_action(name.value, card=str(action.card)) == type(action)(action.card)
    assert event_kind(events[0]) is name
    message = event_message(events[0])
    assert message is not None and message["type"] == name.value


@given(seed=seeds, rules=rule_sets)
@hsettings(max_examples=100, deadline=None)
def test_random_matches_score_by_the_sheet_and_replay_from_records(
    seed: int, rules: Settings
) -> None:
    rng = random.Random(seed)
    match = Match.new(rules, rng=rng)
    stop_at = rng.randrange(400)
    steps = 0
    while not match.is_over:
        if match.awaiting_deal:
            match.next_hand(shuffled_deck(rng))
            continue
        match.apply(pick(match.hand, rng))
        steps += 1
        if steps == stop_at:
            assert load_match(dump_match(match)) == match
    assert load_match(dump_match(match)) == match

    # Only the winner of a hand scores; the totals are the sum of the sheet.
    totals = [0, 0]
    for entry, hand in zip(match.sheet, match.hands, strict=True):
        assert hand.result is not None and entry.points == hand.result.points
        if entry.winner is None:
            assert entry.kind is ResultKind.DEAD and entry.points == 0
        else:
            totals[entry.winner] += entry.points
        assert entry.totals == tuple(totals)
    for before, after in zip(match.hands, match.hands[1:], strict=False):
        assert before.result is not None
        dead = before.result.kind is ResultKind.DEAD
        assert after.dealer == (before.dealer if dead else 1 - before.dealer)

    final = match.final_score()
    assert final is not None and final.running == tuple(totals)
    winner = final.winner
    assert totals[winner] >= rules.match_to > totals[1 - winner]
    for p in (0, 1):
        assert final.totals[p] == (
            final.running[p] + final.game_bonus[p] + final.line_bonus[p] + final.shutout_bonus[p]
        )
        won = sum(1 for e in match.sheet if e.winner == p)
        assert final.line_bonus[p] == (25 * won if rules.line_bonus else 0)
    assert final.game_bonus == tuple(100 if rules.game_bonus and p == winner else 0 for p in (0, 1))
    shutout = rules.shutout is not ShutoutRule.OFF and totals[1 - winner] == 0
    expected = 0
    if shutout:
        before_shutout = totals[winner] + final.game_bonus[winner] + final.line_bonus[winner]
        expected = before_shutout if rules.shutout is ShutoutRule.DOUBLE else 100
    assert final.shutout_bonus[winner] == expected and final.shutout_bonus[1 - winner] == 0
