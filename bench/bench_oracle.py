"""What knowing the other hand would be worth to Hard: a diagnostic, never a bot.

Hard is played with a reading that knows the other player's ten cards exactly,
in the parts of its play named by ``--parts`` (the rest reads the table as the
app's Hard does), against an opponent, on the same mirrored matches as
``ginrummy arena`` (the same decks and bot seeds for each seed). Given the
arena's JSON of Hard on those seeds, it prints the win share paired seed by
seed, which says where better card reading could gain and how much at most::

    .venv/bin/ginrummy arena hard camper --matches 1000 --seed-start 8751 --json base.json
    .venv/bin/python bench/bench_oracle.py --parts knock --seeds 8751 250 --baseline base.json

The parts: ``all`` (every use of the reading), ``knock`` (the knock search),
``safety`` (the danger of a throw), ``lookahead`` (the live cards of the
one-draw look-ahead), ``take`` (the pile-card decision).
"""

from __future__ import annotations

import argparse
import copy
import json
import math
import sys
from pathlib import Path
from typing import Any

from ginrummy.arena import MAX_HANDS_PER_MATCH, _decks, _seat_bots
from ginrummy.bots import hard
from ginrummy.bots._common import PublicRecord
from ginrummy.bots._reading import Reading
from ginrummy.cards import Bitmask, mask_of
from ginrummy.hand import PlayerView
from ginrummy.match import Match
from ginrummy.settings import Settings

PARTS = ("all", "knock", "safety", "lookahead", "take")


def knowing(reading: Reading, theirs: Bitmask) -> Reading:
    """``reading`` as it would be if the other player's hand ``theirs`` were known."""
    seen = copy.copy(reading)
    held = theirs & reading.unseen
    seen.p_opp = list(reading.p_opp)
    for c in range(52):
        if reading.unseen >> c & 1:
            seen.p_opp[c] = 1.0 if held >> c & 1 else 0.0
    seen.known_opp = reading.known_opp | held
    seen.unseen = reading.unseen & ~held
    seen.opp_unknown = 0
    seen.live = tuple((c, 1.0) for c in range(52) if seen.unseen >> c & 1)
    return seen


class SightedHard(hard.HardBot):
    """The app's Hard, but reading the other hand exactly in ``parts``."""

    def __init__(self, seed: int, parts: frozenset[str]) -> None:
        super().__init__(seed)
        self.parts = parts
        self.theirs: Bitmask = 0
        """The other player's hand, set before every decision by the match loop."""
        self._plain: Reading | None = None
        self._sighted: Reading | None = None

    def _read(self, view: PlayerView, record: PublicRecord) -> Reading:
        plain = super()._read(view, record)
        self._plain, self._sighted = plain, knowing(plain, self.theirs)
        return self._sighted if "all" in self.parts else plain

    def _sight(self, reading: Reading, part: str) -> Reading:
        if part in self.parts and reading is self._plain and self._sighted is not None:
            return self._sighted
        return reading

    def _knock_odds(self, reading: Reading, *args: Any) -> hard.KnockOdds:
        return super()._knock_odds(self._sight(reading, "knock"), *args)

    def _throw_cost(
        self, reading: Reading, card: int, dangers: dict[int, float] | None = None
    ) -> float:
        return super()._throw_cost(self._sight(reading, "safety"), card, dangers)

    def _value(self, reading: Reading, hand: Bitmask, turn: int = 1, draws: int = 1) -> float:
        return super()._value(self._sight(reading, "lookahead"), hand, turn, draws)

    def _wants(self, reading: Reading, hand: Bitmask, top: int, turn: int) -> bool:
        return super()._wants(self._sight(reading, "take"), hand, top, turn)


def play(seed: int, a_seat: int, opponent: str, parts: frozenset[str]) -> bool:
    """One match of the sighted Hard (seat ``a_seat``) against ``opponent``; True if it won."""
    settings = Settings()
    first, decks = _decks(seed)
    bots: list[Any] = _seat_bots(("hard", opponent), seed, a_seat, settings, {})
    sighted = SightedHard(bots[a_seat].seed, parts)
    bots[a_seat] = sighted
    match = Match.start(next(decks), first_dealer=first, settings=settings)
    hands = 0
    while True:
        while not match.hand.is_over:
            view = match.view(match.hand.to_act or 0)
            if view.player == a_seat:
                sighted.theirs = mask_of(match.view(1 - a_seat).hand)
            match.apply(bots[view.player].choose(view))
        hands += 1
        for player, bot in enumerate(bots):
            hook = getattr(bot, "hand_over", None)
            if hook is not None:
                hook(match.view(player))
        if match.is_over or hands >= MAX_HANDS_PER_MATCH:
            break
        match.next_hand(next(decks))
    final = match.final_score()
    return final is not None and final.winner == a_seat


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", default="all", help=f"comma-separated, of {', '.join(PARTS)}")
    parser.add_argument("--opponent", default="camper")
    parser.add_argument("--seeds", nargs=2, type=int, metavar=("FIRST", "COUNT"), required=True)
    parser.add_argument("--baseline", type=Path, help="the arena's JSON of hard on these seeds")
    parser.add_argument("--json", type=Path, help="write the per-seed shares here")
    args = parser.parse_args(argv)
    parts = frozenset(filter(None, args.parts.split(",")))
    if not parts or not parts <= set(PARTS):
        parser.error(f"--parts takes {', '.join(PARTS)}; got {args.parts!r}")
    first, count = args.seeds
    shares: dict[str, float] = {}
    for seed in range(first, first + count):
        shares[str(seed)] = sum(play(seed, a, args.opponent, parts) for a in (0, 1)) / 2
        done = seed - first + 1
        print(f"\r{done}/{count} seeds, {100 * sum(shares.values()) / done:.1f}%", end="")
    print()
    if args.json:
        args.json.write_text(json.dumps({"parts": sorted(parts), "per_seed": shares}))
    share = sum(shares.values()) / len(shares)
    line = f"Hard knowing the other hand in {','.join(sorted(parts))}: {100 * share:.1f}%"
    if args.baseline:
        base = json.loads(args.baseline.read_text())["per_seed"]
        diffs = [shares[k] - base[k][0] for k in shares if k in base]
        mean = sum(diffs) / len(diffs)
        sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, len(diffs) - 1))
        half = 1.96 * sd / math.sqrt(len(diffs))
        plain = sum(base[k][0] for k in shares if k in base) / len(diffs)
        line += (
            f"; Hard on the same {len(diffs)} seeds {100 * plain:.1f}%;"
            f" paired difference {100 * mean:+.1f} ({100 * (mean - half):+.1f} to"
            f" {100 * (mean + half):+.1f})"
        )
    print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
