"""Where each side's points come from: the arena's hands counted by how they ended.

    .venv/bin/python bench/bench_outcomes.py [--bot hard] [--opponent camper]
        [--seed-start 5001] [--seeds 150]

Plays the arena's matches (the same deals as ``ginrummy arena`` for the same
seeds, the first bot in both seats) and counts every hand by how it ended: who
went gin, who knocked and won, whose knock was undercut, and the dead hands.
For each kind it prints the share of all hands, the mean points of such a hand
from the first bot's side, the mean deadwood the losing side was left with
(after lay-offs; none for an undercut or a dead hand) and what the kind adds to
the first bot's points a hand over all hands. The last column sums to the
arena's points a hand for the same seeds.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import partial

from ginrummy.arena import play_match
from ginrummy.hand import HandResult, ResultKind
from ginrummy.settings import Settings

KINDS: tuple[str, ...] = (
    "first gins",
    "first knocks and wins",
    "first knocks, undercut",
    "second gins",
    "second knocks and wins",
    "second knocks, undercut",
    "dead",
)


@dataclass(slots=True)
class Tally:
    """The hands of one kind: how many, their points and the loser's deadwood."""

    hands: int = 0
    points: int = 0
    """Summed from the first bot's side."""
    loser_deadwood: int = 0


@dataclass(slots=True)
class Outcomes:
    """Every hand played, counted by how it ended."""

    tallies: dict[str, Tally] = field(default_factory=lambda: defaultdict(Tally))

    @property
    def hands(self) -> int:
        return sum(t.hands for t in self.tallies.values())

    def add(self, result: HandResult, first_seat: int) -> None:
        """Count one ended hand (``first_seat``: the first bot's seat in it)."""
        if result.kind is ResultKind.DEAD:
            self.tallies["dead"].hands += 1
            return
        side = "first" if result.knocker == first_seat else "second"
        if result.kind is ResultKind.UNDERCUT:
            kind, lost = f"{side} knocks, undercut", 0
        elif result.kind is ResultKind.KNOCK:
            kind, lost = f"{side} knocks and wins", result.defender_points
        else:  # gin and big gin
            kind, lost = f"{side} gins", result.defender_points
        tally = self.tallies[kind]
        tally.hands += 1
        tally.points += result.points if result.winner == first_seat else -result.points
        tally.loser_deadwood += lost

    def rows(self) -> list[tuple[str, int, float, float, float]]:
        """Each kind with hands: (kind, hands, mean points, mean loser's deadwood, what it
        adds to the first bot's points a hand over all hands)."""
        total = self.hands
        table = []
        for kind in KINDS:
            t = self.tallies.get(kind, Tally())
            if not t.hands:
                continue
            table.append(
                (kind, t.hands, t.points / t.hands, t.loser_deadwood / t.hands, t.points / total)
            )
        return table


def count(bots: tuple[str, str], seeds: Sequence[int], settings: Settings) -> Outcomes:
    """Play each seed's two matches (the first bot in each seat) and count their hands."""
    outcomes = Outcomes()
    for seed in seeds:
        for first_seat in (0, 1):
            count_hand = partial(outcomes.add, first_seat=first_seat)
            play_match(bots, seed, first_seat, settings, {}, count_hand)
    return outcomes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bot", default="hard")
    parser.add_argument("--opponent", default="camper")
    parser.add_argument("--seed-start", type=int, default=5001)
    parser.add_argument("--seeds", type=int, default=150)
    args = parser.parse_args(argv)
    seeds = range(args.seed_start, args.seed_start + args.seeds)
    outcomes = count((args.bot, args.opponent), seeds, Settings())
    total = outcomes.hands
    span = f"seeds {seeds[0]}-{seeds[-1]}"
    print(f"{args.bot} (first) vs {args.opponent} (second): {total} hands, {span}")
    print("| how the hand ended | hands | share | points a hand | loser's deadwood | worth |")
    print("|---|---|---|---|---|---|")
    worth = 0.0
    for kind, hands, points, lost, part in outcomes.rows():
        deadwood = "–" if kind == "dead" or "undercut" in kind else f"{lost:.1f}"
        print(
            f"| {kind} | {hands:,} | {100 * hands / total:.1f}% | {points:+.1f} | {deadwood} "
            f"| {part:+.2f} |"
        )
        worth += part
    print(f"| all | {total:,} | 100% | | | {worth:+.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
