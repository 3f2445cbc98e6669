"""How close to knocking the hands Hard deals the other player are, against its true hand.

Hard's knock search and play-outs deal the other hand from the card weights,
tidied as a hand a player has been choosing into (``choosiness``: so many
extra cards a turn, the least useful thrown away) and kept when it fits what
that player did (``silence``: a player who knocks at once never sits on a
knock). This plays single hands of Hard (seat 0) against an opponent, the
reading bench's deals, and at each of Hard's throws compares the other
player's true hand with hands dealt at several tidying rates: the mean
deadwood, and the chance that its next draw lets it knock (over the cards Hard
has not seen, the true hand's stock among them)::

    .venv/bin/python bench/bench_closeness.py --opponent simple --read-as knocker

``--read-as`` is what Hard is taken to know of the other player from a
match's earlier hands (``knocker``: it knocks whenever it can, so a dealt hand
within the knock limit is dealt again; ``camper``: only in its first turns;
``none``: a match's first hand). A rate at which the dealt hands are as close
to knocking as the true hands is the one the play-outs should deal with.
Each hand is dealt from its number; tune on one range and report on another.
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import replace

from bench_reading import plays

from ginrummy.bots._common import bits, deadwood_of, decision_rng, read_record
from ginrummy.bots._reading import read_table, sample_opponent
from ginrummy.bots.hard import hard_variant
from ginrummy.cards import Bitmask
from ginrummy.melds import deadwood_after_discard_mask

STYLES = {"knocker": (0, 1), "camper": (1, 0), "none": (0, 0)}
"""``--read-as`` as :func:`ginrummy.bots.hard.knocking_style` would find it: (hands in
which the other player passed up a late knock, hands in which it knocked late)."""


def knock_chance(hand: Bitmask, unseen: Bitmask, limit: int, ace_high: bool) -> float:
    """The share of the unseen cards not in ``hand`` whose draw lets ``hand`` knock."""
    draws = bits(unseen & ~hand)
    if not draws:
        return 0.0
    knocks = sum(deadwood_after_discard_mask(hand | 1 << c, ace_high) <= limit for c in draws)
    return knocks / len(draws)


def closeness(
    opponent: str, hands: int, seed_start: int, read_as: str, rates: list[float], guesses: int
) -> dict[int, dict[str, list[float]]]:
    """By the other player's turns (the last band: 11 and more): the true hands' and
    each rate's dealt hands' deadwood (``dw``, ``dw<rate>``) and knock chance (``kn``,
    ``kn<rate>``), one value a throw of Hard's (the dealt hands' means)."""
    bot = hard_variant("", 1)
    style = STYLES[read_as]
    configs = {rate: replace(bot.config, rollout_choosiness=rate) for rate in rates}
    rows: dict[int, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for view, truth, _ in plays(opponent, hands, seed_start):
        record = read_record(view)
        if record.opp_turns < 1:
            continue
        reading = read_table(view, record)
        fits = bot._fits(view, record, reading, style)
        limit, ace_high, unseen = view.knock_limit, reading.ace_high, reading.unseen
        row = rows[min(record.opp_turns, 11)]
        row["dw"].append(deadwood_of(truth, ace_high))
        row["kn"].append(knock_chance(truth, unseen, limit, ace_high))
        for rate in rates:
            rng = decision_rng(1, view, "closeness")
            extra = configs[rate].tidying(record.opp_turns, playouts=True)
            dealt = [sample_opponent(reading, rng, extra, fits) for _ in range(guesses)]
            row[f"dw{rate}"].append(sum(deadwood_of(h, ace_high) for h in dealt) / guesses)
            chances = [knock_chance(h, unseen, limit, ace_high) for h in dealt]
            row[f"kn{rate}"].append(sum(chances) / guesses)
    return rows


def main(argv: list[str] | None = None) -> int:
    """Print the table of deadwood and knock chances by the other player's turns."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--opponent", default="simple")
    p.add_argument("--hands", type=int, default=150)
    p.add_argument("--seed-start", type=int, default=20001)
    p.add_argument("--read-as", choices=sorted(STYLES), default="knocker")
    p.add_argument("--rates", default="0,0.35,0.5,0.7,1.0", help="tidying rates, ',' between")
    p.add_argument("--guesses", type=int, default=32, help="hands dealt a throw at each rate")
    args = p.parse_args(argv)
    rates = [float(r) for r in args.rates.split(",")]
    rows = closeness(args.opponent, args.hands, args.seed_start, args.read_as, rates, args.guesses)
    last = args.seed_start + args.hands - 1
    print(
        f"{args.opponent} read as {args.read_as}, hands {args.seed_start} to {last}, "
        f"{args.guesses} dealt hands a throw at each rate"
    )
    head = ["their turns", "throws", "true deadwood"]
    head += [f"dealt at {r}" for r in rates]
    head += ["true knock chance"] + [f"at {r}" for r in rates]
    print("| " + " | ".join(head) + " |")
    print("|" + "---|" * len(head))
    for band, row in sorted(rows.items()):
        n = len(row["dw"])
        cells = [f"{band}+" if band == 11 else str(band), str(n), f"{sum(row['dw']) / n:.1f}"]
        cells += [f"{sum(row[f'dw{r}']) / n:.1f}" for r in rates]
        cells += [f"{sum(row['kn']) / n:.3f}"]
        cells += [f"{sum(row[f'kn{r}']) / n:.3f}" for r in rates]
        print("| " + " | ".join(cells) + " |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
