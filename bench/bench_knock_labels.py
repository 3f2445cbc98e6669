"""Hard's knock decisions judged from the true state of the table.

    .venv/bin/python bench/bench_knock_labels.py [--opponent camper] [--bot hard]
        [--seed-start 8751] [--seeds 150] [--shuffles 4] [--out FILE.jsonl]

Plays the arena's matches (the same deals as ``ginrummy arena`` for the same
seeds, the first bot in both seats) and stops at every turn in which the first
bot could knock short of gin. Two values are then measured from the whole
table, which no player sees:

- the knock: the hand is copied and the knock made in the copy (the card that
  leaves the least deadwood; the bot's own knock when it knocked); the engine
  lays both hands down, so its points are exact;
- going on: the hand is copied ``--shuffles`` times, the cards neither player
  has seen (the stock) shuffled anew in each copy, and the bot's throw (when it
  knocked, the throw it makes when it may not knock: Hard with no knocking
  turns, no ``score`` and no ``wall``) is followed by the same two bots playing
  the hand to its end.

Knock minus going on, from the bot's side and in points of the hand (a dead
hand is 0), says whether the knock was worth making there. The real match then
goes on as the bot chose. The table groups the turns by how the bot reads the
other player (a camper, a player who knocks at once, or not known: the match's
first hands), by whether it knocked, by its turn and by the deadwood the knock
would leave; each row gives the mean difference with its 95% interval.

A hand's points are not the match: near the end of a match a knock that wins
fewer points may still be the one to make. The rows say where the knock and
going on differ in points, not which wins more matches; the arena says that.
"""

from __future__ import annotations

import argparse
import contextlib
import copy
import json
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, TypeVar

from ginrummy.arena import _decks, _notify, _seat_bots, mean_ci
from ginrummy.bots import Bot
from ginrummy.bots._common import deadwood_of, knock_cards, read_record
from ginrummy.bots.hard import HardBot, HardConfig, knocking_style
from ginrummy.cards import FULL_DECK, mask_of
from ginrummy.hand import Action, Knock, Phase, PlayerView
from ginrummy.match import Match
from ginrummy.settings import Settings

TURNS: tuple[tuple[str, int, int], ...] = (
    ("1-3", 1, 3),
    ("4-6", 4, 6),
    ("7-9", 7, 9),
    ("10+", 10, 99),
)
DEADWOOD: tuple[tuple[str, int, int], ...] = (("1-3", 1, 3), ("4-6", 4, 6), ("7-10", 7, 10))
MAX_HANDS = 60
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Label:
    """One turn in which the bot could knock short of gin."""

    seed: int
    seat: int
    hand: int
    turn: int
    deadwood: int
    read: str
    """How the bot reads the other player: ``camper``, ``knocker`` or ``unknown``."""
    knocked: bool
    knock: int
    """The knock's points for the bot (negative when undercut)."""
    going_on: tuple[int, ...]
    """The hand's points for the bot in each copy played on."""

    @property
    def gain(self) -> float:
        """Knock minus the mean of going on."""
        return self.knock - sum(self.going_on) / len(self.going_on)


def hand_points(match: Match, me: int) -> int:
    """The ended hand's points for ``me`` (negative when the other player scored)."""
    result = match.hand.result
    assert result is not None
    if result.winner is None:
        return 0
    return result.points if result.winner == me else -result.points


def reshuffled(match: Match, rng: random.Random) -> Match:
    """A copy of ``match`` with the cards still in the stock in a new order."""
    fork = copy.deepcopy(match)
    hand = fork.hand
    drawn = 52 - hand.stock_count
    rest = list(hand.deck[drawn:])
    rng.shuffle(rest)
    hand.deck = hand.deck[:drawn] + tuple(rest)
    return fork


def play_on(fork: Match, bots: Sequence[Bot], me: int) -> int:
    """Play the copy's hand to its end; its points for ``me``."""
    while not fork.hand.is_over:
        player = fork.hand.to_act or 0
        fork.apply(bots[player].choose(fork.view(player)))
    return hand_points(fork, me)


def no_knocking(bot: Bot, seed: int) -> Bot:
    """The throw the bot makes when it may not knock (Hard only; others as they are)."""
    if not isinstance(bot, HardBot):
        return bot
    quiet = replace(bot.config, early_turns=0, camp_turns=0, score=False, wall=False)
    return HardBot(seed, quiet)


def read_of(view: PlayerView) -> str:
    """How Hard reads the other player from the match's earlier hands."""
    passed, late = knocking_style(view, HardConfig().early_turns)
    if passed > late:
        return "camper"
    if late > passed:
        return "knocker"
    return "unknown"


def label_turn(
    match: Match,
    view: PlayerView,
    action: Action,
    bots: Sequence[Bot],
    quiet: Bot,
    rng: random.Random,
    shuffles: int,
    where: tuple[int, int, int],
) -> Label | None:
    """The label of this turn, or ``None`` when no knock short of gin is open."""
    knocks = knock_cards(view)
    if not knocks:
        return None
    held = mask_of(view.hand)
    ace_high = view.settings.ace_high
    left = {c: deadwood_of(held & ~(1 << c), ace_high) for c in knocks}
    least = min(left.values())
    if least == 0:
        return None
    me = view.player
    knocked = isinstance(action, Knock)
    knock_action = (
        action if knocked else Knock(FULL_DECK[min(c for c in knocks if left[c] == least)])
    )
    go_on = quiet.choose(view) if knocked else action
    if isinstance(go_on, Knock):
        return None
    made = copy.deepcopy(match)
    made.apply(knock_action)
    values = []
    for _ in range(shuffles):
        fork = reshuffled(match, rng)
        fork.apply(go_on)
        values.append(play_on(fork, bots, me))
    seed, seat, hand = where
    return Label(
        seed=seed,
        seat=seat,
        hand=hand,
        turn=read_record(view).my_turns,
        deadwood=least,
        read=read_of(view),
        knocked=knocked,
        knock=hand_points(made, me),
        going_on=tuple(values),
    )


