"""How often a knock wins at each stage of the hand against Hard.

    .venv/bin/python bench/bench_knock_stage.py [--hands N] [--seed S] [--jobs J] [--out FILE]

The strategy guide says "knock early; knock later only with less". This
measures it with the engine and the bots. Each hand is dealt from a seeded
deck and played by two bots: Hard, and a prober that plays like Hard but
never knocks (it still goes gin). Whenever the prober has drawn and could
knock, the hand is copied once for each deadwood count its throws can leave
(1 to 10) and the knock is made in the copy: the engine lays the hands down,
Hard lays off what it can, and the copy's result (the knock won, or it was
undercut) is one sample. The real hand then goes on as the prober chose, until
Hard knocks or goes gin, the prober goes gin, or the hand is dead.

A sample's stage is the prober's turn number (its first turn is the one in
which it took the upcard or first drew), so "a knock with 8 in turns 7 to 9
wins 61%" reads: of the times the prober could knock with exactly 8 in its
seventh to ninth turn, the knock won that often. Later stages only hold hands
Hard had not ended yet, which is the question a player at the table has.

The figures go to stdout as a table and, with ``--out``, to a JSON file that
the strategy page reads (``ginrummy/web/static/learn/knock-stage.json``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ginrummy.bots import Bot, make_bot
from ginrummy.cards import Card
from ginrummy.hand import Action, Discard, Hand, Knock, Phase, shuffled_deck

STAGES: tuple[tuple[str, int, int], ...] = (
    ("turns 1-3", 1, 3),
    ("turns 4-6", 4, 6),
    ("turns 7-9", 7, 9),
    ("turn 10 on", 10, 99),
)
"""The stages of the hand, by the knocker's turn number (first, last)."""
COUNTS = tuple(range(1, 11))
"""The deadwood counts a knock is tried with."""
PROBER = 0
"""The seat of the bot whose knocks are tried; Hard sits in the other."""


@dataclass
class Tally:
    """Samples for one (stage, count): how many knocks, how many won, net points."""

    knocks: int = 0
    wins: int = 0
    points: int = 0

    def add(self, other: Tally) -> None:
        """Add another tally's samples to this one."""
        self.knocks += other.knocks
        self.wins += other.wins
        self.points += other.points


@dataclass
class Batch:
    """The samples of some hands, keyed by (stage index, deadwood count)."""

    hands: int = 0
    tallies: dict[tuple[int, int], Tally] = field(default_factory=dict)

    def tally(self, stage: int, count: int) -> Tally:
        """The tally for ``stage`` and ``count``, made on first use."""
        return self.tallies.setdefault((stage, count), Tally())

    def add(self, other: Batch) -> None:
        """Add another batch's hands and samples."""
        self.hands += other.hands
        for key, t in other.tallies.items():
            self.tally(*key).add(t)


def stage_of(turn: int) -> int:
    """The index in :data:`STAGES` of the knocker's turn number ``turn``."""
    for i, (_, first, last) in enumerate(STAGES):
        if first <= turn <= last:
            return i
    raise ValueError(f"no stage holds turn {turn}")


def _without_knock(action: Action, hand: Hand) -> Action:
    """The prober's move: Hard's, except that a knock short of gin becomes a discard."""
    if isinstance(action, Knock) and hand.knock_options()[action.card] > 0:
        return Discard(action.card)
    return action


def _probe(hand: Hand, stage: int, batch: Batch) -> None:
    """Try, in copies of ``hand``, a knock leaving each count the prober's throws allow."""
    limit = hand.knock_limit
    by_count: dict[int, Card] = {}
    for card, left in hand.knock_options().items():
        if 1 <= left <= limit and left in COUNTS:
            best = by_count.get(left)
            # Among throws that leave the same count, throw the highest card.
            if best is None or (card.points, int(card)) > (best.points, int(best)):
                by_count[left] = card
    for left, card in by_count.items():
        trial = hand.clone()
        trial.apply(Knock(card))
        result = trial.result
        assert result is not None and result.knocker == PROBER
        t = batch.tally(stage, left)
        t.knocks += 1
        won = result.winner == PROBER
        t.wins += won
        t.points += result.points if won else -result.points


