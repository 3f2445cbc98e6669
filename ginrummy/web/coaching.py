"""The coach in the web app: hand reviews made off the request thread, hints, statistics.

A review (:func:`ginrummy.coach.review_hand`) takes seconds, so a request
never waits for one: :class:`Reviewer` runs it on its own thread, with the
play-outs in a process pool it keeps (``review_jobs`` processes, started on
the first review), reports how far it got while it runs, and stores the
finished review (:meth:`MatchStore.add_review`) so that it is made once. Each
process keeps its own progress: a poll that reaches another process finds no
job there and starts one (the first stored wins), so several processes stay
correct, only busier.

A review is of a finished hand only, for the seat the requester holds: the
hand's deal is public once it is over (the deal proof reveals its deck), so the
review shows both hands at every step. A hand in play is refused
(``hand_in_play``), as is a match the requester holds no seat in
(``not_your_seat``).
"""

from __future__ import annotations

import csv
import hashlib
import io
import json
import math
import multiprocessing
import os
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ginrummy.coach import DEFAULT_SAMPLES, THRESHOLD, ReviewError, hint, review_hand
from ginrummy.coach.review import watch_parent
from ginrummy.hand import Hand, ResultKind
from ginrummy.melds import best_arrangement
from ginrummy.records import RecordError, replay_match
from ginrummy.web.game import GameError, NotYourSeatError
from ginrummy.web.model import LoadedMatch
from ginrummy.web.storage import MatchStore

__all__ = [
    "HandInPlayError",
    "HintsOffError",
    "NoSuchHandError",
    "NotYourTurnError",
    "Reviewer",
    "ask_hint",
    "hand_steps",
    "review_seed",
    "statistics",
    "statistics_csv",
]

REVIEW_JOBS = 2
"""Processes a server plays a review's samples out in (one per core of a small machine)."""


class HandInPlayError(GameError):
    """A review of a hand still being played: it would reveal the hidden cards."""

    status = 409
    code = "hand_in_play"


class NoSuchHandError(GameError):
    """A hand number the match does not have."""

    status = 404
    code = "no_such_hand"


class HintsOffError(GameError):
    """A hint asked for in a match whose settings have hints off."""

    status = 409
    code = "hints_off"


class NotYourTurnError(GameError):
    """A hint asked for when the requester's seat has no decision to make."""

    status = 409
    code = "not_your_turn"


