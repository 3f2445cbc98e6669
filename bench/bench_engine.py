"""Engine throughput, side by side with OpenSpiel (C++) and RLCard (pure Python).

Run ``.venv/bin/python bench/bench_engine.py [--hands N] [--repeat R]``. Every
engine sees the same fixed seeded hands; each figure is the best of ``R`` timed
passes over them (calls per second), kept chunk by chunk; our chunks and
OpenSpiel's take turns, so load from other work on the machine falls on both.
The script first checks that all three engines agree on the deadwood of every
ten-card hand and prints any disagreement. OpenSpiel and RLCard are optional:
without them only our figures are printed.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ginrummy.cards import FULL_DECK, Card, CardSet
from ginrummy.melds import (
    best_arrangement,
    deadwood,
    deadwood_after_discard,
)

try:
    import pyspiel
except ImportError:  # optional bench dependency
    pyspiel = None

try:
    from rlcard.games.base import Card as RLCard
    from rlcard.games.gin_rummy.utils import melding as rl_melding
    from rlcard.games.gin_rummy.utils import utils as rl_utils
except ImportError:  # optional bench dependency
    RLCard = None

Hand10 = list[int]


# --- The hands ------------------------------------------------------------------


def random_hands(rng: random.Random, count: int, size: int) -> list[Hand10]:
    return [rng.sample(range(52), size) for _ in range(count)]


def dense_hands(rng: random.Random, count: int, size: int) -> list[Hand10]:
    """Cards from four neighbouring ranks: runs and sets overlap everywhere."""
    hands = []
    for _ in range(count):
        low = rng.randrange(10)
        pool = [suit * 13 + low + k for suit in range(4) for k in range(4)]
        hands.append(rng.sample(pool, size))
    return hands


# --- Each engine's calls, on its own card encoding --------------------------------


def to_openspiel(card: int) -> int:
    """OpenSpiel numbers cards suit-major in the suit order spades, clubs, diamonds, hearts."""
    return (card // 13 + 1) % 4 * 13 + card % 13


def to_rlcard(card: int) -> Any:
    text = str(FULL_DECK[card])
    return RLCard(rank=text[0], suit=text[1])


def rl_deadwood(hand: list[Any]) -> int:
    clusters = rl_melding.get_best_meld_clusters(hand)
    if not clusters:
        return sum(rl_utils.get_deadwood_value(c) for c in hand)
    return int(rl_utils.get_deadwood_count(hand, clusters[0]))


def rl_after_discard(hand: list[Any]) -> int:
    return min(rl_deadwood(hand[:i] + hand[i + 1 :]) for i in range(len(hand)))


def rl_best_arrangement(hand: list[Any]) -> list[list[Any]]:
    clusters = rl_melding.get_best_meld_clusters(hand)
    return clusters[0] if clusters else []


def os_after_discard_exact(utils: Any, hand: list[int]) -> int:
    """The true least deadwood over the eleven discards, from OpenSpiel's 10-card call."""
    return min(int(utils.min_deadwood(hand[:i] + hand[i + 1 :])) for i in range(len(hand)))


# --- Timing ---------------------------------------------------------------------


def throughput(call: Callable[[Any], object], inputs: Sequence[Any], repeat: int) -> float:
    """Calls per second: the best of ``repeat`` passes over ``inputs``."""
    return side_by_side([(call, inputs)], repeat)[0]


