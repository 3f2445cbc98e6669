"""Figures for the coach's review (docs/COACH.md), and the example records it reviews.

    python bench/bench_coach.py examples              # write docs/examples/*.json
    python bench/bench_coach.py time --samples 4 8 16  # review time per hand, p50 and p95
    python bench/bench_coach.py time --jobs 2 --pool   # as the web app runs it: a kept pool
    python bench/bench_coach.py stability --samples 8  # two sampling seeds: do the marks agree?
    python bench/bench_coach.py calibration --samples 8 [--wide]  # Hard's own decisions marked
    python bench/bench_coach.py playout --samples 8    # fast play-outs against full Hard's

Hands are dealt from ``--first`` on (tune on 0-99, report from 1000 on). A
"typical hand" is Medium (standing in for a person) against Hard; the
calibration hands are Hard against Hard, with the reviewed seat's Hard seeded
differently from the review's. Run it with ``nice -n 10`` on a shared machine.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import resource
import sys
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from pathlib import Path

from ginrummy.bots import make_bot
from ginrummy.coach import HandReview, review_hand
from ginrummy.coach.review import PLAYOUT
from ginrummy.hand import Hand, shuffled_deck
from ginrummy.match import Match
from ginrummy.records import dump_hand, dump_match
from ginrummy.settings import Settings

EXAMPLES = Path(__file__).resolve().parent.parent / "docs" / "examples"


def play_hand(seed: int, seats: tuple[str, str], bot_seed: int = 7) -> Hand:
    """A hand dealt from ``seed``, played by the bots named in ``seats`` (player 0, player 1)."""
    rng = random.Random(seed)
    hand = Hand.deal(shuffled_deck(rng), dealer=seed % 2)
    bots = (make_bot(seats[0], seed=bot_seed), make_bot(seats[1], seed=bot_seed + 1))
    while not hand.is_over:
        p = hand.to_act
        assert p is not None
        hand.apply(bots[p].choose(hand.view(p)), p)
    return hand


def play_match(seed: int, seats: tuple[str, str], match_to: int) -> Match:
    """A whole match between two bots."""
    rng = random.Random(seed)
    match = Match.new(Settings(match_to=match_to), rng=rng)
    bots = (make_bot(seats[0], seed=seed), make_bot(seats[1], seed=seed + 1))
    while True:
        while not match.hand.is_over:
            p = match.to_act
            assert p is not None
            match.apply(bots[p].choose(match.view(p)), p)
        if match.is_over:
            return match
        match.next_hand(shuffled_deck(rng))


def examples() -> None:
    """Write the example records the docs and tests review."""
    EXAMPLES.mkdir(parents=True, exist_ok=True)
    files = {
        "hand-medium-vs-hard.json": dump_hand(play_hand(2, ("medium", "hard"))),
        "hand-hard-vs-hard.json": dump_hand(play_hand(5, ("hard", "hard"))),
        "match-easy-vs-hard.json": dump_match(play_match(3, ("easy", "hard"), 50)),
    }
    for name, text in files.items():
        (EXAMPLES / name).write_text(text + "\n", encoding="utf-8")
        print(f"wrote docs/examples/{name}")


def _quantile(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, math.ceil(q * len(s)) - 1))]


def _p95_interval(xs: list[float]) -> tuple[float, float]:
    """A 95% bootstrap interval of the 95th percentile."""
    rng = random.Random(0)
    qs = sorted(_quantile(rng.choices(xs, k=len(xs)), 0.95) for _ in range(1000))
    return qs[25], qs[974]


def _wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    z = 1.96
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _cpu() -> float:
    """CPU seconds of this process and its finished workers (a busy machine inflates wall time)."""
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


def time_reviews(
    first: int,
    hands: int,
    samples: list[int],
    wide: bool,
    jobs: int,
    seat: str,
    kept: bool,
    playout: str = PLAYOUT,
) -> dict[str, object]:
    """Review time per typical hand (``seat`` reviewed, Hard opposite): wall clock and CPU.

    With ``kept`` the play-outs go to one pool of ``jobs`` spawned processes kept for
    every review, as the web app runs them (its workers' CPU time is not counted).
    """
    out: dict[str, object] = {}
    played = [play_hand(first + i, (seat, "hard")) for i in range(hands)]
    pool: Executor | None = None
    if kept:
        context = multiprocessing.get_context("spawn")
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)
        list(pool.map(abs, range(jobs)))  # started before the clock runs, as a server's are
    for s in samples:
        times: list[float] = []
        cpu: list[float] = []
        decisions = sampled = 0
        for hand in played:
            start, start_cpu = time.perf_counter(), _cpu()
            review = review_hand(
                hand, 0, samples=s, seed=1, wide=wide, jobs=jobs, pool=pool, playout=playout
            )
            times.append(time.perf_counter() - start)
            cpu.append(_cpu() - start_cpu)
            mine = [d for d in review.decisions if d.player == 0]
            decisions += len(mine)
            sampled += sum(1 for d in mine if d.samples)
        low, high = _p95_interval(times)
        cpu_low, cpu_high = _p95_interval(cpu)
        row = {
            "p50": round(_quantile(times, 0.5), 2),
            "p95": round(_quantile(times, 0.95), 2),
            "p95_interval": [round(low, 2), round(high, 2)],
            "cpu_p50": round(_quantile(cpu, 0.5), 2),
            "cpu_p95": round(_quantile(cpu, 0.95), 2),
            "cpu_p95_interval": [round(cpu_low, 2), round(cpu_high, 2)],
            "decisions_per_hand": round(decisions / hands, 1),
            "sampled_per_hand": round(sampled / hands, 1),
        }
        out[str(s)] = row
        print(f"samples {s}: {row}", flush=True)
    if pool is not None:
        pool.shutdown()
    return out


def stability(
    first: int, hands: int, samples: int, wide: bool, jobs: int, seat: str, playout: str = PLAYOUT
) -> dict[str, object]:
    """The same reviews with two sampling seeds: how often the mistake marks agree."""
    pairs = []
    for i in range(hands):
        hand = play_hand(first + i, (seat, "hard"))
        a, b = (
            review_hand(hand, 0, samples=samples, seed=s, wide=wide, jobs=jobs, playout=playout)
            for s in (11, 12)
        )
        pairs.append((a, b))
    out: dict[str, object] = {}
    for t in THRESHOLDS:
        agree = total = both = either = 0
        for a, b in pairs:
            for x, y in zip(_marks(a, t), _marks(b, t), strict=True):
                total += 1
                agree += x == y
                both += x and y
                either += x or y
        low, high = _wilson(agree, total)
        out[f"threshold_{t:g}"] = {
            "decisions": total,
            "agree": round(agree / total, 4),
            "agree_interval": [round(low, 4), round(high, 4)],
            "marked_by_either": either,
            "marked_by_both": both,
        }
    print(out, flush=True)
    return out


THRESHOLDS = (0.0, 2.0, 4.0, 6.0, 8.0)


def _marks(review: HandReview, threshold: float) -> list[bool]:
    return [
        d.cost is not None and d.low is not None and d.cost > threshold and d.low > 0
        for d in review.decisions
        if d.player == review.player
    ]


def calibration(
    first: int,
    hands: int,
    samples: int,
    wide: bool,
    jobs: int,
    dump: str | None,
    opposite: str = "hard",
    playout: str = PLAYOUT,
) -> dict[str, object]:
    """On hands of Hard against ``opposite``, the share of Hard's own decisions marked."""
    reviews = []
    for i in range(hands):
        hand = play_hand(first + i, ("hard", opposite), bot_seed=first + i)
        reviews.append(
            review_hand(
                hand,
                0,
                samples=samples,
                seed=99,
                wide=wide,
                jobs=jobs,
                opponent=opposite,
                playout=playout,
            )
        )
        if dump:
            with open(dump, "a", encoding="utf-8") as f:
                for d in reviews[-1].decisions:
                    if d.player == 0:
                        f.write(json.dumps({"deal": first + i, **d.to_dict()}) + "\n")
    total = sum(len(_marks(r, 0.0)) for r in reviews)
    sampled = sum(1 for r in reviews for d in r.decisions if d.player == 0 and d.samples)
    out: dict[str, object] = {"decisions": total, "sampled": sampled}
    for t in THRESHOLDS:
        marked = sum(sum(_marks(r, t)) for r in reviews)
        low, high = _wilson(marked, total)
        out[f"threshold_{t:g}"] = {
            "marked": marked,
            "share": round(marked / total, 4),
            "share_interval": [round(low, 4), round(high, 4)],
        }
    print(out, flush=True)
    return out


def playout_agreement(
    first: int, hands: int, samples: int, seat: str, slow: str, fast: str
) -> dict[str, object]:
    """The same reviews with play-outs by ``slow`` and by ``fast``: do the costs agree?

    Same hands, same sampling seed (so the same sampled deals): per sampled decision,
    the cost each gives, their mean difference with a 95% interval, and the marks.
    """
    diffs: list[float] = []
    marks = agree = 0
    rows = []
    for i in range(hands):
        hand = play_hand(first + i, (seat, "hard"))
        a, b = (review_hand(hand, 0, samples=samples, seed=5, playout=p) for p in (slow, fast))
        for x, y in zip(a.decisions, b.decisions, strict=True):
            if x.player != 0 or not x.samples:
                continue
            assert x.cost is not None and y.cost is not None
            diffs.append(y.cost - x.cost)
            marks += x.mistake + y.mistake
            agree += x.mistake == y.mistake
            rows.append((first + i, x.number, round(x.cost, 1), round(y.cost, 1)))
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    half = 1.96 * sd / math.sqrt(n)
    low, high = _wilson(agree, n)
    out: dict[str, object] = {
        "sampled_decisions": n,
        "mean_cost_difference": round(mean, 2),
        "difference_interval": [round(mean - half, 2), round(mean + half, 2)],
        "sd_of_difference": round(sd, 2),
        "marks": marks,
        "marks_agree": round(agree / n, 4),
        "agree_interval": [round(low, 4), round(high, 4)],
        "costs": rows,
    }
    print(out, flush=True)
    return out


def main() -> None:
    """Run one of the figures (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=("examples", "time", "stability", "calibration", "playout"))
    parser.add_argument("--first", type=int, default=1000, help="the first deal's seed")
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--samples", type=int, nargs="+", default=[8])
    parser.add_argument("--wide", action="store_true")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--pool", action="store_true", help="time: one kept pool of --jobs")
    parser.add_argument("--dump", help="append each reviewed decision to this JSON-lines file")
    parser.add_argument("--seat", default="medium", help="the reviewed bot of a typical hand")
    parser.add_argument("--opposite", default="hard", help="calibration: Hard's opponent")
    parser.add_argument("--playout", default=PLAYOUT, help="the bot that plays samples out")
    parser.add_argument("--slow", default="hard", help="playout: the play-out bot compared")
    args = parser.parse_args()
    result: object
    if args.what == "examples":
        examples()
        return
    if args.what == "time":
        result = time_reviews(
            args.first,
            args.hands,
            args.samples,
            args.wide,
            args.jobs,
            args.seat,
            args.pool,
            args.playout,
        )
    elif args.what == "stability":
        result = stability(
            args.first, args.hands, args.samples[0], args.wide, args.jobs, args.seat, args.playout
        )
    elif args.what == "playout":
        result = playout_agreement(
            args.first, args.hands, args.samples[0], args.seat, args.slow, args.playout
        )
    else:
        result = calibration(
            args.first,
            args.hands,
            args.samples[0],
            args.wide,
            args.jobs,
            args.dump,
            args.opposite,
            args.playout,
        )
    print(json.dumps({"what": args.what, **vars(args), "result": result}), file=sys.stderr)


if __name__ == "__main__":
    main()
