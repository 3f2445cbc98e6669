"""How far Hard's reading is from the exact posterior, against a player who knocks at once.

``simple`` decides by fixed rules: it takes a pile card exactly when the card
melds with two of its cards, throws a card that leaves the least deadwood and
knocks at its first chance. Against such a player every act is a constraint:
a dealt hand and a run of stock draws either reproduce everything it did or
they do not. The exact posterior over its hand is then the uniform deal
filtered by those constraints, which rejection sampling draws exactly: deal
the other player's ten cards and its stock draws at random from the cards it
could have held, replay its rules, keep the deals that reproduce its play.

At each of Hard's throws (Hard in seat 0, single hands dealt from their
numbers as ``bench/bench_reading.py`` deals them) this scores, for each card in
Hard's hand, whether throwing it would give the other hand a meld, read two
ways: Hard's danger (:func:`ginrummy.bots._reading.danger`, from the card
weights) and the share of sampled deals the card melds with. Log loss (lower
is better) and AUC (higher is better), on the throws of the other player's
turns asked for::

    .venv/bin/python bench/bench_posterior.py --hands 100 --turns 1-3 --method rejection

The samplers (``--method``): ``rejection`` (exact), ``weighted`` (importance
sampling, exact in the limit), ``walk`` (a Metropolis walk from a deal built
to fit the play) and ``truth`` (the same walk from the true deal: an upper
bound where the walk cannot move freely). Rejection costs grow fast with the
turn (each turn is a few more constraints); a throw at which a sampler reads
fewer than 10 hands is counted, not scored. Every throw's true deal is
replayed first: the count of true deals the rules reject must be 0, or the
rules are not ``simple``'s.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from dataclasses import dataclass

from bench_reading import auc, mean_loss, plays

from ginrummy import melds
from ginrummy.bots._common import ALL_CARDS, bits, deadwood_of, read_record
from ginrummy.bots._reading import danger, melds_with_two, read_table
from ginrummy.cards import Bitmask, mask_of
from ginrummy.hand import (
    Dealt,
    Discarded,
    PileDrawn,
    PlayerView,
    StockDrawn,
    UpcardPassed,
    UpcardTaken,
)


@dataclass(frozen=True, slots=True)
class Act:
    """One thing the other player did: ``offer`` (a pile card ``card`` it ``took`` or
    not), ``draw`` (a stock card), ``take`` (a pile card) or ``throw``."""

    kind: str
    card: int = -1
    took: bool = False


def acts_of(view: PlayerView) -> tuple[list[Act], Bitmask]:
    """The other player's acts in order, and the cards it can never have held
    (``view.player``'s cards and throws and the first upcard, less what it threw)."""
    me = view.player
    pile: list[int] = []
    acts: list[Act] = []
    never = mask_of(view.hand)
    upcard_passes = 0
    turns = 0
    for e in view.events:
        if isinstance(e, Dealt):
            pile = [int(e.upcard)]
            never |= 1 << int(e.upcard)
        elif isinstance(e, UpcardPassed):
            upcard_passes += 1
            if e.player != me:
                acts.append(Act("offer", pile[-1], False))
        elif isinstance(e, (UpcardTaken, PileDrawn)):
            pile.pop()
            turns += 1
            if e.player != me:
                acts += [Act("offer", int(e.card), True), Act("take", int(e.card))]
        elif isinstance(e, StockDrawn):
            # After both passed the upcard the first stock draw declines nothing.
            forced = upcard_passes == 2 and turns == 0
            turns += 1
            if e.player != me:
                if pile and not forced:
                    acts.append(Act("offer", pile[-1], False))
                acts.append(Act("draw"))
        elif isinstance(e, Discarded):
            pile.append(int(e.card))
            if e.player == me:
                never |= 1 << int(e.card)
            else:
                acts.append(Act("throw", int(e.card)))
    for a in acts:
        if a.kind == "throw":
            never &= ~(1 << a.card)
    return acts, never


def replay(deal: list[int], acts: list[Act], limit: int, ace_high: bool) -> Bitmask | None:
    """The other player's hand now if ``deal`` (its ten cards, then its stock draws)
    reproduces every act under ``simple``'s rules, else ``None``. Ties between
    throws that leave the same deadwood all count as reproduced."""
    broken, hand = _replay(deal, acts, limit, ace_high, stop=True)
    return None if broken else hand


def _replay(
    deal: list[int], acts: list[Act], limit: int, ace_high: bool, *, stop: bool
) -> tuple[int, Bitmask]:
    """How many of ``acts`` ``deal`` does not reproduce (at most 1 with ``stop``,
    which ends the replay at the first), and the hand it ends with."""
    broken = 0
    hand = 0
    for c in deal[:10]:
        hand |= 1 << c
    drawn = 10
    taken = -1
    for a in acts:
        before = broken
        if a.kind == "offer":
            broken += melds_with_two(hand, a.card, ace_high) != a.took
        elif a.kind == "draw":
            hand |= 1 << deal[drawn]
            drawn += 1
            taken = -1
        elif a.kind == "take":
            hand |= 1 << a.card
            taken = a.card
        else:
            held = hand >> a.card & 1
            least = _least_after_throw(hand, taken, ace_high)
            # A throw it could not have made: replay on as if it threw its best card.
            card = a.card
            if not held:
                card = next(
                    d
                    for d in bits(hand)
                    if d != taken and deadwood_of(hand & ~(1 << d), ace_high) == least
                )
            # It threw to the least deadwood, and could not knock with it.
            broken += (not held) + (least <= limit)
            broken += deadwood_of(hand & ~(1 << card), ace_high) > least
            hand &= ~(1 << card)
            taken = -1
        if stop and broken > before:
            return 1, hand
    return broken, hand


def _least_after_throw(hand: Bitmask, taken: int, ace_high: bool) -> int:
    """The least deadwood a throw from ``hand`` can leave (never the card ``taken``)."""
    if taken < 0:
        return melds.deadwood_after_discard_mask(hand, ace_high)
    return min(deadwood_of(hand & ~(1 << d), ace_high) for d in bits(hand) if d != taken)


def _pool_and_size(view: PlayerView, acts: list[Act], never: Bitmask) -> tuple[list[int], int]:
    """The cards the other player's deal and stock draws come from, and how many it had."""
    taken = 0
    for a in acts:
        if a.kind == "take":
            taken |= 1 << a.card
    return bits(ALL_CARDS & ~never & ~taken), 10 + sum(a.kind == "draw" for a in acts)


def sample_posterior(view: PlayerView, rng: random.Random, want: int, tries: int) -> list[Bitmask]:
    """Up to ``want`` hands drawn exactly from the posterior by rejection (``tries``
    deals at most)."""
    acts, never = acts_of(view)
    pool, size = _pool_and_size(view, acts, never)
    ace_high, limit = view.settings.ace_high, view.knock_limit
    kept: list[Bitmask] = []
    for _ in range(tries):
        hand = replay(rng.sample(pool, size), acts, limit, ace_high)
        if hand is not None:
            kept.append(hand)
            if len(kept) >= want:
                break
    return kept


PLACES = {"dealt": 0.4, "drawn then": 0.5, "drawn before": 0.1}
"""How :func:`sample_weighted` places each card the other player threw: among its ten,
as the stock draw of the turn it was thrown in, or as an earlier stock draw."""


def sample_weighted(
    view: PlayerView, rng: random.Random, want: int, tries: int
) -> list[tuple[Bitmask, float]]:
    """Up to ``want`` hands from the posterior by importance sampling, each with its
    weight: each card the other player threw (and did not take from the pile) is first
    placed where it most likely came from (:data:`PLACES`), the rest of the deal at
    random; a deal that reproduces the play is kept with the weight 1 / its chance to
    be proposed."""
    acts, never = acts_of(view)
    pool, size = _pool_and_size(view, acts, never)
    ace_high, limit = view.settings.ace_high, view.knock_limit
    in_pool = set(pool)
    # Each thrown card with the slot of the stock draw of its turn (None: a pile card
    # was taken that turn) and how many stock draws came before that turn.
    thrown: list[tuple[int, int | None, int]] = []
    draws = 0
    for i, a in enumerate(acts):
        if a.kind == "draw":
            draws += 1
        elif a.kind == "throw" and a.card in in_pool:
            own = 10 + draws - 1 if i and acts[i - 1].kind == "draw" else None
            thrown.append((a.card, own, draws - (own is not None)))
    rest_pool = [c for c in pool if all(c != t for t, _, _ in thrown)]
    kept: list[tuple[Bitmask, float]] = []
    for _ in range(tries):
        deal: list[int | None] = [None] * size
        dealt = 0
        chance = 1.0
        for card, own, before in thrown:
            options: list[tuple[str, int]] = []
            if dealt < 10:
                options.append(("dealt", -1))
            if own is not None and deal[own] is None:
                options.append(("drawn then", own))
            free = [10 + k for k in range(before) if deal[10 + k] is None]
            if free:
                options.append(("drawn before", -1))
            total = sum(PLACES[name] for name, _ in options)
            pick = rng.random() * total
            name, slot = options[-1]
            for option in options:
                pick -= PLACES[option[0]]
                if pick < 0:
                    name, slot = option
                    break
            chance *= PLACES[name] / total
            if name == "dealt":
                while True:
                    slot = rng.randrange(10)
                    if deal[slot] is None:
                        break
                # Which of the ten free places does not matter: the ten are a set.
                dealt += 1
            elif name == "drawn before":
                slot = rng.choice(free)
                chance /= len(free)
            deal[slot] = card
        # The rest fills the free places in order, and any order of the ten's free
        # places makes the same deal.
        chance *= math.factorial(10 - dealt)
        filler = iter(rng.sample(rest_pool, size - len(thrown)))
        full = [c if c is not None else next(filler) for c in deal]
        hand = replay(full, acts, limit, ace_high)
        if hand is not None:
            kept.append((hand, 1.0 / chance))
            if len(kept) >= want:
                break
    return kept


def walk(
    deal: list[int],
    spare: list[int],
    acts: list[Act],
    view: PlayerView,
    rng: random.Random,
    steps: int,
    thin: int,
) -> list[Bitmask]:
    """A Metropolis walk over the deals that reproduce ``acts``, from ``deal`` (one of
    them): each step puts a spare card in a slot, or swaps two slots, and is kept when
    the deal still reproduces the play (the posterior is uniform over those deals, so
    that is the whole acceptance rule). The hand at every ``thin``-th step of the
    second half."""
    ace_high, limit = view.settings.ace_high, view.knock_limit
    deal, spare = list(deal), list(spare)
    hand = replay(deal, acts, limit, ace_high)
    assert hand is not None, "the walk starts from a deal that reproduces the play"
    seen: list[Bitmask] = []
    for step in range(steps):
        moved, freed = _change(deal, spare, rng)
        now = replay(moved, acts, limit, ace_high)
        if now is not None:
            deal, spare, hand = moved, freed, now
        if step >= steps // 2 and step % thin == 0:
            seen.append(hand)
    return seen


def _change(
    deal: list[int], spare: list[int], rng: random.Random, *, pairs: bool = True
) -> tuple[list[int], list[int]]:
    """A random neighbour of ``deal``: spare cards in one or (with ``pairs``) two of
    its slots, or two of its slots swapped (a symmetric proposal)."""
    moved, freed = list(deal), list(spare)
    kind = rng.randrange(3 if pairs else 2)
    if kind == 0 or not spare:
        a, b = rng.randrange(len(deal)), rng.randrange(len(deal))
        moved[a], moved[b] = moved[b], moved[a]
        return moved, spare
    for a, b in zip(
        rng.sample(range(len(deal)), kind), rng.sample(range(len(spare)), kind), strict=True
    ):
        moved[a], freed[b] = freed[b], moved[a]
    return moved, freed


def build_deal(
    view: PlayerView, rng: random.Random, repairs: int
) -> tuple[list[int], list[int], list[Act]] | None:
    """One deal that reproduces the other player's play, built turn by turn: each
    stock draw is chosen at random among the cards that keep the play so far
    reproduced; when none does, the deal so far is repaired by random changes that
    never add a broken act (``repairs`` tries at most). ``None`` when it fails.

    The deal found is not a posterior draw; :func:`walk` from it makes draws."""
    acts, never = acts_of(view)
    pool, size = _pool_and_size(view, acts, never)
    ace_high, limit = view.settings.ace_high, view.knock_limit
    rng.shuffle(pool)
    deal, spare = pool[:10], pool[10:]
    ends = [i + 1 for i, a in enumerate(acts) if a.kind == "throw"] or [len(acts)]
    slots = 10
    for end in ends:
        upto = acts[:end]
        draws = sum(a.kind == "draw" for a in upto)
        if draws > slots - 10:
            fits = [c for c in spare if replay([*deal, c], upto, limit, ace_high) is not None]
            if fits:
                card = rng.choice(fits)
                spare.remove(card)
                deal.append(card)
                slots += 1
                continue
            card = spare.pop(rng.randrange(len(spare)))
            deal.append(card)
            slots += 1
        broken = _replay(deal, upto, limit, ace_high, stop=False)[0]
        tries = 0
        while broken and tries < repairs:
            tries += 1
            moved, freed = _change(deal, spare, rng)
            now = _replay(moved, upto, limit, ace_high, stop=False)[0]
            if now <= broken:
                deal, spare, broken = moved, freed, now
        if broken:
            return None
    assert len(deal) == size
    return deal, spare, acts


def read_hands(
    method: str, view: PlayerView, true_deal: list[int], rng: random.Random, steps: int
) -> list[tuple[Bitmask, float]]:
    """Hands drawn from the posterior by ``method``: ``rejection``, ``walk`` (from a
    deal built by :func:`build_deal`) or ``truth`` (a walk from the true deal, itself
    a posterior draw: the check of how well the walk mixes)."""
    if method == "rejection":
        return [(h, 1.0) for h in sample_posterior(view, rng, steps // 10, steps * 10)]
    if method == "weighted":
        return sample_weighted(view, rng, steps // 10, steps * 10)
    thin = max(1, steps // 200)
    if method == "truth":
        acts, never = acts_of(view)
        pool, _ = _pool_and_size(view, acts, never)
        spare = [c for c in pool if c not in true_deal]
        return [(h, 1.0) for h in walk(true_deal, spare, acts, view, rng, steps, thin)]
    built = build_deal(view, rng, repairs=steps)
    if built is None:
        return []
    deal, spare, acts = built
    return [(h, 1.0) for h in walk(deal, spare, acts, view, rng, steps, thin)]


def main(argv: list[str] | None = None) -> int:
    """Print the danger's log loss and AUC read both ways, by the other player's turn."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--hands", type=int, default=100)
    p.add_argument("--seed-start", type=int, default=20001)
    p.add_argument("--turns", default="1-3", help="the other player's turns to score, FROM-TO")
    p.add_argument("--method", choices=("rejection", "weighted", "walk", "truth"), default="walk")
    p.add_argument(
        "--steps",
        type=int,
        default=2000,
        help="steps of the walk (rejection: a tenth as many hands kept, ten times as many tried)",
    )
    args = p.parse_args(argv)
    low, high = (int(x) for x in args.turns.split("-"))
    reading_pairs: list[tuple[float, int]] = []
    exact_pairs: list[tuple[float, int]] = []
    rejected = scored = unscored = 0
    seconds: list[float] = []
    for view, truth, true_deal in plays("simple", args.hands, args.seed_start):
        acts, _ = acts_of(view)
        rejected += replay(true_deal, acts, view.knock_limit, view.settings.ace_high) != truth
        record = read_record(view)
        if not low <= record.opp_turns <= high:
            continue
        rng = random.Random(f"posterior/{args.seed_start}/{len(view.events)}/{truth}")
        start = time.perf_counter()
        kept = read_hands(args.method, view, true_deal, rng, args.steps)
        seconds.append(time.perf_counter() - start)
        if len(kept) < 10:
            unscored += 1
            continue
        scored += 1
        reading = read_table(view, record)
        ace_high = view.settings.ace_high
        for card in bits(mask_of(view.hand)):
            melds_now = int(melds_with_two(truth, card, ace_high))
            weight = sum(w for _, w in kept)
            melded = sum(w for h, w in kept if melds_with_two(h, card, ace_high))
            share = (melded + 0.5 * weight / len(kept)) / (weight + weight / len(kept))
            reading_pairs.append((danger(reading, card), melds_now))
            exact_pairs.append((share, melds_now))
    seconds.sort()
    median = seconds[len(seconds) // 2] * 1000 if seconds else 0.0
    print(f"true deals the rules reject: {rejected} (must be 0)")
    print(
        f"other player's turns {low}-{high}, {args.method} ({args.steps} steps): {scored} "
        f"throws scored, {unscored} with fewer than 10 hands read; {median:.0f} ms a throw (median)"
    )
    print("danger read from | log loss | AUC")
    print(f"Hard's card weights | {mean_loss(reading_pairs):.4f} | {auc(reading_pairs):.4f}")
    print(f"the posterior | {mean_loss(exact_pairs):.4f} | {auc(exact_pairs):.4f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
