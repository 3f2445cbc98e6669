"""Measure the bots' strength in the arena and write the figures into docs/STRENGTH.md.

Not a timed test: a long run, meant for the background::

    nohup .venv/bin/python bench/bench_strength.py --matches 2000 > /tmp/strength.log 2>&1 &

Every pairing plays mirrored matches to 100 (each seed in both seats) with
the bots at the settings the web app uses. The ablation plays Hard with one
habit switched off at a time against the same opponent. The JSON of every run
goes next to the report (docs/strength/*.json) so the figures can be checked.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import multiprocessing
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from ginrummy.arena import ArenaReport, mean_ci, ratio_ci, run_arena
from ginrummy.bots.hard import HardConfig
from ginrummy.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "STRENGTH.md"
RAW = ROOT / "docs" / "strength"

HEADLINE: list[tuple[str, str, float]] = [
    ("hard", "camper", 0.60),
    ("hard", "simple", 0.80),
    ("hard", "medium", 0.60),
    ("medium", "easy", 0.60),
    ("camper", "simple", 0.0),
    ("camper", "camper-lite", 0.60),
]
"""(bot, opponent, target win share); a target of 0 is a reference row."""

ABLATION = [f.name for f in dataclasses.fields(HardConfig) if f.default is True]
"""Every habit the app's Hard has on (the bool settings that default to on), each switched
off in turn by the ablation, so the table follows Hard as it is shipped."""
OPENSPIEL = "cmd:{python} {root}/bench/openspiel_bot.py"


def _row(report: ArenaReport, target: float) -> str:
    lo, hi = report.win_ci
    met = ""
    if target:
        met = "yes" if lo >= target - 0.02 and report.win_share >= target else "no"
    a, b = report.bots
    times = report.decision_ms[a]
    return (
        f"| {a} | {b} | {report.games} | {100 * report.win_share:.1f}% "
        f"| {100 * lo:.1f}–{100 * hi:.1f}% | {report.points_per_hand:+.2f} "
        f"| {times['median']:.1f} / {times['p95']:.0f} ms "
        f"| {f'{100 * target:.0f}%' if target else '–'} | {met or '–'} |"
    )


def _run(
    a: str, b: str, matches: int, jobs: int, seed_start: int, label: str | None = None
) -> ArenaReport:
    seeds = list(range(seed_start, seed_start + matches // 2))
    print(f"{a} vs {b}: {len(seeds)} seeds x 2 seats", file=sys.stderr)
    report = run_arena(
        (a, b), seeds, kind="matches", settings=Settings(), jobs=jobs, progress=sys.stderr
    )
    RAW.mkdir(parents=True, exist_ok=True)
    # A file name holds the bots' names, never a command line (an external bot has a label).
    name = f"{a}_vs_{label or b}".replace(":", "_").replace(",", "_").replace("/", "_")
    (RAW / f"{name}.json").write_text(json.dumps(report.to_json(), indent=2) + "\n")
    print(report.text(), file=sys.stderr)
    return report


def paired_difference(first: dict[str, Any], second: dict[str, Any]) -> tuple[int, float, float]:
    """Seeds in common, and the first run's win share less the second's with its 95% half-width.

    Both are arena JSON reports with ``per_seed`` results; the difference is
    taken seed by seed (the same deals), so it is much tighter than the two
    confidence intervals side by side.
    """
    a, b = first["per_seed"], second["per_seed"]
    common = sorted(set(a) & set(b), key=int)
    diffs = [a[k][0] - b[k][0] for k in common]
    if len(diffs) < 2:
        return len(diffs), statistics.fmean(diffs) if diffs else 0.0, 0.0
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))
    return len(diffs), statistics.fmean(diffs), half


def merge_reports(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """One arena JSON report from several runs of the same pairing on different seeds.

    The win share, points per hand and their intervals are recomputed from
    the seeds' results, exactly as one run over all the seeds would give
    them. Decision times cannot be merged exactly: the merged median is the
    median of the runs' medians, p95 and max the largest of the runs'.
    """
    first = reports[0]
    for r in reports[1:]:
        if r["bots"] != first["bots"] or r["settings"] != first["settings"]:
            raise ValueError("only runs of the same pairing at the same settings merge")
    per_seed: dict[str, list[float]] = {}
    for r in reports:
        for seed, row in r["per_seed"].items():
            if seed in per_seed:
                raise ValueError(f"seed {seed} was played in two of the runs")
            per_seed[seed] = row
    seeds = sorted(per_seed, key=int)
    share, (lo, hi) = mean_ci([per_seed[k][0] for k in seeds])
    pph, pph_ci = ratio_ci([per_seed[k][1] for k in seeds], [per_seed[k][2] for k in seeds])
    results: dict[str, int] = {}
    for r in reports:
        for kind, count in r["results"].items():
            results[kind] = results.get(kind, 0) + count
    times: dict[str, dict[str, float]] = {}
    for name in first["decision_ms"]:
        rows = [r["decision_ms"][name] for r in reports]
        times[name] = {
            "median": statistics.median(t["median"] for t in rows),
            "p95": max(t["p95"] for t in rows),
            "max": max(t["max"] for t in rows),
            "decisions": sum(t["decisions"] for t in rows),
        }
    return {
        **{k: first[k] for k in ("bots", "kind", "settings")},
        "seeds": [int(seeds[0]), int(seeds[-1])],
        "seed_count": len(seeds),
        **{k: sum(r[k] for r in reports) for k in ("games", "a_wins", "b_wins", "unfinished")},
        "win_share": share,
        "win_share_ci95": [max(0.0, lo), min(1.0, hi)],
        "points_per_hand": pph,
        "points_per_hand_ci95": list(pph_ci),
        "hands": sum(r["hands"] for r in reports),
        "results": dict(sorted(results.items())),
        "decision_ms": times,
        "seconds": sum(r["seconds"] for r in reports),
        "per_seed": {k: per_seed[k] for k in seeds},
    }


def main(argv: list[str] | None = None) -> int:
    """Run the pairings and the ablation; rewrite docs/STRENGTH.md."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--matches", type=int, default=2000, help="matches per pairing")
    p.add_argument("--ablation-matches", type=int, default=400, help="matches per ablation row")
    p.add_argument("--ablation-opponent", default="camper")
    p.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    p.add_argument(
        "--seed-start",
        type=int,
        default=900001,
        help="first seed (default 900001: the report range; tune on seeds below 100001)",
    )
    p.add_argument(
        "--only", default=None, help="comma-separated subset: headline,ablation,openspiel"
    )
    p.add_argument(
        "--compare",
        nargs=2,
        metavar="JSON",
        help="compare two arena JSON reports seed by seed (on the seeds they share) and stop",
    )
    p.add_argument(
        "--merge",
        nargs="+",
        metavar="JSON",
        help="merge arena JSON reports of one pairing on different seeds into the first "
        "path given (OUT IN IN ...) and stop",
    )
    args = p.parse_args(argv)
    if args.merge:
        out, *inputs = args.merge
        merged = merge_reports([json.loads(Path(f).read_text()) for f in inputs])
        Path(out).write_text(json.dumps(merged, indent=2) + "\n")
        lo, hi = merged["win_share_ci95"]
        print(
            f"{' vs '.join(merged['bots'])}: {merged['games']} matches, "
            f"{100 * merged['win_share']:.1f}% ({100 * lo:.1f}-{100 * hi:.1f}%)"
        )
        return 0
    if args.compare:
        first, second = (json.loads(Path(f).read_text()) for f in args.compare)
        n, diff, half = paired_difference(first, second)
        print(
            f"{n} seeds in common: win share difference {100 * diff:+.1f} points "
            f"(95% CI {100 * (diff - half):+.1f} to {100 * (diff + half):+.1f})"
        )
        return 0
    parts = set((args.only or "headline,ablation,openspiel").split(","))
    start = time.time()
    headline: list[str] = []
    if "headline" in parts:
        for a, b, target in HEADLINE:
            headline.append(_row(_run(a, b, args.matches, args.jobs, args.seed_start), target))
            _write(args, headline, [], [], time.time() - start)
    ablation: list[str] = []
    if "ablation" in parts:
        opp = args.ablation_opponent
        # Named apart from the headline's runs, which may pair the same bots on more seeds.
        tag = f"{opp}_ablation"
        full = _run("hard", opp, args.ablation_matches, args.jobs, args.seed_start, tag)
        ablation.append(_ablation_row("all habits (Hard as shipped)", full, full))
        for part in ABLATION:
            report = _run(
                f"hard:-{part}", opp, args.ablation_matches, args.jobs, args.seed_start, tag
            )
            ablation.append(_ablation_row(f"without `{part}`", report, full))
            _write(args, headline, ablation, [], time.time() - start)
    openspiel: list[str] = []
    if "openspiel" in parts:
        try:
            import pyspiel  # noqa: F401
        except ImportError:
            openspiel.append("OpenSpiel is not installed (`pip install open-spiel`): not measured.")
        else:
            spec = OPENSPIEL.format(python=sys.executable, root=ROOT)
            report = _run(
                "hard", spec, args.matches // 4, args.jobs, args.seed_start, "openspiel-simple"
            )
            report.bots = ("hard", "openspiel-simple")
            openspiel += [
                "| bot | opponent | matches | win share | 95% CI | points/hand "
                "| bot's decision time (median / p95) | target | met |",
                "|---|---|---|---|---|---|---|---|---|",
                _row(report, 0.0),
            ]
    _write(args, headline, ablation, openspiel, time.time() - start)
    return 0


