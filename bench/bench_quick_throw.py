"""How often the play-outs' quick throw is the throw a real bot makes: a diagnostic.

The play-outs of Hard's ``rollout`` habit (:mod:`ginrummy.bots._rollout`) play
the rest of a hand with quick players; the closer their throws are to the
players they stand for, the better the play-outs tell two throws apart. This
plays single hands of a bot (``--bot``, in seat 0) against the camper, and at
each of the bot's throws asks each quick rule which card it would throw from
the same eleven cards: the least deadwood (the dearest among equals), and the
gin chaser of ``rollout_outs`` at a few weights::

    .venv/bin/python bench/bench_quick_throw.py --bot camper --hands 300
    .venv/bin/python bench/bench_quick_throw.py --bot hard --hands 120

Each hand is dealt from its number (``--seed-start`` on), as the arena's hands are.
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Callable

from ginrummy.arena import build_bot
from ginrummy.bots._rollout import least_throw, outs_throw
from ginrummy.cards import Bitmask, mask_of
from ginrummy.hand import Discard, Hand, Knock, Phase, shuffled_deck
from ginrummy.settings import Settings

Rule = Callable[[Bitmask, int, int], int]
"""A quick rule: (eleven cards, the card that may not go or -1, the turn) -> the card thrown."""


def throws(bot: str, hands: int, seed_start: int) -> list[tuple[Bitmask, int, int, int]]:
    """Every throw ``bot`` made in seat 0: (its eleven cards, locked card, turn, card)."""
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
                out.append((mask_of(view.hand), locked, turn, int(action.card)))
            hand.apply(action)
    return out


def _gin_chaser(weight: float) -> Rule:
    def rule(hand: Bitmask, locked: int, turn: int) -> int:
        return outs_throw(hand, locked, False, weight, turn)[0]

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
        "least deadwood (rollout_outs=0)": lambda h, lock, t: least_throw(h, lock, False)[0]
    }
    for weight in (0.5, 1.0, 2.0, 3.0):
        rules[f"gin chaser (rollout_outs={weight:g})"] = _gin_chaser(weight)
    print(f"{args.bot}: {len(made)} throws in {args.hands} hands against the camper")
    for name, rule in rules.items():
        share = sum(rule(h, lock, t) == card for h, lock, t, card in made) / len(made)
        print(f"  {name}: {100 * share:.1f}%")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
