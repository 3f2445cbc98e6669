"""How well Hard reads the other hand: a diagnostic of ``infer`` against the true cards.

Hard's reading (:func:`ginrummy.bots._reading.read_table`) gives each card it
has not seen a chance to be in the other hand. This plays single hands of Hard
(seat 0) against each opponent, and at each of Hard's throws scores those
chances against the cards the other player really holds: the log loss (lower
is better; the reading with ``infer`` off gives every unseen card the same
chance, the baseline) and a calibration table (of the cards given a chance in
each band, the share really held). Then the danger of each card in Hard's hand
(:func:`~ginrummy.bots._reading.danger`: the chance that throwing it gives the
other hand a meld) against whether it really would: the log loss, and the area
under the ROC curve (the chance that a card that would meld was given a higher
danger than one that would not; 0.5 is a coin's)::

    .venv/bin/python bench/bench_reading.py --hands 300 --seed-start 20001

With ``--guesses N`` the danger is also read the way the play-outs see it: the
share of N hands dealt to the other player as Hard deals them for its
play-outs (``--guess-specs "rollout_choosiness=0;"`` compares settings; an
empty one is the app's Hard).

With ``--learned START`` a danger is also learned from what the view shows: a
logistic regression of whether the card would meld on the card weights' danger,
the share of 48 dealt hands it melds with (untidied, and tidied as the play-outs
deal them), the other player's turn and the turn times each, fitted on as many
hands from START (the same opponents) and scored on the hands above: how much of
the reading a combination of what Hard already computes could add.

Each hand is dealt from its number, as the arena's hands are. Tune on one
range of hands and report on another.
"""

from __future__ import annotations

import argparse
import math
import random
from collections.abc import Iterator, Sequence

from ginrummy.arena import build_bot
from ginrummy.bots._common import bits, decision_rng, read_record
from ginrummy.bots._reading import danger, dealt_danger, melds_with_two, read_table, sample_opponent
from ginrummy.bots.hard import hard_variant
from ginrummy.cards import Bitmask, mask_of
from ginrummy.hand import Event, Hand, Phase, PlayerView, StockDrawn, shuffled_deck
from ginrummy.settings import Settings

BANDS = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0)
"""The edges of the calibration table's bands of chance."""


def positions(opponent: str, hands: int, seed_start: int) -> list[tuple[PlayerView, Bitmask]]:
    """Hard's view at each of its throws, with the other player's true hand."""
    return [(view, truth) for view, truth, _ in plays(opponent, hands, seed_start)]


def plays(
    opponent: str, hands: int, seed_start: int
) -> Iterator[tuple[PlayerView, Bitmask, list[int]]]:
    """Hard's view at each of its throws (Hard in seat 0, each hand dealt from its
    number), with the other player's true hand and its true deal (its ten cards,
    then its stock draws)."""
    for seed in range(seed_start, seed_start + hands):
        rng = random.Random(f"ginrummy-reading/{seed}")
        hand = Hand.deal(shuffled_deck(rng), dealer=rng.randrange(2), settings=Settings())
        bots = [build_bot("hard", seed), build_bot(opponent, seed + 1)]
        dealt = [int(c) for c in hand.view(1).hand]
        while not hand.is_over:
            player = hand.to_act or 0
            view = hand.view(player)
            if player == 0 and view.phase == Phase.DISCARD:
                yield view, mask_of(hand.view(1).hand), dealt + stock_draws(hand.events, 1)
            hand.apply(bots[player].choose(view))


def stock_draws(events: Sequence[Event], player: int) -> list[int]:
    """The cards ``player`` drew from the stock, in order (those ``events`` show)."""
    return [
        int(e.card)
        for e in events
        if isinstance(e, StockDrawn) and e.player == player and e.card is not None
    ]


def _log_loss(p: float, happened: int) -> float:
    """The log loss of chance ``p`` given what happened (clipped away from 0 and 1)."""
    p = min(max(p, 1e-4), 1 - 1e-4)
    return -math.log(p if happened else 1 - p)


def score(
    seen: list[tuple[PlayerView, Bitmask]], *, infer: bool
) -> tuple[float, int, list[tuple[int, int]]]:
    """Mean log loss over every unseen card, the count, and (cards, held) per band."""
    total = 0.0
    count = 0
    bands = [(0, 0)] * (len(BANDS) - 1)
    for view, truth in seen:
        reading = read_table(view, read_record(view), infer=infer)
        for card in bits(reading.unseen):
            p = reading.p_opp[card]
            held = truth >> card & 1
            total += _log_loss(p, held)
            count += 1
            band = next(i for i in range(len(bands)) if p <= BANDS[i + 1])
            n, k = bands[band]
            bands[band] = (n + 1, k + held)
    return total / max(count, 1), count, bands


