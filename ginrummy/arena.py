"""``ginrummy arena``: bot against bot, the way chess engines are tested.

Every deal is played twice with the seats swapped (mirrored deals), from a
fixed list of seeds, with both bots made afresh for every game. Two kinds of
run:

- ``matches`` (the headline): whole matches to the target; the result is
  the share of matches the first bot wins, with a 95% confidence interval
  computed over the mirrored pairs;
- ``hands``: single hands; the result is the first bot's paired points per
  hand (lower variance, so fewer games are needed to see a difference).

It also reports the mix of knocks, gins, undercuts and dead hands and each
bot's decision time. A bot is named as ``make_bot`` names it (``hard``,
``simple``, ...), as a Hard variant for the ablation study (``hard:-search``)
or as an external program speaking the line protocol of
``docs/BOT_PROTOCOL.md`` (``cmd:python examples/random_bot.py``).

>>> report = run_arena(("medium", "simple"), seeds=[1, 2], kind="hands")
>>> report.games, report.hands
(4, 4)
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import multiprocessing
import multiprocessing.util
import random
import shlex
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, TextIO

from ginrummy.bots import BOT_NAMES, Bot, make_bot
from ginrummy.cards import FULL_DECK
from ginrummy.hand import (
    Action,
    BigGinDeclared,
    Dealt,
    Discarded,
    Event,
    Hand,
    HandResult,
    Knocked,
    PileDrawn,
    PlayerView,
    ResultKind,
    StockDrawn,
    UpcardPassed,
    UpcardTaken,
    parse_action,
    shuffled_deck,
)
from ginrummy.match import Match
from ginrummy.settings import KnockMode, Settings

__all__ = [
    "ArenaReport",
    "ExternalBot",
    "build_bot",
    "main",
    "mean_ci",
    "ratio_ci",
    "run_arena",
    "scores_before",
]

MAX_HANDS_PER_MATCH = 400
"""A safety stop: two bots that never finish a match are a bug, not a result."""


# --- bots by name ----------------------------------------------------------


class ExternalBot:
    """A bot in another process, spoken to with the line protocol of docs/BOT_PROTOCOL.md.

    The arena sends what the player sees happen (one JSON object a line) and,
    when it is the player's turn, a ``decide`` message; the program answers
    with one line ``{"action": "..."}`` in the record notation (``take``,
    ``pass``, ``stock``, ``pile``, ``discard 7C``, ``knock 7C``, ``big_gin``).
    """

    def __init__(self, command: str, seed: int) -> None:
        self.name = "cmd:" + command
        self.command = command
        self.seed = seed
        self._proc: subprocess.Popen[str] | None = None
        self._sent = 0
        self._hand_key: tuple[int, int] | None = None

    def _stream(self) -> tuple[IO[str], IO[str]]:
        if self._proc is None or self._proc.poll() is not None:
            self._proc = subprocess.Popen(
                shlex.split(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        assert self._proc.stdin is not None and self._proc.stdout is not None
        return self._proc.stdin, self._proc.stdout

    def _send(self, message: dict[str, Any]) -> None:
        out, _ = self._stream()
        out.write(json.dumps(message) + "\n")
        out.flush()

    def start_match(self, player: int, settings: Settings, seed: int) -> None:
        """Tell the program a new match starts and which seat it has."""
        self._send(
            {"type": "match", "player": player, "settings": settings.to_dict(), "seed": seed}
        )
        self._hand_key = None

    def _catch_up(self, view: PlayerView) -> None:
        key = (view.hand_number, view.dealer)
        if key != self._hand_key:
            self._hand_key = key
            self._sent = 0
            self._send(
                {
                    "type": "deal",
                    "hand_number": view.hand_number,
                    "dealer": view.dealer,
                    "cards": _deal_cards(view),
                    "upcard": str(view.first_upcard),
                    "knock_limit": view.knock_limit,
                    "scores": list(scores_before(view)),
                }
            )
        for event in view.events[self._sent :]:
            # The events are sent as the player saw them at the table: after a
            # knock the view reveals the other player's stock draws, but those
            # were never seen, so their card stays null.
            if isinstance(event, StockDrawn) and event.player != view.player:
                event = StockDrawn(event.player, None)
            message = event_message(event)
            if message is not None:
                self._send(message)
        self._sent = len(view.events)

    def choose(self, view: PlayerView) -> Action:
        """Send what happened since the last decision, then ask for one."""
        self._catch_up(view)
        self._send(
            {
                "type": "decide",
                "phase": view.phase.value,
                "hand": [str(c) for c in view.hand],
                "pile_top": None if view.top_of_pile is None else str(view.top_of_pile),
                "stock_count": view.stock_count,
                "legal": [str(a) for a in view.legal_actions],
            }
        )
        _, reply = self._stream()
        line = reply.readline()
        if not line:
            raise RuntimeError(f"{self.command!r} closed its output")
        return parse_action(json.loads(line)["action"])

    def hand_over(self, view: PlayerView) -> None:
        """Tell the program how the hand ended (both hands as laid down) and the score."""
        self._catch_up(view)
        result = view.result
        if result is None:
            return
        self._send(
            {
                "type": "result",
                "kind": result.kind.value,
                "winner": result.winner,
                "points": result.points,
                "knocker": result.knocker,
                "knock_card": None if result.knock_card is None else str(result.knock_card),
                "knocker_melds": [[str(c) for c in m] for m in result.knocker_melds],
                "knocker_deadwood": [str(c) for c in result.knocker_deadwood],
                "lay_offs": [[str(lay.card), lay.meld_index] for lay in result.lay_offs],
                "defender_melds": [[str(c) for c in m] for m in result.defender_melds],
                "defender_deadwood": [str(c) for c in result.defender_deadwood],
                "scores": list(view.scores),
            }
        )

    def close(self) -> None:
        """Say goodbye and wait for the program to end."""
        if self._proc is not None and self._proc.poll() is None:
            try:
                self._send({"type": "quit"})
                assert self._proc.stdin is not None
                self._proc.stdin.close()
                self._proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                self._proc.kill()
        self._proc = None


def scores_before(view: PlayerView) -> tuple[int, int]:
    """The match scores before this hand (the view's are the totals after it once it ended)."""
    a, b = view.scores
    result = view.result
    if result is not None and result.winner is not None:
        if result.winner == 0:
            a -= result.points
        else:
            b -= result.points
    return a, b


def _deal_cards(view: PlayerView) -> list[str]:
    """The ten cards dealt to this player (the hand now, before its own moves)."""
    held = {int(c) for c in view.hand}
    for e in reversed(view.events):
        if getattr(e, "player", None) != view.player:
            continue
        if isinstance(e, Discarded):
            held.add(int(e.card))
        elif isinstance(e, (StockDrawn, PileDrawn, UpcardTaken)) and e.card is not None:
            held.discard(int(e.card))
    return [str(FULL_DECK[c]) for c in sorted(held)]


def event_message(event: Event) -> dict[str, Any] | None:
    """One public event as a protocol message (``None`` for the deal, sent apart)."""
    if isinstance(event, Dealt):
        return None
    if isinstance(event, UpcardTaken):
        return {"type": "take", "player": event.player, "card": str(event.card)}
    if isinstance(event, UpcardPassed):
        return {"type": "pass", "player": event.player}
    if isinstance(event, StockDrawn):
        card = None if event.card is None else str(event.card)
        return {"type": "stock", "player": event.player, "card": card}
    if isinstance(event, PileDrawn):
        return {"type": "pile", "player": event.player, "card": str(event.card)}
    if isinstance(event, Discarded):
        return {"type": "discard", "player": event.player, "card": str(event.card)}
    if isinstance(event, Knocked):
        return {"type": "knock", "player": event.player, "deadwood": event.deadwood}
    if isinstance(event, BigGinDeclared):
        return {"type": "big_gin", "player": event.player}
    return None


def build_bot(spec: str, seed: int) -> Bot:
    """A bot from its arena name: a ``make_bot`` name, ``hard:OPTIONS`` or ``cmd:PROGRAM``."""
    if spec.startswith("cmd:"):
        return ExternalBot(spec[4:], seed)
    if spec.startswith("hard:"):
        from ginrummy.bots.hard import hard_variant

        return hard_variant(spec[5:], seed)
    return make_bot(spec, seed=seed)


# --- playing ---------------------------------------------------------------


@dataclass(slots=True)
class GameLog:
    """What one game (a match or a hand) produced, seen from the first bot (A)."""

    a_seat: int
    a_won: bool | None
    a_points: int
    """A's net points: points A scored minus points B scored."""
    hands: int
    kinds: Counter[str] = field(default_factory=Counter)
    times: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))