def review_seed(match_id: str, hand: int) -> int:
    """The sampling seed of a hand's review: fixed by the match and the hand.

    >>> review_seed("abc", 1) == review_seed("abc", 1) != review_seed("abc", 2)
    True
    """
    digest = hashlib.sha256(f"review/{match_id}/{hand}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def _reviewed_seat(loaded: LoadedMatch) -> int:
    if loaded.seat is None:
        raise NotYourSeatError("only a player of this match can review its hands")
    return loaded.seat


def _finished_hand(loaded: LoadedMatch, number: int) -> Hand:
    hands = loaded.match.hands
    if not 1 <= number <= len(hands):
        raise NoSuchHandError(
            f"there is no hand {number}: the match has hands 1 to {len(hands)}",
            hand=number,
            hands=len(hands),
        )
    hand = hands[number - 1]
    if not hand.is_over:
        raise HandInPlayError(
            f"hand {number} is still in play: its review would reveal hidden cards", hand=number
        )
    return hand


# --- the steps of a hand ---------------------------------------------------------------


def _laid_out(cards: Sequence[int], ace_high: bool) -> dict[str, Any]:
    """A hand as melds then deadwood, with its deadwood count."""
    if not cards:
        return {"melds": [], "deadwood": [], "points": 0}
    arrangement = best_arrangement(cards, ace_high=ace_high)
    return {
        "melds": [[str(c) for c in m] for m in arrangement.melds],
        "deadwood": [str(c) for c in arrangement.deadwood],
        "points": arrangement.deadwood_points,
    }


def hand_steps(hand: Hand) -> list[dict[str, Any]]:
    """Every point of a finished hand, both hands face up: before each action, then the end.

    Step ``i`` (0-based) is the table before action ``i + 1`` (its ``action``,
    by ``player``); the last step is the table at the end, with no action.
    """
    replay = Hand.deal(hand.deck, dealer=hand.dealer, settings=hand.settings)
    ace_high = hand.settings.ace_high
    steps: list[dict[str, Any]] = []

    def table() -> dict[str, Any]:
        view = replay.view(0)
        return {
            "hands": [_laid_out([int(c) for c in replay.cards_of(p)], ace_high) for p in (0, 1)],
            "pile": [str(c) for c in view.pile],
            "stock": view.stock_count,
            "phase": replay.phase.value,
        }

    for number, action in enumerate(hand.actions, start=1):
        player = replay.to_act
        steps.append({"number": number, "player": player, "action": str(action), **table()})
        replay.apply(action)
    steps.append({"number": None, "player": None, "action": None, **table()})
    return steps


# --- the reviewer --------------------------------------------------------------------


@dataclass(slots=True)
class _Job:
    done: int = 0
    total: int = 0
    error: str | None = None


@dataclass(slots=True)
class Reviewer:
    """Makes reviews one at a time off the request threads and stores them."""

    store: MatchStore
    samples: int = DEFAULT_SAMPLES
    jobs: int = REVIEW_JOBS
    _jobs: dict[tuple[str, int, int], _Job] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _thread: ThreadPoolExecutor | None = None
    _pool: Executor | None = None

    def status(self, loaded: LoadedMatch, number: int) -> dict[str, Any]:
        """The review of hand ``number`` for the requester's seat: stored, or how far it got.

        The first request starts it. ``{"status": "done", "review": ...}``,
        ``{"status": "running", "done": D, "total": T}`` or
        ``{"status": "failed", ...}`` (a review that raised; asking again retries).
        """
        seat = _reviewed_seat(loaded)
        hand = _finished_hand(loaded, number)
        stored = self.store.review(loaded.id, number, seat)
        if stored is not None:
            return {"status": "done", "review": json.loads(stored)}
        key = (loaded.id, number, seat)
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.error is not None:
                del self._jobs[key]
                return {"status": "failed", "message": job.error, "done": 0, "total": 0}
            if job is None:
                job = self._jobs[key] = _Job(total=len(hand.actions))
                self._threads().submit(self._review, loaded, number, seat, job)
            return {"status": "running", "done": job.done, "total": job.total}

    def _threads(self) -> ThreadPoolExecutor:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="review")
        return self._thread

    def _processes(self) -> Executor | None:
        if self.jobs <= 1:
            return None
        if self._pool is None:
            # Spawned, not forked: the server's threads hold locks a fork would copy.
            context = multiprocessing.get_context("spawn")
            self._pool = ProcessPoolExecutor(
                max_workers=self.jobs,
                mp_context=context,
                initializer=watch_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def _review(self, loaded: LoadedMatch, number: int, seat: int, job: _Job) -> None:
        key = (loaded.id, number, seat)
        try:
            body = self.make(loaded, number, seat, job)
            self.store.add_review(loaded.id, number, seat, json.dumps(body))
            with self._lock:
                self._jobs.pop(key, None)
        except Exception as e:  # reported to the poller, who may ask again
            job.error = f"{type(e).__name__}: {e}"

    def make(
        self, loaded: LoadedMatch, number: int, seat: int, job: _Job | None = None
    ) -> dict[str, Any]:
        """The review of hand ``number`` for ``seat`` as the page shows it (not stored)."""
        match = loaded.match
        hand = _finished_hand(loaded, number)
        other = loaded.seats[1 - seat]
        opponent = other.bot if other.is_bot and other.bot else "hard"
        scores = match.sheet[number - 2].totals if number >= 2 else (0, 0)

        def progress(done: int, total: int) -> None:
            if job is not None:
                job.done, job.total = done, total

        try:
            review = review_hand(
                hand,
                seat,
                samples=self.samples,
                seed=review_seed(loaded.id, number),
                opponent=opponent,
                scores=scores,
                number=number,
                progress=progress,
                pool=self._processes(),
            )
        except ReviewError as e:  # pragma: no cover - the checks above come first
            raise HandInPlayError(str(e)) from None
        return {
            "match": loaded.id,
            "seat": seat,
            "hands_in_match": len(match.hands),
            "review": review.to_dict(),
            "steps": hand_steps(hand),
        }

    def close(self) -> None:
        """Stop the review thread and the processes (a review under way is dropped)."""
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)


# --- hints -----------------------------------------------------------------------------


def ask_hint(store: MatchStore, loaded: LoadedMatch) -> dict[str, Any]:
    """Hard's choice for the requester's decision now, with its reason; the hint is counted."""
    if not loaded.match.settings.hints:
        raise HintsOffError("this match was started without hints")
    seat = loaded.seat
    if seat is None:
        raise NotYourSeatError("only a player of this match can ask for a hint")
    match = loaded.match
    if match.is_over or match.hand.is_over or match.to_act != seat:
        raise NotYourTurnError("there is no decision of yours to hint at now")
    number = len(match.hands)
    found = hint(match.view(seat), seed=review_seed(loaded.id, number) + len(match.hand.actions))
    store.add_hint(loaded.id, number, seat)
    return {"hand": number, **found.to_dict()}


# --- statistics ------------------------------------------------------------------------