def auc(pairs: list[tuple[float, int]]) -> float:
    """The chance that a case that happened was given a higher chance than one that did
    not (by ranks; ties share their mean rank)."""
    pairs = sorted(pairs)
    rank_sum = 0.0
    i = 0
    while i < len(pairs):
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        mean_rank = (i + 1 + j) / 2
        rank_sum += mean_rank * sum(m for _, m in pairs[i:j])
        i = j
    yes = sum(m for _, m in pairs)
    no = len(pairs) - yes
    return (rank_sum - yes * (yes + 1) / 2) / (yes * no) if yes and no else float("nan")


def mean_loss(pairs: list[tuple[float, int]]) -> float:
    return sum(_log_loss(p, happened) for p, happened in pairs) / max(len(pairs), 1)


def danger_score(seen: list[tuple[PlayerView, Bitmask]]) -> tuple[float, float, int, float]:
    """The danger of each card in Hard's hand against the true hand: log loss, AUC,
    the count, and the share of cards that would really give a meld."""
    pairs: list[tuple[float, int]] = []
    for view, truth in seen:
        reading = read_table(view, read_record(view))
        for card in bits(mask_of(view.hand)):
            pairs.append((danger(reading, card), int(melds_with_two(truth, card, False))))
    yes = sum(m for _, m in pairs)
    return mean_loss(pairs), auc(pairs), len(pairs), yes / max(len(pairs), 1)


def guessed_danger_score(
    seen: list[tuple[PlayerView, Bitmask]], spec: str, samples: int
) -> tuple[float, float]:
    """The danger of each card in Hard's hand read instead from ``samples`` hands dealt
    to the other player as Hard ``spec`` deals them for its play-outs (tidied by
    ``rollout_choosiness``, weighed by what the other player did): log loss and AUC."""
    bot = hard_variant(spec, 1)
    config = bot.config
    pairs: list[tuple[float, int]] = []
    for view, truth in seen:
        record = read_record(view)
        reading = read_table(view, record)
        fits = bot._fits(view, record, reading, bot._style(view))
        rng = decision_rng(1, view, "guessed-danger")
        extra = config.tidying(record.opp_turns, playouts=True)
        cards = bits(mask_of(view.hand))
        guesses = [sample_opponent(reading, rng, extra, fits) for _ in range(samples)]
        shares = dealt_danger(guesses, cards, reading.ace_high)
        pairs += [(shares[c], int(melds_with_two(truth, c, False))) for c in cards]
    return mean_loss(pairs), auc(pairs)


LEARN_GUESSES = 48
"""Hands dealt a throw for the learned danger's dealt-hand features."""


def _logit(p: float) -> float:
    p = min(max(p, 1e-3), 1 - 1e-3)
    return math.log(p / (1 - p))


def _chance(w: list[float], x: list[float]) -> float:
    """The logistic regression's chance for inputs ``x`` (log-odds clipped to ±30)."""
    z = sum(wi * xi for wi, xi in zip(w, x, strict=True))
    return 1 / (1 + math.exp(-max(min(z, 30.0), -30.0)))