def _decks(seed: int) -> tuple[int, Iterator[tuple[int, ...]]]:
    rng = random.Random(f"ginrummy-arena/{seed}")
    first = rng.randrange(2)

    def gen() -> Iterator[tuple[int, ...]]:
        while True:
            yield shuffled_deck(rng)

    return first, gen()


def _tally(log: GameLog, result: HandResult) -> None:
    """Count a hand's result as "<who>_<kind>" from A's side (who is a or b)."""
    if result.kind is ResultKind.DEAD:
        log.kinds["dead"] += 1
        return
    knocker = result.knocker
    who = "a" if knocker == log.a_seat else "b"
    log.kinds[f"{who}_{result.kind.value}"] += 1


def _act(bots: Sequence[Bot], view: PlayerView, log: GameLog, side: int) -> Action:
    start = time.perf_counter()
    action = bots[view.player].choose(view)
    log.times[side].append(time.perf_counter() - start)
    return action


def _notify(bots: Sequence[Bot], views: Sequence[PlayerView]) -> None:
    for bot, view in zip(bots, views, strict=True):
        hook = getattr(bot, "hand_over", None)
        if hook is not None:
            hook(view)


def play_match(
    specs: tuple[str, str],
    seed: int,
    a_seat: int,
    settings: Settings,
    cache: dict[str, Bot],
    on_hand: Callable[[HandResult], None] | None = None,
) -> GameLog:
    """One match from ``seed`` with bot A in seat ``a_seat`` (``on_hand``: told each hand's
    result as it ends, for benches that count more than the log does)."""
    first, decks = _decks(seed)
    bots = _seat_bots(specs, seed, a_seat, settings, cache)
    match = Match.start(next(decks), first_dealer=first, settings=settings)
    log = GameLog(a_seat=a_seat, a_won=None, a_points=0, hands=0)
    while True:
        while not match.hand.is_over:
            view = match.view(match.hand.to_act or 0)
            side = 0 if view.player == a_seat else 1
            match.apply(_act(bots, view, log, side))
        log.hands += 1
        result = match.hand.result
        assert result is not None
        _tally(log, result)
        if on_hand is not None:
            on_hand(result)
        _notify(bots, [match.view(0), match.view(1)])
        if match.is_over or log.hands >= MAX_HANDS_PER_MATCH:
            break
        match.next_hand(next(decks))
    final = match.final_score()
    totals = final.totals if final is not None else match.scores
    log.a_won = final is not None and final.winner == a_seat
    log.a_points = totals[a_seat] - totals[1 - a_seat]
    return log


