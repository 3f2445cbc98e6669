"""Hard's throws judged from the whole table.

    .venv/bin/python bench/bench_throw_labels.py [--opponent camper]
        [--seed-start 8751] [--seeds 30] [--shuffles 6] [--out FILE.jsonl] [--variant SPEC]

The companion of ``bench/bench_knock_labels.py`` for the throw. It plays the
arena's matches (Hard in both seats) and stops at every plain throw of Hard's.
The candidates are Hard's throw, the best throw by Hard's evaluation alone
(without the play-outs), the throw that leaves the least deadwood and the next
two by the evaluation. The table is copied ``--shuffles`` times, the stock
shuffled anew in each copy, and every candidate is played on from the same
copies by the same two bots to the end of the hand; its value is the mean of
the hand's points for Hard.

With ``--variant SPEC`` (a ``hard:`` setting, such as ``knocker_choosiness=0.35``) the
candidates are only Hard's throw and the throw Hard so set would make in the same
view, where the two differ; the table then gives what the variant's throw is worth
beside Hard's, where they differ and over all of Hard's throws (a difference of zero
where they agree): a measure of a change to the throw in which only the throws it
changes are played on, each from the same copies both ways. It judges one throw at
a time, the rest of the hand played by Hard; the arena judges the change everywhere
at once.

Otherwise the table gives, by how Hard reads the other player and by its turn:

- Hard's throw less the evaluation's best, where they differ: what the
  play-outs' changes of the evaluation's choice are worth;
- Hard's throw less the least-deadwood throw, where they differ;
- the regret: the best candidate picked on half the copies and judged on the
  other half (and the other way round), less Hard's throw. Picking on one half
  and judging on the other keeps the luck of the copies out of the pick; the
  pick still sees the other hand and the stock's cards, which no player sees,
  so the regret is what knowing the table is worth in the throw among these
  candidates, not what a better evaluation could win.
"""

from __future__ import annotations

import argparse
import copy
import random
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from bench_knock_labels import (
    TURNS,
    band,
    label_seeds,
    play_on,
    play_watched,
    read_of,
    reshuffled,
    seed_arguments,
)

from ginrummy.arena import _seat_bots, mean_ci
from ginrummy.bots._common import deadwood_of, discard_cards, read_record
from ginrummy.bots.hard import HardBot, hard_variant
from ginrummy.cards import FULL_DECK
from ginrummy.hand import Action, Discard, Phase, PlayerView
from ginrummy.match import Match
from ginrummy.settings import Settings

ALSO = 2
"""Candidates beyond Hard's, the evaluation's best and the least deadwood: the next by
the evaluation."""


@dataclass(frozen=True, slots=True)
class ThrowLabel:
    """One of Hard's plain throws and what each candidate came to."""

    seed: int
    seat: int
    hand: int
    turn: int
    read: str
    chosen: int
    top: int
    """The evaluation's best throw, without the play-outs."""
    least: int
    """The throw that leaves the least deadwood."""
    values: dict[int, tuple[int, ...]]
    """Each candidate's points for Hard in each copy (the same copies for all)."""
    variant: int | None = None
    """With ``--variant``: the variant's throw (``chosen`` where the two agree, and then
    nothing is played on)."""

    def mean(self, card: int, start: int = 0, stop: int | None = None) -> float:
        """The candidate's mean over the copies ``start`` to ``stop``."""
        points = self.values[card][start:stop]
        return sum(points) / len(points)

    def regret(self) -> float:
        """The split-half regret of Hard's throw (see the module's docstring)."""
        half = len(self.values[self.chosen]) // 2
        first = max(self.values, key=lambda c: self.mean(c, 0, half))
        second = max(self.values, key=lambda c: self.mean(c, half))
        later = self.mean(first, half) - self.mean(self.chosen, half)
        earlier = self.mean(second, 0, half) - self.mean(self.chosen, 0, half)
        return (later + earlier) / 2


def candidates(hard: HardBot, view: PlayerView, chosen: int) -> tuple[int, int, list[int]]:
    """The evaluation's best throw, the least-deadwood throw, and every candidate."""
    record = read_record(view)
    reading = hard._read(view, record)
    choices = discard_cards(view)
    scored = hard._scored_throws(reading, reading.mine, choices, record.my_turns)
    ace_high = view.settings.ace_high
    held = reading.mine
    least = min(choices, key=lambda c: (deadwood_of(held & ~(1 << c), ace_high), -c))
    top = scored[0][2]
    cards = [chosen, top, least] + [s[2] for s in scored[1 : 1 + ALSO]]
    return top, least, list(dict.fromkeys(cards))