def danger_features(
    seen: list[tuple[PlayerView, Bitmask]],
) -> list[tuple[list[float], int]]:
    """For each card in Hard's hand at each throw: the learned danger's inputs (a
    constant first) and whether the card would really give the other hand a meld."""
    bot = hard_variant("", 1)
    rows: list[tuple[list[float], int]] = []
    for view, truth in seen:
        record = read_record(view)
        reading = read_table(view, record)
        fits = bot._fits(view, record, reading, bot._style(view))
        rng = decision_rng(1, view, "learned-danger")
        cards = bits(mask_of(view.hand))
        tidied = bot.config.tidying(record.opp_turns, playouts=True)
        shares = []
        for extra in (0, tidied):
            guesses = [sample_opponent(reading, rng, extra, fits) for _ in range(LEARN_GUESSES)]
            shares.append(dealt_danger(guesses, cards, reading.ace_high))
        turn = record.opp_turns / 10
        for c in cards:
            base = [
                _logit(danger(reading, c)),
                *(_logit((s[c] * LEARN_GUESSES + 0.5) / (LEARN_GUESSES + 1)) for s in shares),
            ]
            features = [1.0, *base, turn, *(x * turn for x in base)]
            rows.append((features, int(melds_with_two(truth, c, False))))
    return rows


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            for k in range(col, n + 1):
                m[r][k] -= f * m[col][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def fit_logistic(rows: list[tuple[list[float], int]], l2: float = 1.0) -> list[float]:
    """Weights of a logistic regression (Newton's method; the constant not penalised)."""
    n = len(rows[0][0])
    w = [0.0] * n
    for _ in range(12):
        grad = [l2 * w[i] if i else 0.0 for i in range(n)]
        hess = [[(l2 if i == j and i else 0.0) for j in range(n)] for i in range(n)]
        for x, y in rows:
            p = _chance(w, x)
            for i in range(n):
                grad[i] += (p - y) * x[i]
                hx = p * (1 - p) * x[i]
                for j in range(i, n):
                    hess[i][j] += hx * x[j]
        for i in range(n):
            for j in range(i):
                hess[i][j] = hess[j][i]
        step = _solve(hess, grad)
        w = [wi - si for wi, si in zip(w, step, strict=True)]
    return w


def learned_danger_score(
    train: list[tuple[PlayerView, Bitmask]], report: list[tuple[PlayerView, Bitmask]]
) -> tuple[float, float, list[float]]:
    """The learned danger fitted on ``train`` and scored on ``report``: log loss, AUC
    and the weights."""
    w = fit_logistic(danger_features(train))
    pairs = [(_chance(w, x), y) for x, y in danger_features(report)]
    return mean_loss(pairs), auc(pairs), w


def main(argv: list[str] | None = None) -> int:
    """Print the reading's log loss and calibration against each opponent."""
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--opponents", default="camper,simple,medium")
    p.add_argument("--hands", type=int, default=300, help="hands against each opponent")
    p.add_argument("--seed-start", type=int, default=20001)
    p.add_argument(
        "--guesses",
        type=int,
        default=0,
        help="also score the danger read from this many hands dealt as the play-outs deal them",
    )
    p.add_argument(
        "--guess-specs",
        default="",
        help="Hard settings to deal those hands with, ';' between them (default: the app's)",
    )
    p.add_argument(
        "--learned",
        type=int,
        default=0,
        metavar="START",
        help="also learn a danger on as many hands from START and score it on these",
    )
    args = p.parse_args(argv)
    everything: list[tuple[PlayerView, Bitmask]] = []
    print("opponent | Hard's throws | cards scored | log loss, infer off | log loss, infer on")
    for opponent in args.opponents.split(","):
        seen = positions(opponent, args.hands, args.seed_start)
        everything += seen
        flat, count, _ = score(seen, infer=False)
        read, _, _ = score(seen, infer=True)
        print(f"{opponent} | {len(seen)} | {count} | {flat:.4f} | {read:.4f}")
    flat, count, _ = score(everything, infer=False)
    read, _, bands = score(everything, infer=True)
    print(f"all | {len(everything)} | {count} | {flat:.4f} | {read:.4f}")
    loss, area, cards, melds = danger_score(everything)
    print(
        f"\nthe danger of Hard's {cards} cards in hand: log loss {loss:.4f}, "
        f"AUC {area:.4f} ({100 * melds:.1f}% would give the other hand a meld)"
    )
    if args.guesses:
        print(f"\nthe same danger read from {args.guesses} dealt hands a throw (log loss, AUC):")
        for spec in args.guess_specs.split(";"):
            loss, area = guessed_danger_score(everything, spec, args.guesses)
            print(f"hard:{spec} | {loss:.4f} | {area:.4f}")
    if args.learned:
        train = [
            seen
            for opponent in args.opponents.split(",")
            for seen in positions(opponent, args.hands, args.learned)
        ]
        loss, area, w = learned_danger_score(train, everything)
        print(
            f"\nthe danger learned on hands {args.learned} to {args.learned + args.hands - 1}: "
            f"log loss {loss:.4f}, AUC {area:.4f}"
        )
        print("weights (constant, card weights, dealt, tidied, turn, turn x each):")
        print(" ".join(f"{x:+.3f}" for x in w))
    print("\nchance given (infer on) | cards | share held")
    for i, (n, k) in enumerate(bands):
        if n:
            print(f"{BANDS[i]:.1f}-{BANDS[i + 1]:.1f} | {n} | {k / n:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