def play_hand(
    specs: tuple[str, str], seed: int, a_seat: int, settings: Settings, cache: dict[str, Bot]
) -> GameLog:
    """One hand from ``seed`` with bot A in seat ``a_seat``."""
    rng = random.Random(f"ginrummy-arena-hand/{seed}")
    deck = shuffled_deck(rng)
    bots = _seat_bots(specs, seed, a_seat, settings, cache)
    hand = Hand.deal(deck, dealer=rng.randrange(2), settings=settings)
    log = GameLog(a_seat=a_seat, a_won=None, a_points=0, hands=1)
    while not hand.is_over:
        view = hand.view(hand.to_act or 0)
        side = 0 if view.player == a_seat else 1
        hand.apply(_act(bots, view, log, side))
    result = hand.result
    assert result is not None
    _tally(log, result)
    _notify(bots, [hand.view(0), hand.view(1)])
    if result.winner is not None:
        log.a_points = result.points if result.winner == a_seat else -result.points
        log.a_won = result.winner == a_seat
    return log


def _seat_bots(
    specs: tuple[str, str], seed: int, a_seat: int, settings: Settings, cache: dict[str, Bot]
) -> list[Bot]:
    """Fresh bots for one game (external programs are kept and told a match starts)."""
    made: list[Bot] = []
    for side, spec in enumerate(specs):
        bot_seed = seed * 2 + side
        if spec.startswith("cmd:"):
            key = f"{side}/{spec}"
            if key not in cache:
                cache[key] = build_bot(spec, bot_seed)
            bot = cache[key]
        else:
            bot = build_bot(spec, bot_seed)
        made.append(bot)
    bots = made if a_seat == 0 else made[::-1]
    for player, bot in enumerate(bots):
        start = getattr(bot, "start_match", None)
        if start is not None:
            start(player, settings, seed)
    return bots