Watch = Callable[[Match, PlayerView, Action, int], None]
"""Called before each action of the first bot is applied: the table, the view, the
action and the number of the hand in the match."""


def play_watched(bots: Sequence[Bot], seed: int, seat: int, watch: Watch) -> None:
    """Play the arena's match for ``seed`` between ``bots`` (by seat), showing each action
    of the bot in ``seat`` to ``watch`` before it is applied."""
    first, decks = _decks(seed)
    match = Match.start(next(decks), first_dealer=first)
    hands = 0
    while True:
        while not match.hand.is_over:
            player = match.hand.to_act or 0
            view = match.view(player)
            action = bots[player].choose(view)
            if player == seat:
                watch(match, view, action, hands)
            match.apply(action)
        hands += 1
        _notify(bots, [match.view(0), match.view(1)])
        if match.is_over or hands >= MAX_HANDS:
            return
        match.next_hand(next(decks))


def label_match(spec: str, opponent: str, seed: int, seat: int, shuffles: int) -> list[Label]:
    """Every label of one match, the first bot in ``seat``."""
    bots = _seat_bots((spec, opponent), seed, seat, Settings(), {})
    quiet = no_knocking(bots[seat], seed * 2)
    rng = random.Random(f"knock-labels/{seed}/{seat}")
    labels: list[Label] = []

    def watch(match: Match, view: PlayerView, action: Action, hand: int) -> None:
        if view.phase is Phase.DISCARD:
            where = (seed, seat, hand)
            label = label_turn(match, view, action, bots, quiet, rng, shuffles, where)
            if label is not None:
                labels.append(label)

    play_watched(bots, seed, seat, watch)
    return labels


def band(value: int, bands: tuple[tuple[str, int, int], ...]) -> str:
    """The name of the band ``value`` falls in."""
    return next(name for name, low, high in bands if low <= value <= high)


def table(labels: Sequence[Label]) -> str:
    """The mean gain of the knock per (read, knocked, turns, deadwood), with its interval."""
    groups: dict[tuple[str, bool, str, str], list[float]] = defaultdict(list)
    for label in labels:
        key = (label.read, label.knocked, band(label.turn, TURNS), band(label.deadwood, DEADWOOD))
        groups[key].append(label.gain)
    lines = [
        "| the other player read as | knocked | turns | deadwood | turns seen "
        "| knock less going on, points (95% CI) |",
        "|---|---|---|---|---|---|",
    ]
    for key in sorted(groups):
        gains = groups[key]
        mean, (low, high) = mean_ci(gains)
        read, knocked, turns, dead = key
        lines.append(
            f"| {read} | {'yes' if knocked else 'no'} | {turns} | {dead} | {len(gains)} "
            f"| {mean:+.1f} ({low:+.1f} to {high:+.1f}) |"
        )
    return "\n".join(lines)


def seed_arguments(parser: argparse.ArgumentParser, seeds: int, shuffles: int) -> None:
    """The options every label bench takes."""
    parser.add_argument("--opponent", default="camper")
    parser.add_argument("--seed-start", type=int, default=8751)
    parser.add_argument("--seeds", type=int, default=seeds, help="seeds, each in both seats")
    parser.add_argument("--shuffles", type=int, default=shuffles, help="copies played on")
    parser.add_argument("--out", type=Path, help="write every label as a JSON line")


def label_seeds(
    seeds: range,
    label: Callable[[int, int], list[T]],
    out: Path | None,
    row: Callable[[T], dict[str, Any]],
    noun: str,
) -> list[T]:
    """``label(seed, seat)`` for every seed in both seats, each label written as a JSON
    line to ``out``, with a line of progress on standard error."""
    labels: list[T] = []
    started = time.perf_counter()
    with out.open("w") if out else contextlib.nullcontext() as stream:
        for i, seed in enumerate(seeds):
            for seat in (0, 1):
                found = label(seed, seat)
                labels += found
                if stream is not None:
                    stream.writelines(json.dumps(row(item)) + "\n" for item in found)
                    stream.flush()
            elapsed = time.perf_counter() - started
            print(
                f"\r{i + 1}/{len(seeds)} seeds, {len(labels)} {noun}, {elapsed:.0f}s",
                end="",
                file=sys.stderr,
            )
    print(file=sys.stderr)
    return labels


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--bot", default="hard", help="the bot whose knocks are judged")
    seed_arguments(parser, seeds=150, shuffles=4)
    args = parser.parse_args(argv)
    seeds = range(args.seed_start, args.seed_start + args.seeds)

    def label(seed: int, seat: int) -> list[Label]:
        return label_match(args.bot, args.opponent, seed, seat, args.shuffles)

    labels = label_seeds(seeds, label, args.out, asdict, "turns")
    print(f"{args.bot} against {args.opponent}, seeds {args.seed_start} on, both seats:")
    print(table(labels))
    return 0


if __name__ == "__main__":
    sys.exit(main())