def label_match(
    opponent: str, seed: int, seat: int, shuffles: int, variant: str | None = None
) -> list[ThrowLabel]:
    """Every throw label of one match, Hard in ``seat`` (with ``variant``: Hard's throw
    and the variant's only)."""
    bots = _seat_bots(("hard", opponent), seed, seat, Settings(), {})
    hard = bots[seat]
    assert isinstance(hard, HardBot)
    other = hard_variant(variant, hard.seed) if variant is not None else None
    rng = random.Random(f"throw-labels/{seed}/{seat}")
    labels: list[ThrowLabel] = []

    def watch(match: Match, view: PlayerView, action: Action, hand: int) -> None:
        if view.phase is not Phase.DISCARD or not isinstance(action, Discard):
            return
        chosen = FULL_DECK.index(action.card)
        top, least, cards = candidates(hard, view, chosen)
        theirs = None
        if other is not None:
            act = other.choose(view)
            theirs = FULL_DECK.index(act.card) if isinstance(act, Discard) else chosen
            # Where the two agree nothing is played on: the label counts the throw.
            cards = list(dict.fromkeys([chosen, theirs]))
        elif len(cards) < 2:
            return
        values: dict[int, list[int]] = {c: [] for c in cards}
        for _ in range(shuffles if len(cards) > 1 else 0):
            base = reshuffled(match, rng)
            for c in cards:
                fork = copy.deepcopy(base)
                fork.apply(Discard(FULL_DECK[c]))
                values[c].append(play_on(fork, bots, seat))
        labels.append(
            ThrowLabel(
                seed=seed,
                seat=seat,
                hand=hand,
                turn=read_record(view).my_turns,
                read=read_of(view),
                chosen=chosen,
                top=top,
                least=least,
                values={c: tuple(v) for c, v in values.items()},
                variant=theirs,
            )
        )

    play_watched(bots, seed, seat, watch)
    return labels


def _mean_ci(values: Sequence[float]) -> str:
    if len(values) < 2:
        return "–"
    mean, (low, high) = mean_ci(values)
    return f"{mean:+.2f} ({low:+.2f} to {high:+.2f}), {len(values):,}"


def table(labels: Sequence[ThrowLabel]) -> str:
    """The figures per (read, turns) and for all throws."""
    groups: dict[tuple[str, str], list[ThrowLabel]] = defaultdict(list)
    for label in labels:
        groups[(label.read, band(label.turn, TURNS))].append(label)
        groups[("all", "all")].append(label)
    lines = [
        "| the other player read as | turns | throws | regret, points (95% CI) "
        "| Hard's less the evaluation's best, where they differ (95% CI), throws "
        "| Hard's less the least deadwood, where they differ (95% CI), throws |",
        "|---|---|---|---|---|---|",
    ]
    for (read, turns), group in sorted(groups.items()):
        regret = _mean_ci([g.regret() for g in group])
        by_top = _mean_ci([g.mean(g.chosen) - g.mean(g.top) for g in group if g.top != g.chosen])
        by_least = _mean_ci(
            [g.mean(g.chosen) - g.mean(g.least) for g in group if g.least != g.chosen]
        )
        lines.append(f"| {read} | {turns} | {len(group):,} | {regret} | {by_top} | {by_least} |")
    return "\n".join(lines)


def variant_table(labels: Sequence[ThrowLabel], spec: str) -> str:
    """What the variant's throw is worth beside Hard's, per (read, turns) and for all."""
    groups: dict[tuple[str, str], list[ThrowLabel]] = defaultdict(list)
    for label in labels:
        groups[(label.read, band(label.turn, TURNS))].append(label)
        groups[("all", "all")].append(label)
    lines = [
        f"| the other player read as | turns | throws | `{spec}` throws another card "
        "| its throw less Hard's, where they differ, points (95% CI), throws "
        "| the same over all throws (95% CI), throws |",
        "|---|---|---|---|---|---|",
    ]
    for (read, turns), group in sorted(groups.items()):
        differ = [
            g.mean(g.variant) - g.mean(g.chosen)
            for g in group
            if g.variant is not None and g.variant != g.chosen
        ]
        # Where the two throw the same card the variant is worth nothing more.
        gains = differ + [0.0] * (len(group) - len(differ))
        lines.append(
            f"| {read} | {turns} | {len(group):,} | {len(differ):,} "
            f"| {_mean_ci(differ)} | {_mean_ci(gains)} |"
        )
    return "\n".join(lines)


def _row(label: ThrowLabel) -> dict[str, Any]:
    row = asdict(label)
    row["values"] = {str(c): v for c, v in label.values.items()}
    return row


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    seed_arguments(parser, seeds=30, shuffles=6)
    parser.add_argument("--variant", help="judge this Hard setting's throws beside Hard's")
    args = parser.parse_args(argv)
    seeds = range(args.seed_start, args.seed_start + args.seeds)

    def label(seed: int, seat: int) -> list[ThrowLabel]:
        return label_match(args.opponent, seed, seat, args.shuffles, args.variant)

    labels = label_seeds(seeds, label, args.out, _row, "throws")
    print(
        f"hard against {args.opponent}, seeds {args.seed_start} to "
        f"{args.seed_start + args.seeds - 1}, both seats, {args.shuffles} copies a throw:"
    )
    if args.variant is not None:
        print(variant_table(labels, args.variant))
    else:
        print(table(labels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