# --- running many games ----------------------------------------------------

_WORKER_CACHE: dict[str, Bot] = {}

_Task = tuple[str, tuple[str, str], int, Settings]


def _job(args: _Task) -> tuple[int, list[GameLog]]:
    """Both games of one mirrored seed (run in a worker process)."""
    kind, specs, seed, settings = args
    play = play_match if kind == "matches" else play_hand
    return seed, [play(specs, seed, seat, settings, _WORKER_CACHE) for seat in (0, 1)]


def _close_worker_bots() -> None:
    """Send ``quit`` to the external bots this process started, and forget them."""
    for bot in _WORKER_CACHE.values():
        close = getattr(bot, "close", None)
        if close is not None:
            close()
    _WORKER_CACHE.clear()


def _start_worker() -> None:
    # A pool worker that ends normally (close and join, not terminate) runs
    # this finalizer, so its external bots are told ``quit``.
    multiprocessing.util.Finalize(None, _close_worker_bots, exitpriority=10)


def _chunk_job(tasks: list[_Task]) -> list[tuple[int, list[GameLog]]]:
    """Several seeds in one go (a Ray task); the external bots are closed at the end."""
    try:
        return [_job(task) for task in tasks]
    finally:
        _close_worker_bots()


def _run_on_ray(tasks: list[_Task], address: str, bar: _Progress) -> dict[int, list[GameLog]]:
    """Play the tasks as Ray tasks: on a local Ray (``"local"``) or the cluster at ``address``."""
    try:
        import ray
    except ImportError as e:  # pragma: no cover - depends on the optional extra
        raise RuntimeError("--ray needs Ray: pip install 'ginrummy[cluster]'") from e
    if not ray.is_initialized():
        if address == "local":
            ray.init(include_dashboard=False, log_to_driver=False)
        else:
            import ginrummy

            # The workers of a cluster may not have this package: ship it with the job.
            package = str(Path(ginrummy.__file__).resolve().parent)
            ray.init(
                address=address,
                runtime_env={"py_modules": [package]},
                log_to_driver=False,
            )
    resources: dict[str, float] = ray.cluster_resources()  # type: ignore[no-untyped-call]
    cpus = max(1, int(resources.get("CPU", 1)))
    # A few chunks per CPU: big enough to amortise a task, small enough to balance.
    size = max(1, min(50, len(tasks) // (4 * cpus)))
    remote = ray.remote(num_cpus=1)(_chunk_job)
    pending = [remote.remote(tasks[i : i + size]) for i in range(0, len(tasks), size)]
    per_seed: dict[int, list[GameLog]] = {}
    while pending:
        done, pending = ray.wait(pending, num_returns=1)
        for seed, logs in ray.get(done[0]):
            per_seed[seed] = logs
            bar.step()
    return per_seed


@dataclass(slots=True)
class ArenaReport:
    """The figures of one arena run, from the first bot's side."""

    bots: tuple[str, str]
    kind: str
    seeds: list[int]
    settings: Settings
    games: int
    a_wins: int
    b_wins: int
    unfinished: int
    win_share: float
    win_ci: tuple[float, float]
    points_per_hand: float
    points_per_hand_ci: tuple[float, float]
    hands: int
    kinds: dict[str, int]
    decision_ms: dict[str, dict[str, float]]
    seconds: float
    per_seed: dict[int, tuple[float, int, int]] = field(default_factory=dict)
    """For each seed: A's share of its two games, A's net points and the hands
    played over them, so two runs on the same seeds can be compared seed by
    seed and runs on different seeds merged (``bench/bench_strength.py --merge``)."""

    def to_json(self) -> dict[str, Any]:
        """The report as plain JSON values."""
        return {
            "bots": list(self.bots),
            "kind": self.kind,
            "seeds": [self.seeds[0], self.seeds[-1]] if self.seeds else [],
            "settings": self.settings.to_dict(),
            "games": self.games,
            "a_wins": self.a_wins,
            "b_wins": self.b_wins,
            "unfinished": self.unfinished,
            "win_share": self.win_share,
            "win_share_ci95": list(self.win_ci),
            "points_per_hand": self.points_per_hand,
            "points_per_hand_ci95": list(self.points_per_hand_ci),
            "hands": self.hands,
            "results": self.kinds,
            "decision_ms": self.decision_ms,
            "seconds": self.seconds,
            "per_seed": {str(k): list(v) for k, v in self.per_seed.items()},
        }

    def text(self) -> str:
        """The report as the arena prints it."""
        a, b = self.bots
        lo, hi = self.win_ci
        plo, phi = self.points_per_hand_ci
        noun = "matches" if self.kind == "matches" else "hands"
        lines = [
            f"{a} vs {b}: {self.games} {noun} ({len(self.seeds)} seeds x both seats), "
            f"knocking {self.settings.knocking.value}, match to {self.settings.match_to}",
            f"  {a} wins {self.a_wins}, {b} wins {self.b_wins}"
            + (f", unfinished {self.unfinished}" if self.unfinished else ""),
            f"  win share of {a}: {100 * self.win_share:.1f}% "
            f"(95% CI {100 * lo:.1f}% to {100 * hi:.1f}%)",
            f"  points per hand for {a}: {self.points_per_hand:+.2f} "
            f"(95% CI {plo:+.2f} to {phi:+.2f}) over {self.hands} hands",
        ]
        k = self.kinds
        for side, name in (("a", a), ("b", b)):
            lines.append(
                f"  {name}: knocks won {k.get(side + '_knock', 0)}, "
                f"gins {k.get(side + '_gin', 0) + k.get(side + '_big_gin', 0)}, "
                f"undercut when knocking {k.get(side + '_undercut', 0)}"
            )
        lines.append(f"  dead hands {k.get('dead', 0)}")
        for name, t in self.decision_ms.items():
            lines.append(
                f"  {name} decision time: median {t['median']:.2f} ms, p95 {t['p95']:.2f} ms, "
                f"max {t['max']:.1f} ms"
            )
        lines.append(f"  {self.seconds:.0f} s")
        return "\n".join(lines)


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """The mean and its 95% interval (1.96 standard errors)."""
    if not values:
        return 0.0, (0.0, 0.0)
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, (mean, mean)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values))
    return mean, (mean - half, mean + half)