def play(seed: int, base: str) -> Batch:
    """One hand from ``seed``: the prober against Hard, with every knock it could make tried."""
    rng = random.Random(f"{base}/{seed}")
    hand = Hand.deal(shuffled_deck(rng), dealer=seed % 2)
    bots: list[Bot] = [make_bot("hard", seed=2 * seed), make_bot("hard", seed=2 * seed + 1)]
    batch = Batch(hands=1)
    turns = 0
    while not hand.is_over:
        player = hand.to_act
        assert player is not None
        if player == PROBER and hand.phase is Phase.DISCARD:
            turns += 1
            _probe(hand, stage_of(turns), batch)
        action = bots[player].choose(hand.view(player))
        if player == PROBER:
            action = _without_knock(action, hand)
        hand.apply(action)
    return batch


def _job(args: tuple[int, str]) -> Batch:
    return play(*args)


def run(hands: int, seed: str, jobs: int) -> Batch:
    """Play ``hands`` hands (on ``jobs`` processes) and add up their samples."""
    total = Batch()
    work = [(i, seed) for i in range(hands)]
    if jobs <= 1:
        for w in work:
            total.add(_job(w))
        return total
    with multiprocessing.Pool(jobs) as pool:
        for b in pool.imap_unordered(_job, work, chunksize=20):
            total.add(b)
    return total


def _commit() -> str | None:
    """The git commit the engine and bots were measured at (None outside a checkout)."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=Path(__file__).resolve().parent,
            capture_output=True,
            text=True,
            check=True,
        )
        dirty = subprocess.run(
            [
                "git",
                "status",
                "--porcelain",
                "--",
                "ginrummy/bots",
                "ginrummy/melds.py",
                "ginrummy/hand.py",
            ],
            cwd=Path(__file__).resolve().parents[1],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return None
    return out.stdout.strip() + ("+changes" if dirty.stdout.strip() else "")


def report(batch: Batch, seed: str, seconds: float, commit: str | None = None) -> dict[str, Any]:
    """The figures as the strategy page reads them (``commit``: what was measured)."""
    rows = []
    for i, (label, first, last) in enumerate(STAGES):
        cells = []
        for count in COUNTS:
            t = batch.tallies.get((i, count), Tally())
            cells.append(
                {
                    "count": count,
                    "knocks": t.knocks,
                    "wins": t.wins,
                    "win_rate": round(t.wins / t.knocks, 3) if t.knocks else None,
                    "mean_points": round(t.points / t.knocks, 1) if t.knocks else None,
                }
            )
        rows.append({"stage": label, "first_turn": first, "last_turn": last, "cells": cells})
    return {
        "hands": batch.hands,
        "opponent": "hard",
        "seed": seed,
        "seconds": round(seconds, 1),
        "commit": commit,
        "method": (
            "Each hand is played by Hard and a prober that plays like Hard but never "
            "knocks; every knock the prober could make is tried in a copy of the hand."
        ),
        "stages": rows,
    }


def print_table(data: dict[str, Any]) -> None:
    """The win rates as a table: a row per stage, a column per deadwood count."""
    print(f"Knocks against Hard, {data['hands']} hands (seed {data['seed']!r}):")
    print("win rate (knocks tried) by deadwood left")
    print("stage       " + "".join(f"{c:>13}" for c in COUNTS))
    for row in data["stages"]:
        line = f"{row['stage']:<12}"
        for cell in row["cells"]:
            if cell["knocks"]:
                line += f"{cell['win_rate'] * 100:7.0f}% ({cell['knocks']:>3})"
            else:
                line += f"{'-':>13}"
        print(line)


def main(argv: Sequence[str]) -> int:
    """Parse the options, run, print, and write the JSON file if asked."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000, help="hands to play (10000)")
    parser.add_argument("--seed", default="knock-stage", help="seed of the deck orders")
    parser.add_argument("--jobs", type=int, default=2, help="processes (2)")
    parser.add_argument("--out", type=Path, help="write the figures to this JSON file")
    args = parser.parse_args(list(argv))
    commit = _commit()  # before the run: the code that is about to be measured
    start = time.perf_counter()
    batch = run(args.hands, args.seed, args.jobs)
    data = report(batch, args.seed, time.perf_counter() - start, commit)
    print_table(data)
    if args.out is not None:
        args.out.write_text(json.dumps(data, indent=1) + "\n")
        print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