def side_by_side(
    timed: Sequence[tuple[Callable[[Any], object], Sequence[Any]]],
    repeat: int,
    chunk: int = 1000,
) -> list[float]:
    """Calls per second of each (call, inputs), timed ``repeat`` times over.

    The inputs are cut into chunks of ``chunk`` calls; each chunk keeps its
    best time, and a figure is all the calls over the sum of those bests. The
    engines take turns chunk by chunk, so a machine shared with other work
    slows them alike, and a chunk that a busy moment spoiled is timed again
    soon after (a long pass is rarely left alone on a busy machine).
    """
    best = [[float("inf")] * -(-len(inputs) // chunk) for _, inputs in timed]
    for _ in range(repeat):
        for k in range(max(len(b) for b in best)):
            for i, (call, inputs) in enumerate(timed):
                part = inputs[k * chunk : (k + 1) * chunk]
                if not part:
                    continue
                start = time.perf_counter()
                for x in part:
                    call(x)
                best[i][k] = min(best[i][k], time.perf_counter() - start)
    return [len(inputs) / sum(b) for (_, inputs), b in zip(timed, best, strict=True)]


@dataclass
class Row:
    task: str
    ours: float
    openspiel: float | None = None
    rlcard: float | None = None
    note: str = ""


def show(rows: list[Row]) -> None:
    def rate(x: float | None) -> str:
        return "-" if x is None else f"{x:,.0f}"

    def ratio(x: float | None, y: float) -> str:
        return "-" if x is None else f"{y / x:.2f}x"

    header = ("task", "ours /s", "OpenSpiel /s", "RLCard /s", "ours/OS", "ours/RLCard")
    lines = [header]
    for r in rows:
        lines.append(
            (
                r.task,
                rate(r.ours),
                rate(r.openspiel),
                rate(r.rlcard),
                ratio(r.openspiel, r.ours),
                ratio(r.rlcard, r.ours),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    print("| " + " | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)) + " |")
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for line in lines[1:]:
        cells = [line[0].ljust(widths[0])]
        cells += [c.rjust(w) for c, w in zip(line[1:], widths[1:], strict=True)]
        print("| " + " | ".join(cells) + " |")
    for r in rows:
        if r.note:
            print(f"- {r.task}: {r.note}")


# --- Agreement --------------------------------------------------------------------


def check_agreement(ten: list[Hand10], eleven: list[Hand10], os_utils: Any) -> int:
    """Print every hand where the engines disagree; return how many did."""
    problems = 0
    for hand in ten:
        ours = deadwood(CardSet(hand))
        theirs: dict[str, int] = {}
        if os_utils is not None:
            theirs["OpenSpiel"] = int(os_utils.min_deadwood([to_openspiel(c) for c in hand]))
        if RLCard is not None:
            theirs["RLCard"] = rl_deadwood([to_rlcard(c) for c in hand])
        if any(v != ours for v in theirs.values()):
            problems += 1
            print(f"disagreement on {CardSet(hand)}: ours {ours}, {theirs}")
    shortcut = 0
    if os_utils is not None:
        for hand in eleven:
            ours = deadwood_after_discard(CardSet(hand))
            os_hand = [to_openspiel(c) for c in hand]
            exact = os_after_discard_exact(os_utils, os_hand)
            if exact != ours:
                problems += 1
                print(f"best discard differs on {CardSet(hand)}: ours {ours}, OpenSpiel {exact}")
            if int(os_utils.min_deadwood(os_hand)) != exact:
                shortcut += 1
        print(
            f"OpenSpiel's own 11-card min_deadwood differs from the true best discard "
            f"on {shortcut} of {len(eleven)} eleven-card hands (its shortcut; not counted)."
        )
    print(
        f"agreement: {problems} disagreement(s) over {len(ten)} ten-card hands "
        f"and {len(eleven)} eleven-card hands"
    )
    return problems


# --- Whole hands of play ------------------------------------------------------------


def play_ours(seed: int, knock_first: bool) -> int:
    """One hand with our state machine; uniform random legal moves (or knock at once)."""
    from ginrummy.hand import Hand, Knock

    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand.deal(deck, dealer=0)
    moves = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        knocks = [a for a in legal if isinstance(a, Knock)] if knock_first else []
        hand.apply(knocks[0] if knocks else rng.choice(legal))
        moves += 1
    return moves


def play_openspiel(game: Any, seed: int, knock_first: bool) -> int:
    """One hand of pyspiel's gin_rummy played the same way.

    Chance is a deck shuffled once, as for ours: each chance node (the deal,
    then each stock draw) takes the next card, with no list of outcomes built.
    """
    rng = random.Random(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    cards = iter(deck)
    state = game.new_initial_state()
    knock = pyspiel.gin_rummy.KNOCK_ACTION
    moves = 0
    while not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(next(cards))
            continue
        legal = state.legal_actions()
        state.apply_action(knock if knock_first and knock in legal else rng.choice(legal))
        moves += 1
    return moves


# --- Main ---------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=20000, help="hands per task (default 20000)")
    parser.add_argument("--repeat", type=int, default=5, help="timed passes, best kept (default 5)")
    parser.add_argument("--seed", type=int, default=2024)
    args = parser.parse_args(argv)
    n = args.hands
    rng = random.Random(args.seed)
    rand10 = random_hands(rng, n, 10)
    dense10 = dense_hands(rng, n, 10)
    rand11 = random_hands(rng, n, 11)
    dense11 = dense_hands(rng, n // 4, 11)
    games = max(20, n // 100)
    rl_n = max(50, n // 50)  # RLCard is slow: fewer hands, same kind

    os_utils = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10) if pyspiel is not None else None
    print(
        f"python {sys.version.split()[0]}; OpenSpiel {'yes' if pyspiel else 'not installed'}; "
        f"RLCard {'yes' if RLCard else 'not installed'}; {n} hands, best of {args.repeat}"
    )
    check_agreement(rand10[: n // 4] + dense10[: n // 4], rand11[: n // 4] + dense11, os_utils)
    print()

    def cardsets(hands: list[Hand10]) -> list[CardSet]:
        return [CardSet(h) for h in hands]

    def plain(hands: list[Hand10]) -> list[list[Card]]:
        return [[FULL_DECK[c] for c in h] for h in hands]

    def os_lists(hands: list[Hand10]) -> list[list[int]]:
        return [[to_openspiel(c) for c in h] for h in hands]

    def os_discards(hands: list[Hand10]) -> list[list[list[int]]]:
        """Each hand's eleven ten-card hands after one discard, prepared before the clock."""
        return [[h[:i] + h[i + 1 :] for i in range(len(h))] for h in os_lists(hands)]

    def rl_lists(hands: list[Hand10]) -> list[list[Any]]:
        return [[to_rlcard(c) for c in h] for h in hands[:rl_n]]

    rep = args.repeat
    # (task, our call, our inputs, OpenSpiel's call, its inputs, RLCard's call or None)
    Task = tuple[
        str,
        Callable[[Any], object],
        list[Any],
        Callable[[Any], object] | None,
        list[Any],
        Callable[[Any], object] | None,
    ]
    os_best_discard: Callable[[Any], object] | None = None
    if os_utils is not None:
        os_min = os_utils.min_deadwood

        def os_best_discard(discards: list[list[int]]) -> object:
            return min(map(os_min, discards))

    def os_call(name: str) -> Callable[[Any], object] | None:
        return getattr(os_utils, name) if os_utils is not None else None

    tasks: list[Task] = [
        (
            "deadwood, random 10 cards",
            deadwood,
            cardsets(rand10),
            os_call("min_deadwood"),
            os_lists(rand10),
            rl_deadwood,
        ),
        (
            "deadwood, dense 10 cards",
            deadwood,
            cardsets(dense10),
            os_call("min_deadwood"),
            os_lists(dense10),
            rl_deadwood,
        ),
        (
            "best discard, random 11 cards",
            deadwood_after_discard,
            cardsets(rand11),
            os_best_discard,
            os_discards(rand11),
            rl_after_discard,
        ),
        (
            "best discard vs OS 11-card call",
            deadwood_after_discard,
            cardsets(rand11),
            os_call("min_deadwood"),
            os_lists(rand11),
            None,
        ),
        (
            "best_arrangement, plain list",
            best_arrangement,
            plain(rand10),
            os_call("best_meld_group"),
            os_lists(rand10),
            rl_best_arrangement,
        ),
    ]
    sources = [rand10, dense10, rand11, rand11, rand10]
    rows = []
    for (task, ours, inputs, os_fn, os_inputs, rl_call), hands in zip(tasks, sources, strict=True):
        if os_fn is not None:
            ours_rate, os_rate = side_by_side([(ours, inputs), (os_fn, os_inputs)], rep)
            row = Row(task, ours_rate, os_rate)
        else:
            row = Row(task, throughput(ours, inputs, rep))
        if RLCard is not None and rl_call is not None:
            row.rlcard = throughput(rl_call, rl_lists(hands), max(1, rep // 2))
        rows.append(row)
    rows[2].note = (
        "exact on both sides: OpenSpiel and RLCard as the least of their eleven "
        "10-card calls (OpenSpiel's lists made before the clock)"
    )
    rows[3].note = (
        "OpenSpiel's own single 11-card min_deadwood: less work, a shortcut that is "
        "not always the true best discard"
    )

    try:
        import ginrummy.hand  # noqa: F401
    except ImportError:
        print("ginrummy.hand not available: whole-hand figures skipped")
    else:
        game = pyspiel.load_game("gin_rummy") if pyspiel is not None else None
        for knock_first, label in (
            (False, "whole hands, random moves"),
            (True, "whole hands, knock at first chance"),
        ):
            seeds = list(range(games))
            timed: list[tuple[Callable[[Any], object], Sequence[Any]]] = [
                (partial(play_ours, knock_first=knock_first), seeds)
            ]
            if game is not None:
                timed.append((partial(play_openspiel, game, knock_first=knock_first), seeds))
            rates = side_by_side(timed, rep, chunk=5)
            rows.append(Row(label, rates[0], rates[1] if game is not None else None))
        rows[-1].note = (
            "ours: one Knock action lays the melds down; OpenSpiel takes more "
            "steps per hand (knock, discard, meld by meld, lay-offs)"
        )
    show(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