def ratio_ci(points: Sequence[float], hands: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Points per hand over all games, with a 95% interval over the mirrored pairs.

    A ratio of sums (longer matches weigh more), so its interval comes from
    each pair's residual ``points - ratio * hands`` (the delta method).
    """
    total = sum(hands)
    if not total:
        return 0.0, (0.0, 0.0)
    ratio = sum(points) / total
    n = len(points)
    if n < 2:
        return ratio, (ratio, ratio)
    residuals = sum((p - ratio * h) ** 2 for p, h in zip(points, hands, strict=True))
    half = 1.96 * math.sqrt(n / (n - 1) * residuals) / total
    return ratio, (ratio - half, ratio + half)


def _timing(times: list[float]) -> dict[str, float]:
    if not times:
        return {"median": 0.0, "p95": 0.0, "max": 0.0, "decisions": 0}
    ordered = sorted(times)
    return {
        "median": 1000 * ordered[len(ordered) // 2],
        "p95": 1000 * ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max": 1000 * ordered[-1],
        "decisions": len(ordered),
    }


def run_arena(
    bots: tuple[str, str],
    seeds: Sequence[int],
    *,
    kind: str = "matches",
    settings: Settings | None = None,
    jobs: int = 1,
    ray: str | None = None,
    progress: TextIO | None = None,
) -> ArenaReport:
    """Play every seed twice (seats swapped) and gather the figures.

    ``jobs`` > 1 plays the seeds in that many worker processes; ``ray`` plays
    them as Ray tasks instead, on a local Ray (``"local"``, or the one already
    started in this process) or on the cluster at that address. Every game
    depends only on its seed, so the figures are the same whichever way the
    games are spread; only the timings differ.
    """
    settings = settings or Settings()
    start = time.perf_counter()
    tasks: list[_Task] = [(kind, bots, seed, settings) for seed in seeds]
    per_seed: dict[int, list[GameLog]] = {}
    bar = _Progress(len(tasks), progress)
    if ray is not None:
        per_seed = _run_on_ray(tasks, ray, bar)
    elif jobs > 1:
        context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
        with context.Pool(jobs, initializer=_start_worker) as pool:
            for seed, logs in pool.imap_unordered(_job, tasks, chunksize=1):
                per_seed[seed] = logs
                bar.step()
            # Close and join (the context's exit would terminate the workers
            # before they could tell their external bots to quit).
            pool.close()
            pool.join()
    else:
        try:
            for task in tasks:
                seed, logs = _job(task)
                per_seed[seed] = logs
                bar.step()
        finally:
            _close_worker_bots()
    bar.done()
    logs = [log for seed in seeds for log in per_seed[seed]]
    a_wins = sum(1 for log in logs if log.a_won is True)
    if kind == "matches":
        b_wins = sum(1 for log in logs if log.a_won is False)
        pair_shares = [
            sum(1.0 if log.a_won else 0.0 for log in per_seed[seed]) / 2 for seed in seeds
        ]
    else:
        b_wins = sum(1 for log in logs if log.a_won is False)
        pair_shares = [
            sum(1.0 if log.a_won else (0.5 if log.a_won is None else 0.0) for log in per_seed[seed])
            / 2
            for seed in seeds
        ]
    share, (share_lo, share_hi) = mean_ci(pair_shares)
    share_ci = (max(0.0, share_lo), min(1.0, share_hi))
    hands = sum(log.hands for log in logs)
    pph, pph_ci = ratio_ci(
        [sum(log.a_points for log in per_seed[seed]) for seed in seeds],
        [sum(log.hands for log in per_seed[seed]) for seed in seeds],
    )
    kinds: Counter[str] = Counter()
    for log in logs:
        kinds.update(log.kinds)
    times_a = [t for log in logs for t in log.times[0]]
    times_b = [t for log in logs for t in log.times[1]]
    names = (bots[0], bots[1] if bots[1] != bots[0] else bots[1] + " (B)")
    return ArenaReport(
        bots=bots,
        kind=kind,
        seeds=list(seeds),
        settings=settings,
        games=len(logs),
        a_wins=a_wins,
        b_wins=b_wins,
        unfinished=len(logs) - a_wins - b_wins if kind == "matches" else 0,
        win_share=share,
        win_ci=share_ci,
        points_per_hand=pph,
        points_per_hand_ci=pph_ci,
        hands=hands,
        kinds=dict(sorted(kinds.items())),
        decision_ms={names[0]: _timing(times_a), names[1]: _timing(times_b)},
        seconds=time.perf_counter() - start,
        per_seed={
            seed: (
                share_of,
                sum(log.a_points for log in per_seed[seed]),
                sum(log.hands for log in per_seed[seed]),
            )
            for seed, share_of in zip(seeds, pair_shares, strict=True)
        },
    )


class _Progress:
    """A one-line progress bar on stderr (only when it is a terminal or asked for)."""

    def __init__(self, total: int, stream: TextIO | None) -> None:
        self.total = total
        self.stream = stream
        self.count = 0
        self.start = time.perf_counter()
        self.last = 0.0

    def step(self) -> None:
        self.count += 1
        if self.stream is None:
            return
        now = time.perf_counter()
        if now - self.last < 0.5 and self.count < self.total:
            return
        self.last = now
        width = 30
        filled = width * self.count // max(1, self.total)
        elapsed = now - self.start
        eta = elapsed / self.count * (self.total - self.count)
        self.stream.write(
            f"\r[{'#' * filled}{'.' * (width - filled)}] {self.count}/{self.total} seeds "
            f"{elapsed:.0f}s elapsed, ~{eta:.0f}s left "
        )
        self.stream.flush()

    def done(self) -> None:
        if self.stream is not None:
            self.stream.write("\n")
            self.stream.flush()


# --- the command -----------------------------------------------------------


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="ginrummy arena",
        description="Play two bots against each other on mirrored deals and report "
        "the win share with a 95% confidence interval.",
        epilog=f"Bots: {', '.join(BOT_NAMES)}; hard:OPTIONS for a Hard variant "
        "(e.g. hard:-search,-infer); cmd:PROGRAM for an external bot speaking "
        "docs/BOT_PROTOCOL.md (e.g. 'cmd:python examples/random_bot.py').",
    )
    p.add_argument("bot_a", help="the first bot (the figures are from its side)")
    p.add_argument("bot_b", help="the second bot")
    p.add_argument(
        "--matches",
        type=int,
        default=None,
        metavar="N",
        help="play N whole matches: N/2 seeds, each in both seats (default 200)",
    )
    p.add_argument(
        "--hands",
        type=int,
        default=None,
        metavar="N",
        help="play N single hands instead: N/2 seeds, each in both seats",
    )
    p.add_argument("--seed-start", type=int, default=1, help="first seed of the list (default 1)")
    p.add_argument("--knocking", choices=[m.value for m in KnockMode], default="standard")
    p.add_argument("--match-to", type=int, default=100)
    p.add_argument(
        "--settings",
        type=str,
        default=None,
        help="settings as JSON, e.g. '{\"ace_high\": true}' (overrides the above)",
    )
    p.add_argument(
        "--jobs",
        type=int,
        default=multiprocessing.cpu_count(),
        help="worker processes (default: every core)",
    )
    p.add_argument(
        "--ray",
        nargs="?",
        const="local",
        default=None,
        metavar="ADDRESS",
        help="play the games as Ray tasks: on a local Ray, or on the cluster at ADDRESS "
        "(e.g. ray://head:10001 or auto); needs the 'cluster' extra",
    )
    p.add_argument(
        "--json",
        type=str,
        default=None,
        metavar="PATH",
        help="also write the report as JSON to PATH ('-' for stdout)",
    )
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    return p


def main(argv: Sequence[str]) -> int:
    """Run ``ginrummy arena`` with the given arguments; returns the exit status."""
    args = _parser().parse_args(list(argv))
    for spec in (args.bot_a, args.bot_b):
        try:
            build_bot(spec, 0) if not spec.startswith("cmd:") else None
        except ValueError as e:
            print(f"ginrummy arena: {e}", file=sys.stderr)
            return 2
    settings_data: dict[str, Any] = {"knocking": args.knocking, "match_to": args.match_to}
    if args.settings:
        settings_data.update(json.loads(args.settings))
    settings = Settings.from_dict(settings_data)
    if args.hands is not None:
        kind, count = "hands", args.hands
    else:
        kind, count = "matches", args.matches if args.matches is not None else 200
    seeds = list(range(args.seed_start, args.seed_start + max(1, (count + 1) // 2)))
    if args.ray is not None and importlib.util.find_spec("ray") is None:
        print("ginrummy arena: --ray needs Ray: pip install 'ginrummy[cluster]'", file=sys.stderr)
        return 2
    report = run_arena(
        (args.bot_a, args.bot_b),
        seeds,
        kind=kind,
        settings=settings,
        jobs=max(1, args.jobs),
        ray=args.ray,
        progress=None if args.quiet else sys.stderr,
    )
    if args.json == "-":
        print(json.dumps(report.to_json(), indent=2))
    else:
        if not args.quiet or args.json is None:
            print(report.text())
        if args.json:
            with open(args.json, "w", encoding="utf-8") as f:
                json.dump(report.to_json(), f, indent=2)
                f.write("\n")
    return 0