def _wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95% Wilson interval of a share.

    >>> [round(x, 3) for x in _wilson(5, 10)]
    [0.237, 0.763]
    """
    if n == 0:
        return 0.0, 1.0
    z = 1.959963984540054
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def _rate(count: int, n: int) -> float:
    return round(count / n, 4) if n else 0.0


def statistics(store: MatchStore, holder: str) -> dict[str, Any]:
    """The statistics of the matches ``holder`` played (as a person) on this device."""
    matches: list[dict[str, Any]] = []
    groups: dict[tuple[str, str], dict[str, int]] = {}
    wins = finished = 0
    hands = points = 0
    counts = {"gin_for": 0, "gin_against": 0, "knock_for": 0, "knock_against": 0}
    counts |= {"undercut_for": 0, "undercut_against": 0, "dead": 0}
    knock_deadwood: list[int] = []
    for row in reversed(store.recent(holder, 1000)):
        seat = next((s.index for s in row.seats if s.kind == "person" and s.holder == holder), None)
        if seat is None:
            continue
        try:
            match = replay_match(row.record).match
        except RecordError:  # pragma: no cover - only a hand-edited database has one
            continue
        other = row.seats[1 - seat]
        level = other.bot if other.kind == "bot" and other.bot else "person"
        rules = match.settings.knocking.value
        group = groups.setdefault((level, rules), {"matches": 0, "hands": 0, "won": 0})
        group["matches"] += 1
        over = row.status == "over"
        won = over and match.winner == seat
        finished += over
        wins += won
        group["won"] += won
        played = 0
        for hand in match.hands:
            result = hand.result
            if result is None:
                continue
            played += 1
            sign = 0 if result.winner is None else (1 if result.winner == seat else -1)
            points += sign * result.points
            if result.kind is ResultKind.DEAD:
                counts["dead"] += 1
                continue
            side = "for" if result.winner == seat else "against"
            kind = {ResultKind.BIG_GIN: "gin"}.get(result.kind, result.kind.value)
            counts[f"{kind}_{side}"] += 1
            if result.knocker == seat and result.kind in (ResultKind.KNOCK, ResultKind.UNDERCUT):
                knock_deadwood.append(result.knocker_points)
        group["hands"] += played
        hands += played
        matches.append(
            {
                "id": row.id,
                "status": row.status,
                "won": won,
                "opponent": level,
                "knocking": rules,
                "match_to": match.settings.match_to,
                "hands": played,
                "scores": [match.scores[seat], match.scores[1 - seat]],
                "updated_at": row.updated_at,
            }
        )
    low, high = _wilson(wins, finished)
    reviewed = _reviewed_hands(store, holder)
    hints = store.hints_of(holder)
    return {
        "matches": len(matches),
        "finished": finished,
        "won": wins,
        "win_share": {"share": _rate(wins, finished), "low": round(low, 4), "high": round(high, 4)},
        "hands": hands,
        "points_per_hand": round(points / hands, 2) if hands else 0.0,
        "rates": {k: _rate(v, hands) for k, v in counts.items()},
        "counts": counts,
        "knock_deadwood": round(sum(knock_deadwood) / len(knock_deadwood), 2)
        if knock_deadwood
        else None,
        "knocks": len(knock_deadwood),
        "by_opponent": [
            {"opponent": level, "knocking": rules, **g}
            for (level, rules), g in sorted(groups.items())
        ],
        "reviewed": reviewed,
        "hints": sum(hints.values()),
        "hints_by_match": _by_match(hints),
        "threshold": THRESHOLD,
        "history": matches,
    }


def _by_match(hints: Mapping[tuple[str, int, int], int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for (match_id, _, _), count in hints.items():
        out[match_id] = out.get(match_id, 0) + count
    return out


def _reviewed_hands(store: MatchStore, holder: str) -> list[dict[str, Any]]:
    """Each reviewed hand, the oldest review first: its mistakes and points lost."""
    out = []
    for r in store.reviews_of(holder):
        body = json.loads(r.body)
        review = body["review"]
        if review["player"] != r.seat:  # pragma: no cover - stored by this module only
            continue
        mine = [d for d in review["decisions"] if d["player"] == r.seat]
        out.append(
            {
                "match": r.match_id,
                "hand": r.hand,
                "decisions": len(mine),
                "mistakes": review["mistakes"],
                "points_lost": review["points_lost"],
                "at": r.created_at,
            }
        )
    return out


def statistics_csv(stats: Mapping[str, Any]) -> str:
    """The statistics as CSV: one line per match, with its reviewed hands and hints."""
    reviewed: dict[str, list[Mapping[str, Any]]] = {}
    for r in stats["reviewed"]:
        reviewed.setdefault(r["match"], []).append(r)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(
        [
            "match",
            "status",
            "won",
            "opponent",
            "knocking",
            "match_to",
            "hands",
            "score",
            "opponent_score",
            "reviewed_hands",
            "mistakes",
            "points_lost",
            "hints",
            "updated_at",
        ]
    )
    for m in stats["history"]:
        mine = reviewed.get(m["id"], [])
        writer.writerow(
            [
                m["id"],
                m["status"],
                int(m["won"]),
                m["opponent"],
                m["knocking"],
                m["match_to"],
                m["hands"],
                m["scores"][0],
                m["scores"][1],
                len(mine),
                sum(r["mistakes"] for r in mine),
                round(sum(r["points_lost"] for r in mine), 2),
                stats["hints_by_match"].get(m["id"], 0),
                m["updated_at"],
            ]
        )
    return out.getvalue()