def _ablation_row(label: str, report: ArenaReport, full: ArenaReport) -> str:
    lo, hi = report.win_ci
    if report is full:
        change = "–"
    else:
        _, delta, half = paired_difference(report.to_json(), full.to_json())
        change = f"{100 * delta:+.1f} ({100 * (delta - half):+.1f} to {100 * (delta + half):+.1f})"
    return (
        f"| {label} | {report.games} | {100 * report.win_share:.1f}% "
        f"| {100 * lo:.1f}–{100 * hi:.1f}% | {change} | {report.points_per_hand:+.2f} |"
    )


def _write(
    args: argparse.Namespace,
    headline: list[str],
    ablation: list[str],
    openspiel: list[str],
    seconds: float,
) -> None:
    text = DOC.read_text() if DOC.exists() else ""
    marker_start, marker_end = "<!-- bench:start -->", "<!-- bench:end -->"
    command = (
        f".venv/bin/python bench/bench_strength.py --matches {args.matches} "
        f"--ablation-matches {args.ablation_matches} --ablation-opponent {args.ablation_opponent}"
        + (f" --only {args.only}" if args.only else "")
    )
    lines = [marker_start, "", f"Reproduce: `{command}` ({seconds / 60:.0f} minutes here).", ""]
    if headline:
        lines += [
            "| bot | opponent | matches | win share | 95% CI | points/hand | bot's decision "
            "time (median / p95) | target | met |",
            "|---|---|---|---|---|---|---|---|---|",
            *headline,
            "",
        ]
    if ablation:
        lines += [
            f"Ablation: Hard with one habit switched off, against `{args.ablation_opponent}` "
            "(same seeds for every row).",
            "",
            "| Hard | matches | win share | 95% CI | change (paired, 95% CI) | points/hand |",
            "|---|---|---|---|---|---|",
            *ablation,
            "",
        ]
    if openspiel:
        lines += ["Against OpenSpiel's simple gin rummy bot:", "", *openspiel, ""]
    lines.append(marker_end)
    block = "\n".join(lines)
    if marker_start in text and marker_end in text:
        head = text.split(marker_start)[0]
        tail = text.split(marker_end, 1)[1]
        text = head + block + tail
    else:
        text = text + "\n" + block + "\n"
    DOC.write_text(text)


if __name__ == "__main__":
    raise SystemExit(main())
