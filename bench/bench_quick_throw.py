"""How often the play-outs' quick throw is the throw a real bot makes: a diagnostic.

The play-outs of Hard's ``rollout`` habit (:mod:`ginrummy.bots._rollout`) play
the rest of a hand with quick players; the closer their throws are to the
players they stand for, the better the play-outs tell two throws apart. This
plays single hands of a bot (``--bot``, in seat 0) against the camper, and at
each of the bot's throws asks each quick rule which card it would throw from
the same eleven cards: the least deadwood (the dearest among equals), the
gin chaser of ``rollout_outs`` at a few weights, and the one-draw look-ahead
(MARJJ's throw without its danger terms, at Hard's weight, 6, and MARJJ's, 18)
over the cards the bot has not seen::

    .venv/bin/python bench/bench_quick_throw.py --bot camper --hands 300
    .venv/bin/python bench/bench_quick_throw.py --bot hard --hands 120

Each hand is dealt from its number (``--seed-start`` on), as the arena's hands are.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from ginrummy.arena import build_bot
from ginrummy.bots._lookahead import future_deadwood
from ginrummy.bots._reading import card_weights
from ginrummy.bots._rollout import OUTS_DECAY, least_throw, outs_throw, throw_by
from ginrummy.cards import Bitmask, mask_of
from ginrummy.hand import Discard, Hand, Knock, Phase, shuffled_deck
from ginrummy.settings import Settings

Rule = Callable[[Bitmask, int, int, Bitmask], int]
"""A quick rule: (eleven cards, the card that may not go or -1, the turn, the cards not
seen) -> the card thrown."""


def throws(bot: str, hands: int, seed_start: int) -> list[tuple[Bitmask, int, int, Bitmask, int]]:
    """Every throw ``bot`` made in seat 0: (its eleven cards, locked card, turn, the cards
    it had not seen, card)."""
    out = []
    for seed in range(seed_start, seed_start + hands):
        rng = random.Random(f"ginrummy-quick-throw/{seed}")
        hand = Hand.deal(shuffled_deck(rng), dealer=rng.randrange(2), settings=Settings())
        bots = [build_bot(bot, seed), build_bot("camper", seed + 1)]
        turn = 0
        while not hand.is_over:
            player = hand.to_act or 0
            view = hand.view(player)
            action = bots[player].choose(view)
            if player == 0 and view.phase == Phase.DISCARD and isinstance(action, Discard | Knock):
                turn += 1
                locked = -1 if view.locked_card is None else int(view.locked_card)
                unseen = sum(1 << c for c in card_weights(view))
                out.append((mask_of(view.hand), locked, turn, unseen, int(action.card)))
            hand.apply(action)
    return out


def _gin_chaser(weight: float) -> Rule:
    def rule(hand: Bitmask, locked: int, turn: int, unseen: Bitmask) -> int:
        return outs_throw(hand, locked, False, weight, turn)[0]

    return rule


def _looker(weight: float) -> Rule:
    """MARJJ's throw without its danger terms: of the throws within 5 points of the
    least deadwood, the least deadwood plus ``weight * 0.9^(turn-1)`` times the mean of
    the best seven deadwoods one draw on from the cards not seen."""

    def rule(hand: Bitmask, locked: int, turn: int, unseen: Bitmask) -> int:
        scale = weight * OUTS_DECAY ** (turn - 1)
        return throw_by(
            hand, locked, False, 5, lambda kept: scale * future_deadwood(kept, unseen, False)
        )[0]

    return rule


def main(argv: list[str] | None = None) -> int:
    """Print each quick rule's share of the bot's throws it matches."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--bot", default="camper", help="the bot whose throws are matched")
    p.add_argument("--hands", type=int, default=300)
    p.add_argument("--seed-start", type=int, default=1)
    args = p.parse_args(argv)
    made = throws(args.bot, args.hands, args.seed_start)
    rules: dict[str, Rule] = {
        "least deadwood (rollout_outs=0)": lambda h, lock, t, u: least_throw(h, lock, False)[0]
    }
    for weight in (0.5, 1.0, 2.0, 3.0):
        rules[f"gin chaser (rollout_outs={weight:g})"] = _gin_chaser(weight)
    for weight in (6.0, 18.0):
        rules[f"one-draw look-ahead (weight {weight:g})"] = _looker(weight)
    print(f"{args.bot}: {len(made)} throws in {args.hands} hands against the camper")
    for name, rule in rules.items():
        share = sum(rule(h, lock, t, u) == card for h, lock, t, u, card in made) / len(made)
        print(f"  {name}: {100 * share:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
