"""``ginrummy review RECORD.json``: the coach's review of a recorded hand or match.

For each decision it prints the action taken, Hard's choice, the estimated
cost with its 95% interval and, for a mistake, the reason; the other player's
decisions get their one-line reason. ``--json`` prints the same as JSON. A
record that cannot be read, does not replay, or holds a hand still in play is
refused with a message naming what is wrong (exit code 2).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from ginrummy.coach.reasons import describe
from ginrummy.coach.review import (
    DEFAULT_SAMPLES,
    PLAYOUT,
    Decision,
    HandReview,
    MatchReview,
    ReviewError,
    review_hand,
    review_match,
)
from ginrummy.hand import Hand
from ginrummy.records import RecordError, load_record

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ginrummy review",
        description=(
            "Review a recorded hand or match: each decision against Hard's, "
            "its cost in points with a 95% interval, and the reason."
        ),
    )
    parser.add_argument("record", metavar="RECORD.json", help="a hand or match record")
    parser.add_argument("--player", type=int, default=0, choices=(0, 1), help="the seat reviewed")
    parser.add_argument("--hand", type=int, metavar="K", help="only hand K of a match (from 1)")
    parser.add_argument(
        "--samples",
        type=int,
        default=DEFAULT_SAMPLES,
        metavar="S",
        help=f"sampled deals per decision (default {DEFAULT_SAMPLES})",
    )
    parser.add_argument("--seed", type=int, default=0, metavar="X", help="sampling seed")
    parser.add_argument(
        "--opponent",
        default="hard",
        metavar="BOT",
        help="the bot that played the other seat (default hard)",
    )
    parser.add_argument(
        "--playout",
        default=PLAYOUT,
        metavar="BOT",
        help=f"the bot that plays the samples out (default {PLAYOUT}; hard for full Hard)",
    )
    parser.add_argument(
        "--wide",
        action="store_true",
        help="also weigh the other natural choices of every decision (slower)",
    )
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help="play the samples out in N processes"
    )
    parser.add_argument("--json", action="store_true", help="print the review as JSON")
    return parser


def _who(player: int, reviewed: int) -> str:
    return f"P{player}" + ("*" if player == reviewed else " ")


def _cost(d: Decision) -> str:
    if d.cost is None or d.low is None or d.high is None:
        return ""
    if d.samples == 0:
        return "0 (Hard's choice)"
    if d.best == d.action:
        points = {o.action: o.points for o in d.options}
        ahead = points[d.action] - points.get(d.hard or "", points[d.action])
        return f"0 (the best here: {ahead:+.1f} against Hard's choice, {d.samples} deals)"
    return f"{d.cost:.1f} [{d.low:.1f}, {d.high:.1f}]"


def _print_hand(review: HandReview, out: TextIO) -> None:
    if review.winner is None:
        outcome = "dead hand, no score"
    else:
        outcome = f"player {review.winner} scored {review.points}"
    print(
        f"Hand {review.number}: {review.result}, {outcome} "
        f"(dealer {review.dealer}; player {review.player} reviewed, marked *)",
        file=out,
    )
    print(
        f"{'#':>3}  who  {'decision':8}  {'action':34}  {'Hard':34}  cost [95% interval]",
        file=out,
    )
    for d in review.decisions:
        hard = d.hard or ""
        line = f"{d.number:>3}  {_who(d.player, review.player)}  {d.kind.value:8}  {d.action:34}"
        if d.player == review.player:
            line += f"  {hard:34}  {_cost(d)}"
            if d.mistake and d.reason is not None:
                line += f"\n{'':>8}MISTAKE: {describe(d.reason, mistake=True)}"
        elif d.reason is not None:
            line += f"  why: {describe(d.reason, mistake=False)}"
        print(line, file=out)
    print(
        f"Mistakes: {len(review.mistakes)}, points lost {review.points_lost:.1f} "
        f"({review.samples} samples per decision played out by {review.playout}, "
        f"seed {review.seed}, "
        f"mistake above {review.threshold:g} points with an interval above 0)\n",
        file=out,
    )


def _progress(done: int, total: int) -> None:
    print(f"\rreviewing: action {done} of {total}", end="", file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``ginrummy review``; returns the exit code."""
    args = _parser().parse_args(argv)
    name = args.record

    def fail(message: str) -> int:
        print(f"ginrummy review: {name}: {message}", file=sys.stderr)
        return 2

    try:
        with open(name, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        return fail(f"cannot read the file ({e.__class__.__name__}: {e})")
    try:
        record = load_record(text)
    except RecordError as e:
        return fail(str(e))
    progress = _progress if sys.stderr.isatty() and not args.json else None
    options: dict[str, Any] = {
        "samples": args.samples,
        "seed": args.seed,
        "opponent": args.opponent,
        "wide": args.wide,
        "playout": args.playout,
        "jobs": args.jobs,
        "progress": progress,
    }
    try:
        review: HandReview | MatchReview
        if isinstance(record, Hand):
            if args.hand not in (None, 1):
                raise ReviewError("no_such_hand", hand=args.hand, hands=1)
            review = review_hand(record, args.player, **options)
            hands = [review]
        else:
            chosen = None if args.hand is None else [args.hand]
            review = review_match(record, args.player, hands=chosen, **options)
            hands = list(review.hands)
    except ReviewError as e:
        return fail(f"{e} [{e.code}]")
    finally:
        if progress is not None:
            print("\r\033[K", end="", file=sys.stderr)
    if args.json:
        print(json.dumps(review.to_dict(), indent=1))
    else:
        for hand in hands:
            _print_hand(hand, sys.stdout)
    return 0
