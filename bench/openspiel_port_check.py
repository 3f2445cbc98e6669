"""Check the ``openspiel`` bot (a port) against OpenSpiel's own bot, decision by decision.

Needs the optional bench dependency ``open-spiel``. Two checks:

1. OpenSpiel's best meld group and deadwood count (``GinRummyUtils``) against
   the port's, on random hands of ten and eleven cards, most of them drawn
   from a few ranks so that melds overlap and the search's order matters;
2. whole matches in which every decision of one seat is asked of both the
   port and ``bench/openspiel_bot.py`` (OpenSpiel's bot behind the arena's
   bot protocol); the wrapper's action is played, and every decision where
   the two differ is counted and the first few shown::

    .venv/bin/python bench/openspiel_port_check.py --hands 50000 --matches 40 --against simple

It exits with 1 when anything differs.
"""

from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

import pyspiel

from ginrummy.arena import ExternalBot, build_bot
from ginrummy.bots import Bot
from ginrummy.bots.openspiel import OpenSpielBot, best_meld_group, min_deadwood
from ginrummy.hand import Action, PlayerView, shuffled_deck
from ginrummy.match import Match
from ginrummy.settings import KnockMode, Settings

WRAPPER = f"{sys.executable} {Path(__file__).with_name('openspiel_bot.py')}"


def check_hands(count: int, seed: int) -> int:
    """How many random hands the port's meld group or deadwood gets wrong."""
    utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10)
    rng = random.Random(seed)
    wrong = 0
    for _ in range(count):
        size = rng.choice((10, 11))
        ranks = rng.sample(range(13), rng.choice((3, 4, 5, 13)))
        pool = [s * 13 + r for s in range(4) for r in ranks]
        hand = rng.sample(pool if len(pool) >= size else range(52), size)
        ours = [sorted(m) for m in best_meld_group(frozenset(hand))]
        theirs = [sorted(m) for m in utils.best_meld_group(hand)]
        ours_dw, theirs_dw = min_deadwood(frozenset(hand)), utils.min_deadwood(hand)
        if ours != theirs or ours_dw != theirs_dw:
            wrong += 1
            if wrong <= 5:
                print(
                    f"  hand {sorted(hand)}: port {ours} {ours_dw}, OpenSpiel {theirs} {theirs_dw}"
                )
    return wrong


class Twin:
    """Asks the port and the wrapper; plays the wrapper's answer, notes every difference."""

    name = "openspiel-twin"

    def __init__(self, seed: int) -> None:
        self.port = OpenSpielBot(seed)
        self.real = ExternalBot(WRAPPER, seed)
        self.decisions = 0
        self.differ: list[str] = []

    def start_match(self, player: int, settings: Settings, seed: int) -> None:
        self.real.start_match(player, settings, seed)

    def hand_over(self, view: PlayerView) -> None:
        self.real.hand_over(view)

    def choose(self, view: PlayerView) -> Action:
        real = self.real.choose(view)
        port = self.port.choose(view)
        self.decisions += 1
        if port != real:
            hand = " ".join(str(c) for c in view.hand)
            self.differ.append(
                f"hand {hand}, pile {view.top_of_pile}: port {port}, OpenSpiel {real}"
            )
        return real


def check_matches(count: int, against: str, seed: int, settings: Settings) -> tuple[int, int]:
    """Decisions asked and decisions that differed over ``count`` matches."""
    twin = Twin(seed)
    for i in range(count):
        other = build_bot(against, seed + i)
        seat = i % 2
        bots: list[Bot] = [twin, other] if seat == 0 else [other, twin]
        twin.start_match(seat, settings, seed + i)
        match = Match.start(
            shuffled_deck(random.Random(f"{seed}/{i}")), first_dealer=i // 2 % 2, settings=settings
        )
        rng = random.Random(f"{seed}/{i}/decks")
        while True:
            while not match.hand.is_over:
                player = match.hand.to_act or 0
                match.apply(bots[player].choose(match.view(player)))
            twin.hand_over(match.view(seat))
            if match.is_over:
                break
            match.next_hand(shuffled_deck(rng))
        print(f"  match {i + 1}/{count}: {twin.decisions} decisions, {len(twin.differ)} differ")
    decisions, differ = twin.decisions, len(twin.differ)
    for line in twin.differ[:5]:
        print("  " + line)
    twin.real.close()
    return decisions, differ


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=50_000, help="random hands (check 1)")
    parser.add_argument("--matches", type=int, default=40, help="matches to 100 (check 2)")
    parser.add_argument("--against", default="simple", help="the other seat's arena bot")
    parser.add_argument("--oklahoma", action="store_true", help="play Oklahoma")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    settings = Settings(knocking=KnockMode.OKLAHOMA) if args.oklahoma else Settings()
    wrong = check_hands(args.hands, args.seed)
    print(f"meld groups and deadwood: {wrong} of {args.hands} hands differ")
    decisions, differ = check_matches(args.matches, args.against, args.seed, settings)
    print(
        f"decisions: {differ} of {decisions} differ ({args.matches} matches against {args.against})"
    )
    return 1 if wrong or differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
