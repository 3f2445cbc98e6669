"""Hard's throws judged from the whole table.

    .venv/bin/python bench/bench_throw_labels.py [--opponent camper]
        [--seed-start 8751] [--seeds 30] [--shuffles 6] [--out FILE.jsonl]

The companion of ``bench/bench_knock_labels.py`` for the throw. It plays the
arena's matches (Hard in both seats) and stops at every plain throw of Hard's.
The candidates are Hard's throw, the best throw by Hard's evaluation alone
(without the play-outs), the throw that leaves the least deadwood and the next
two by the evaluation. The table is copied ``--shuffles`` times, the stock
shuffled anew in each copy, and every candidate is played on from the same
copies by the same two bots to the end of the hand; its value is the mean of
the hand's points for Hard.

The table gives, by how Hard reads the other player and by its turn:

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
import json
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from bench_knock_labels import TURNS, play_on, read_of, reshuffled

from ginrummy.arena import _decks, _notify, _seat_bots
from ginrummy.bots._common import deadwood_of, discard_cards, read_record
from ginrummy.bots.hard import HardBot
from ginrummy.cards import FULL_DECK
from ginrummy.hand import Discard, Phase, PlayerView
from ginrummy.match import Match
from ginrummy.settings import Settings

MAX_HANDS = 60
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


def label_match(opponent: str, seed: int, seat: int, shuffles: int) -> list[ThrowLabel]:
    """Every throw label of one match, Hard in ``seat``."""
    first, decks = _decks(seed)
    bots = _seat_bots(("hard", opponent), seed, seat, Settings(), {})
    hard = bots[seat]
    assert isinstance(hard, HardBot)
    rng = random.Random(f"throw-labels/{seed}/{seat}")
    match = Match.start(next(decks), first_dealer=first)
    labels: list[ThrowLabel] = []
    hands = 0
    while True:
        while not match.hand.is_over:
            player = match.hand.to_act or 0
            view = match.view(player)
            action = bots[player].choose(view)
            if player == seat and view.phase is Phase.DISCARD and isinstance(action, Discard):
                chosen = FULL_DECK.index(action.card)
                top, least, cards = candidates(hard, view, chosen)
                if len(cards) > 1:
                    values: dict[int, list[int]] = {c: [] for c in cards}
                    for _ in range(shuffles):
                        base = reshuffled(match, rng)
                        for c in cards:
                            fork = copy.deepcopy(base)
                            fork.apply(Discard(FULL_DECK[c]))
                            values[c].append(play_on(fork, bots, seat))
                    labels.append(
                        ThrowLabel(
                            seed=seed,
                            seat=seat,
                            hand=hands,
                            turn=read_record(view).my_turns,
                            read=read_of(view),
                            chosen=chosen,
                            top=top,
                            least=least,
                            values={c: tuple(v) for c, v in values.items()},
                        )
                    )
            match.apply(action)
        hands += 1
        _notify(bots, [match.view(0), match.view(1)])
        if match.is_over or hands >= MAX_HANDS:
            return labels
        match.next_hand(next(decks))


def _mean_ci(values: Sequence[float]) -> str:
    n = len(values)
    if n < 2:
        return "–"
    mean = sum(values) / n
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    half = 1.96 * spread / math.sqrt(n)
    return f"{mean:+.2f} ({mean - half:+.2f} to {mean + half:+.2f}), {n:,}"


def table(labels: Sequence[ThrowLabel]) -> str:
    """The figures per (read, turns) and for all throws."""
    groups: dict[tuple[str, str], list[ThrowLabel]] = defaultdict(list)
    for label in labels:
        band = next(name for name, low, high in TURNS if low <= label.turn <= high)
        groups[(label.read, band)].append(label)
        groups[("all", "all")].append(label)
    lines = [
        "| the other player read as | turns | throws | regret, points (95% CI) "
        "| Hard's less the evaluation's best, where they differ (95% CI), throws "
        "| Hard's less the least deadwood, where they differ (95% CI), throws |",
        "|---|---|---|---|---|---|",
    ]
    for (read, band), group in sorted(groups.items()):
        regret = _mean_ci([g.regret() for g in group])
        by_top = _mean_ci([g.mean(g.chosen) - g.mean(g.top) for g in group if g.top != g.chosen])
        by_least = _mean_ci(
            [g.mean(g.chosen) - g.mean(g.least) for g in group if g.least != g.chosen]
        )
        lines.append(f"| {read} | {band} | {len(group):,} | {regret} | {by_top} | {by_least} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--opponent", default="camper")
    parser.add_argument("--seed-start", type=int, default=8751)
    parser.add_argument("--seeds", type=int, default=30, help="seeds, each played in both seats")
    parser.add_argument("--shuffles", type=int, default=6, help="copies played on per throw")
    parser.add_argument("--out", type=Path, help="write every label as a JSON line")
    args = parser.parse_args(argv)
    labels: list[ThrowLabel] = []
    started = time.perf_counter()
    out = args.out.open("w") if args.out else None
    try:
        for i, seed in enumerate(range(args.seed_start, args.seed_start + args.seeds)):
            for seat in (0, 1):
                found = label_match(args.opponent, seed, seat, args.shuffles)
                labels += found
                if out is not None:
                    for label in found:
                        row = asdict(label)
                        row["values"] = {str(c): v for c, v in label.values.items()}
                        out.write(json.dumps(row) + "\n")
                    out.flush()
            elapsed = time.perf_counter() - started
            print(
                f"\r{i + 1}/{args.seeds} seeds, {len(labels)} throws, {elapsed:.0f}s",
                end="",
                file=sys.stderr,
            )
    finally:
        if out is not None:
            out.close()
    print(file=sys.stderr)
    print(f"hard against {args.opponent}, seeds {args.seed_start} on, both seats:")
    print(table(labels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
