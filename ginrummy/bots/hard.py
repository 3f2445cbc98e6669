"""The Hard computer opponent: it plays the way the strategy guides teach.

What it does, each part switchable for the ablation study (:class:`HardConfig`):

- ``infer``: tracks every card it has seen and weighs every unseen card by
  what the other player took, passed and threw (:mod:`ginrummy.bots._reading`).
- ``safety``: judges how much each throw could help the other hand and pays
  for a risky throw in its evaluation (so it throws next to their throws).
- ``potential`` (in the throw, off by default in favour of ``lookahead``):
  values pairs and near-runs by their live outs, so it keeps a pair whose
  third card is unseen and drops it once the other two are dead.
- ``upcard``: takes the upcard or a pile card when the hand it makes is worth
  more than a draw from the stock is likely to be, not only when it melds.
- ``search``: before knocking, deals the other hand many times over from
  what it believes and plays out the lay-offs: it knocks when the undercut
  risk is low enough; after its first turns it plays for gin, which
  undercuts the players who knock late.
- ``layoff``: when it knocks, it lays its melds out the way that leaves the
  fewest lay-off spots.
- ``lookahead``: each throw is valued one draw ahead, MARJJ's way, with
  every unseen card counting by its chance to be in the stock
  (:mod:`ginrummy.bots._lookahead`), at a third of MARJJ's weight (6,
  falling by 0.9 a turn). A pile card that melds nothing is still judged by
  the deadwood and ``potential`` (``take_by_lookahead`` judges it by the
  look-ahead too).
- ``camp`` (off by default: it measured no clear gain): reads from the
  points of the other player's throws whether they camp for gin (a knocker
  throws the dearest card it can spare; a camper throws low cards early and
  keeps high pairs) and against a camper knocks by the search for more turns.
- ``adapt``: reads from the match's earlier hands how the other player
  knocks: a player whose revealed hand shows it passed up a knock after its
  first turns camps for gin, and against such a player Hard knocks by the
  search for more turns (``camp_turns``); a knock made after those turns
  counts the other way.
- ``rollout``: the closest few throws are also judged by playing the rest
  of the hand out many times from each (the other hand dealt from what it
  believes, the stock shuffled, both players then playing quickly): it sees
  a throw the other hand would meld and how soon each hand reaches gin
  (:mod:`ginrummy.bots._rollout`).
- ``wall``: at the last throw before the hand would die, it knocks whenever
  the search expects the knock to gain.
- ``score``: the search also counts the dealt hands in which the knock ends
  the match, either way: a knock that most likely wins the match is made at
  any turn, even late when Hard otherwise plays for gin, if its undercut
  risk is low, and an undercut that would give the other player the match
  counts twice against a knock.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, fields, replace
from functools import lru_cache

from ginrummy import melds
from ginrummy.bots._common import (
    PublicRecord,
    arrangements,
    big_gin_action,
    bits,
    deadwood_of,
    decision_rng,
    discard_cards,
    knock_cards,
    neighbours,
    read_record,
    take_or_draw,
)
from ginrummy.bots._lookahead import two_draw_future, weighted_future_deadwood
from ginrummy.bots._model import camper_would_throw, throws
from ginrummy.bots._reading import (
    Fits,
    Reading,
    danger,
    dealt_danger,
    lay_off_exposure,
    melds_with_two,
    read_table,
    sample_opponent,
)
from ginrummy.bots._rollout import Playout, knocks_with, throw_outcomes
from ginrummy.cards import CARD_POINTS, FULL_DECK, Bitmask, CardSet, mask_of
from ginrummy.hand import (
    DEAD_AT,
    Action,
    Discard,
    Discarded,
    EarlierHand,
    Knock,
    Knocked,
    Phase,
    PileDrawn,
    PlayerView,
    ResultKind,
    StockDrawn,
    UpcardTaken,
)
from ginrummy.settings import Settings

MELDED_TAKES_MISS = 0.1
"""With ``melded_takes``: the chance a dealt hand holding a taken card out of its melds is kept."""
THREW_MISS = 0.1
"""With ``last_turn``: the chance a dealt hand its last throw melds with is kept."""
PASSED_MISS = 0.3
"""With ``last_turn``: the chance a dealt hand the pile card it last passed melds with is kept."""
ODD_THROW_MISS = 0.2
"""With ``sensible_throw``: the chance a dealt hand its last throw makes no sense for is kept."""
CAMPER_THROW_MISS = 0.1
"""With ``camper_model``: the chance a dealt hand MARJJ's throw rules rule out is kept."""

__all__ = [
    "HardBot",
    "HardConfig",
    "KnockOdds",
    "camp_chance",
    "hard_variant",
    "knocking_style",
    "live_future_deadwood",
    "potential",
]


@dataclass(frozen=True, slots=True)
class HardConfig:
    """Which of Hard's habits are on, and its tuning (the defaults are what the app plays)."""

    infer: bool = True
    safety: bool = True
    potential: bool = False
    """Off in the throw: the look-ahead values the same pairs and near-runs by
    the deadwood they reach with one more draw, and measured stronger in their
    place (docs/strength/ROUNDS.md); a pile card that melds nothing is still judged
    with it (``take_by_lookahead``). ``hard:+potential,-lookahead`` is Hard as
    it was."""
    upcard: bool = True
    search: bool = True
    layoff: bool = True
    score: bool = True
    lookahead: bool = True
    """On, at ``lookahead_weight`` 6 and without ``potential``: measured on
    seeds 2001 to 2100 (200 matches each, with ``take_by_lookahead``), it
    raised Hard's points per hand against the camper from +0.65 to +1.67 and
    against ``simple`` from +4.88 to +6.11; the report figures are in
    docs/strength/ROUNDS.md."""
    take_by_lookahead: bool = False
    """With ``lookahead``, also judge a pile card that melds nothing by the
    look-ahead (off: by the deadwood and ``potential``, as without it). On, Hard
    takes such cards far more often (44 more takes in 544 draw decisions of
    60 hands against the camper), a change not measured apart."""
    silence: bool = True
    """Read the other player's silence: the knock search and the play-outs do not
    deal the other player a hand it would have ended the hand with. A player who
    has thrown a card this hand without going gin holds deadwood; in its first
    ``early_turns`` turns, or at any turn if the earlier hands of the match
    show it knocking late (``adapt``), it holds more than the knock limit.

    On, with ``melded_takes``: measured on fresh seeds 909001 to 910000
    (2,000 matches, paired with Hard without both), +0.56 points a hand against
    the camper (net +6.2 points a seed, +1.7 to +10.7) and +1.5 points of win
    share (-0.5 to +3.4); against ``simple`` and OpenSpiel's bot as before
    (docs/strength/ROUNDS.md)."""
    melded_takes: bool = True
    """In the knock search and the play-outs, a dealt hand in which a card the
    other player took from the pile (and still holds) is not in a meld is kept
    only one time in ten (``MELDED_TAKES_MISS``): a player who takes a pile card
    only to meld it holds it in a meld (a player who takes cards for other
    reasons still may). On, with ``silence`` (see there)."""
    dealt_danger: bool = False
    """With ``safety``: weigh a throw's danger over hands dealt to the other player
    (as the knock search deals them, with ``silence`` and ``melded_takes`` when on)
    rather than card by card: the share of ``danger_samples`` dealt hands the throw
    gives a meld or a longer one.

    Off: -0.6 points of win share against the camper (-2.2 to +1.0; 2,000
    matches on tuning seeds 8751 to 9750, paired), at half again the decision
    time; the dealt hands know no more than the card weights they are dealt from."""
    danger_samples: int = 32
    """With ``dealt_danger``: hands dealt per throw decision."""
    last_turn: bool = False
    """In the knock search, the play-outs and ``dealt_danger``: a dealt hand that the
    other player's last throw melds with (a player does not break a meld to throw)
    is kept one time in ten (``THREW_MISS``), and one that the pile card it passed
    on its last turn melds with (with the throw still in hand) three in ten
    (``PASSED_MISS``: the card it drew since may be one of the two).

    Off: +0.3 points of win share against the camper (-1.6 to +2.2; 2,000
    matches on tuning seeds 8751 to 9750, paired), points a hand as without. Measured
    again in the round of 2026-12-07 "the other player's last turn read against
    OpenSpiel's bot": +0.2 (-0.7 to +1.1) against OpenSpiel's bot (4,000 matches on
    seeds 962101 to 963100 and 966201 to 967200, paired; net points a seed -0.4) and
    -0.1 (-2.8 to +2.6) against the camper (1,000 on tuning seeds 8751 to 9250)."""
    sensible_throw: bool = False
    """In the knock search, the play-outs and ``dealt_danger``: a dealt hand for which
    the other player's last throw left more than ``throw_slack`` points of deadwood
    above the least it could have left (the hand with the thrown card back, less its
    best throw) is kept two times in ten (``ODD_THROW_MISS``). ``simple`` throws to
    the least deadwood; the camper throws among its deadwood cards.

    Off: +0.1 points of win share against the camper (-1.4 to +1.6) and +0.1
    against ``simple`` (-0.9 to +1.0; 2,000 matches each on tuning seeds 8751
    to 9750, paired), fewer of Hard's knocks undercut (183 to 244)."""
    throw_slack: int = 4
    knocker_throw: float = 0.05
    """In the knock search and the play-outs, against a player ``adapt`` does not read
    as a camper (every player in a match's first hand): a dealt hand for which the
    other player's last throw did not leave the least deadwood it could have left is
    kept with this chance; 0 is off. A player who knocks at once (``simple``,
    OpenSpiel's bot) throws its dearest deadwood card, which leaves the least (``simple``
    did in 921 of 926 throws); the rule is ``sensible_throw`` with no slack, kept to
    the players it describes.

    At 0.05, on in the app's Hard; ``hard:knocker_throw=0`` is Hard without it. Paired
    with Hard without it, 2,000 matches a run: on the tuning seeds 8751 to 9750, +0.9
    points of win share against ``simple`` (-0.3 to +2.2), +0.0 against OpenSpiel's bot
    (-1.3 to +1.3) and +0.3 against the camper (-0.7 to +1.4); on fresh seeds (930001 to
    933000), +1.1 against ``simple`` (-0.1 to +2.3), -0.1 against OpenSpiel's bot (-1.3
    to +1.1) and +0.2 against the camper (-0.9 to +1.3). Net points a seed went up in
    all six runs, by +0.5 to +3.3 (docs/strength/ROUNDS.md)."""
    camper_model: int = 0
    """In the knock search and the play-outs: a dealt hand for which MARJJ's throw rules
    (:mod:`ginrummy.bots.camper`), given the hand with the other player's latest throw back
    in it and what that player could see then, would have thrown another card is kept one
    time in ten (``CAMPER_THROW_MISS``; :mod:`ginrummy.bots._model`). 0: off; 1: against a
    player ``adapt`` reads as a camper; 2: against every player (for the diagnostics).

    The camper's own hand always fits (``tests/test_model.py``); about 38% of Hard's
    guesses against it do not. The guesses read the camper's deadwood closer (mean error
    8.3 to 7.8 points, bias +1.4 to -0.2), their danger barely better (AUC 0.820 to
    0.822, ``bench/bench_reading.py --guesses 32``). Off: at 1, measured against the
    camper on tuning seeds 8751 to 9750 (2,000 matches, paired with the app's Hard), -0.9
    points of win share (-2.8 to +1.0): Hard, reading the camper's hand as better, knocked
    212 times fewer and was undercut 67 times fewer, and both players ginned more. With
    ``rollout_weight`` 1.5, on the same seeds and pairing: in the play-outs alone (the knock
    search reading without it) -2.0 (-3.8 to -0.2), the camper ginning 77 times more; with
    ``early_risk=0.45,late_risk=0.25`` -1.5 (-3.4 to +0.5), knocks and undercuts as
    without the model."""
    wall: bool = True
    samples: int = 128
    """Opponent hands dealt per knock decision.

    128 in the app's Hard since the round "the knock search on four times the dealt
    hands" (32 before, never tuned: near ``early_risk``'s 35% a 32-hand estimate of the
    undercut chance is good to about 17 points either way). Paired with 32 on seeds
    never tuned on, 2,000 matches each: against the camper +0.2 points of win share
    (-0.4 to +0.8), against ``simple`` +0.1 (-0.1 to +0.3), against OpenSpiel's bot
    +0.1 (-0.2 to +0.4) (docs/strength/ROUNDS.md). The coach's play-out bot keeps 32
    (docs/COACH.md): its play-outs search many knocks in a review, and 128 made an Easy
    player's review some 60% slower."""
    safety_weight: float = 6.0
    potential_weight: float = 0.4
    choosiness: float = 0.7
    """Modelled cards the other player has chosen from, per turn they played."""
    max_extra: int = 8
    """The most modelled cards a dealt hand is tidied with (``tidying``): at 0.7 a turn
    the count reaches 8 at the other player's 11th turn and grows no further.

    Measured against the camper on seeds 8751 to 9750 (2,000 matches, paired): 5
    (reached at the 7th turn) lost 1.5 points (-2.6 to -0.3); 12 changed almost no
    game (+0.1, -0.1 to +0.3)."""
    take_margin: float = 1.0
    early_turns: int = 3
    """In its first turns Hard knocks whenever the undercut risk is below ``early_risk``.

    Measured on seeds 1 to 100 (200 matches each): 6 turns beat 3 against the
    faithful camper by 7.0 points (+0.8 to +13.2, paired), since a camper
    does not knock after its first turns; but against ``simple``, which
    knocks at once and is undercut by a patient hand, 6 turns fell to 65.5%
    of 200 matches on the report seeds (from 77.5% at 3). Hard cannot tell
    the two kinds of player apart from one hand's view, and players who
    knock early are the common kind, so it stays at 3.

    2 measured again on 2,000-match runs (docs/strength/ROUNDS.md, the rounds of
    2026-12-05): +0.8 points (+0.1 to +1.5) against OpenSpiel's simple bot on
    fresh seeds, level against ``simple``, -0.5 (-1.9 to +0.8) against the
    camper, whose third-turn knocks it reads as late ones (``knocker_turns``
    keeps that reading)."""
    knocker_turns: int = 2
    """How many turns Hard knocks by the search alone against a player the match's
    earlier hands show knocking late (:func:`knocking_style`, with ``adapt``); 0 keeps
    ``early_turns``. In a match's first hand, and against a player read as neither
    kind, Hard knocks for ``early_turns``. Reading the other player (``knocking_style``,
    ``silence``, the play-outs' knocks) still counts ``early_turns`` as everyone's
    first turns. Such a player knocks as soon as it can, so a hand Hard could knock
    with in its third turn is often worth more kept for an undercut.

    2 in the app's Hard since the round of 2026-12-05 "a knock window of its own"
    (docs/strength/ROUNDS.md; 0 before). Paired with Hard at 0 on the same seeds, 2,000
    matches each: against OpenSpiel's simple bot +0.7 points of win share on the
    tuning seeds 8751 to 9750 (+0.0 to +1.3) and +0.1 (-0.6 to +0.8) on fresh seeds
    939701 to 940700 (net points +1.4 a seed, -0.1 to +2.9); against ``simple`` +0.0
    (-0.7 to +0.7) on fresh seeds 938701 to 939700 (+0.4 net points); against the
    camper, never read as knocking late, no game changed (1,000 matches from 937701).

    1 measured in the round of 2026-12-07 "a knock window, a camping window and the
    match's score": -0.1 points of win share (-0.4 to +0.3) against OpenSpiel's simple
    bot over 2,000 matches on seeds 962101 to 963100, paired; not kept."""
    early_risk: float = 0.35
    camp: bool = False
    """Off (measured no clear gain, docs/strength/ROUNDS.md; ``hard:+camp`` plays with
    it): reads from the other player's throws whether they camp for gin (throw
    low cards and keep high pairs) rather than knock at once, and against a
    camper knocks by the search for ``camp_turns`` turns instead of ``early_turns``.
    By the fifth turn the throws rarely tell the two apart: at a belief of 0.8
    it changed the share against the camper by -2.5 points and against
    ``simple`` by -1.5 (200 matches each, seeds 2001 to 2100)."""
    adapt: bool = True
    """Against a player the earlier hands of the match show camping for gin
    (see :func:`knocking_style`), knock by the search for ``camp_turns``
    turns instead of ``early_turns``.

    Measured against the camper on tuning seeds 3101 to 3600 (500 matches
    each half, paired with Hard without it): +3.0 and +2.8 points of win
    share. Knocking by the search for 6 turns from the first hand (as if
    the camper were known) gained +4.4 on the first half, 5 turns +4.2,
    7 turns +1.2; wider windows (knocking later with 4 points or with 6
    and more) lost. Against ``simple`` and Medium, which never pass up a
    knock, it plays the same games as without it."""
    camp_turns: int = 6
    """How many turns Hard knocks by the search against a camper (read by ``adapt``, or
    by ``camp``).

    Chosen from 5, 6 and 7 on tuning seeds 3101 to 3600 (docs/strength/ROUNDS.md). 7 lost 1.5
    points later; 5, measured again in the round of 2026-12-07 "a knock window, a
    camping window and the match's score", lost 1.0 (-3.0 to +1.0) against the camper on
    tuning seeds 8751 to 9250 (1,000 matches, paired)."""
    camp_belief: float = 0.8
    """The chance of camping, read from the throws, above which Hard plays as against a camper."""
    mid_turns: int = 0
    """Up to this turn (after the early turns) Hard also knocks, at the early
    risk, when its deadwood is at least ``mid_deadwood``: a hand that far from
    gin cashes its points, a hand near gin waits to undercut or go gin.

    Off (0): ``mid_turns=5,mid_deadwood=6`` gained 6.5 points against the
    camper (+1.5 to +11.5, paired) and lost 3.5 against ``simple`` (-6.0 to
    -1.0), like ``early_turns=5`` (200 matches each, seeds 2001 to 2100)."""
    mid_deadwood: int = 11
    late_risk: float = 0.2
    late_deadwood: int = 0
    """After the early turns Hard knocks only with this much deadwood or less.

    Measured: 0 (play for gin once the early turns are over, and undercut the
    players who knock) beat 2, 3, 5 and 10 against both yardsticks. Against a
    player ``adapt`` reads as a camper alone, 5 lost 1.2 points of win share
    (-2.9 to +0.5) and 4.3 net points a seed (-7.7 to -0.9) on tuning seeds 8751
    to 9250 (1,000 matches, paired): a fifth of the late knocks were undercut,
    and Hard ginned less (docs/strength/ROUNDS.md)."""
    min_ev: float = 0.0
    """After the early turns, a knock with at most ``late_deadwood`` is made only
    when the search expects it to gain more than this many points."""
    clinch: float = 0.5
    """With ``score``, Hard knocks at any turn when at least this share of the
    dealt hands give it the match and the risk is below ``early_risk`` in its
    first turns, ``late_risk`` after them.

    Measured: ``late_risk`` (0.2) after the early turns beat ``early_risk``
    (0.35) against camper, whose tidy hands undercut late knocks."""
    lookahead_weight: float = 6.0
    """With ``lookahead``: the weight of the one-draw look-ahead in the first turn.

    MARJJ's 18 swamps the deadwood and the safety term: with ``potential`` it
    measured no gain against the camper and a loss against ``simple``. With the
    play-outs, measured against the camper on seeds 8751 to 9750 (2,000 matches,
    paired): 9 lost 1.1 points (-2.7 to +0.4), 3 lost 1.9 (-3.8 to -0.1)."""
    lookahead_decay: float = 0.9
    """With ``lookahead``: the weight falls by this factor each turn."""
    lookahead_best: float = 7.0
    """With ``lookahead``: how many best draws are averaged (each counts by its chance to come)."""
    lookahead_draws: int = 1
    """With ``lookahead``: how many draws ahead the throw looks, 1 (MARJJ's) or 2
    (:func:`ginrummy.bots._lookahead.two_draw_future`: each draw followed by the best
    of three throws and the one-draw look-ahead of the hand so kept).

    Measured with 2 on seeds 8751 to 9750 (2,000 matches each, paired): against
    ``simple`` +1.8 points (+0.2 to +3.4), against the camper -2.1 (-4.3 to +0.2)."""
    knocker_draws: int = 0
    """With ``lookahead``: ``lookahead_draws`` against a player ``adapt`` does not read as
    a camper (a match's first hand included); 0 keeps ``lookahead_draws`` for everyone.

    Measured with 2 (2,000 matches each, paired): against the camper on seeds 8751 to
    9750 -0.9 points (-2.2 to +0.5); against ``simple`` on fresh seeds 923501 to 924500
    -0.4 (-2.0 to +1.3), where the tuning seeds had shown +1.8. Against OpenSpiel's
    simple bot, beside the wider play-outs against a knocker, in the round of 2026-12-07
    "the look-ahead two draws deep against OpenSpiel's bot": +0.7 points (-0.9 to +2.3)
    and +3.6 net points a seed (+0.0 to +7.2) over 2,000 matches on seeds 962101 to
    963100, below the +0.8 set down to go on to fresh seeds; a p95 decision time of
    172 to 182 ms (three runs on two cores) where the app's Hard took 65 to 67 (two);
    not kept. On seeds it had never met, paired with the app's Hard's report runs (the
    rounds after that one, docs/STRENGTH.md and docs/strength/ROUNDS.md): against
    OpenSpiel's bot +1.7 (+0.4 to +2.9) over 3,000 matches, against the camper +0.8 (-0.4
    to +2.0) over 2,000, and the targets kept against ``simple`` (82.1%) and Medium
    (79.5%); a p95 of 63 to 126 ms with two runs on two cores. A candidate for the
    server's Hard, not yet in it."""
    throw_reach: int = 5
    """Throws leaving more than this much above the least deadwood are not considered."""
    clinch_reach: int = 40
    """With ``score``, after the early turns Hard searches a knock only when it
    needs this many points or fewer to win the match (a knock rarely wins more)."""
    rollout: bool = True
    """Play the rest of the hand out from the closest throws (:mod:`ginrummy.bots._rollout`)
    and weigh how each tends to end beside the evaluation.

    Measured on tuning seeds 8001 to 8250 (500 matches each, paired with Hard
    without it): +5.4 points of win share against the camper (+1.1 to +9.7),
    points per hand +1.02 to +2.13; against ``simple`` -0.4 (-3.5 to +2.7).
    Weights 0.5 and 2 gained +3.6 and +4.0 against the camper. On the report
    seeds 904001 to 905000 (2,000 matches each, paired, with ``rollout_layoffs``)
    the gain did not hold against the camper (-0.1, -2.3 to +2.2) and was +1.3
    against ``simple`` (-0.3 to +2.9); docs/strength/ROUNDS.md has the figures."""
    rollout_samples: int = 48
    """With ``rollout``: dealt hands (and stocks) per throw decision, shared by the throws.

    48 in the app's Hard since the round "every play-out doubled" (24 before; the offline
    app keeps 24: :data:`ginrummy.offline.BROWSER_ROLLOUT_SAMPLES`). Paired with 24,
    2,000 matches a range: against OpenSpiel's bot +0.9 points of win share on fresh
    seeds 950201 to 951200 (-0.5 to +2.4), where it was chosen, then +1.2 on 951201 to
    952200 (-0.2 to +2.7), +1.1 over both (+0.1 to +2.1); against ``simple`` +0.7 on
    952201 to 953200 (-0.8 to +2.1); against the camper +0.2 on 952201 to 953200 (-1.7
    to +2.1); decision p95 some 1.5 to 2 times 24's (docs/strength/ROUNDS.md). 64, on tuning
    seeds 8751 to 9750 against the camper: +0.1 (-1.8 to +2.1). 96, paired with 48 (the
    round "every play-out doubled again"): against OpenSpiel's bot +0.0 on 962101 to
    963100 (2,000 matches, -1.4 to +1.4), against the camper +0.1 on tuning seeds 8751 to
    9250 (1,000 matches, -2.4 to +2.6), at some 2.5 times the decision p95; not kept.
    ``hard:rollout_samples=24`` is Hard before."""
    rollout_throws: int = 3
    """With ``rollout``: how many of the best-valued throws are played out.

    Widened with ``rollout_margin`` to 5 throws within 5 points, measured on seeds
    8751 to 9750 (2,000 matches each, paired): -0.1 points (-1.6 to +1.5) against
    the camper, -0.4 (-1.4 to +0.5) against ``simple``."""
    rollout_margin: float = 3.0
    """With ``rollout``: only throws valued within this much of the best are played out."""
    rollout_weight: float = 1.5
    """With ``rollout``: how much a point of a play-out's mean outcome counts against a
    point of the evaluation.

    1 until the round of 2026-12-03 (chosen on 500 matches when the play-outs came in).
    1.5 against 1, paired: +0.5 points of win share against the camper on tuning seeds
    8751 to 9750 (-0.5 to +1.5), then on seeds never tuned on +0.8 against the camper
    (920001 to 921000, -0.2 to +1.7) and +0.5 against ``simple`` (919001 to 920000, -0.2
    to +1.2), 2,000 matches each (docs/strength/ROUNDS.md)."""
    rollout_choosiness: float = 0.7
    """With ``rollout``: ``choosiness`` for the hands the play-outs deal the other player
    (the knock search keeps ``choosiness``).

    The tidier the dealt hands, the worse they read the danger of a throw (danger AUC
    0.800 untidied, 0.790 at 0.7, 0.777 at 1.2, against 0.808 for the card weights:
    ``bench/bench_reading.py --guesses 64``), but the play-outs need the other hand as
    far on as a player's: measured on tuning seeds 8751 to 9750 (2,000 matches each
    against the camper, paired with the app's Hard), 0 lost 3.5 points of win share
    (-5.7 to -1.4) and 1.2 lost 2.6 (-4.5 to -0.7)."""
    rollout_outs: float = 0.0
    """With ``rollout``: the quick players of the play-outs chase gin (Hard's own player
    always, the other only when ``adapt`` reads it as a camper): of the throws within
    3 points of the least deadwood, each throws the one that leaves the least deadwood
    less this weight (times ``0.9^(turn-1)``) per card that would join a meld. 0: the card
    that leaves the least deadwood. At 1, the quick player's throw is the camper's in 73%
    of 2,678 camper throws and Hard's in 78% of 1,179 (68% and 72% at 0;
    bench/bench_quick_throw.py).

    Measured at 1 on tuning seeds 8751 to 9750 (2,000 matches, paired with the app's
    Hard): +0.3 points of win share against the camper (-1.5 to +2.1), net points a seed
    -0.5 (-5.0 to +3.9). Closer play-outs did not choose better throws: off."""
    rollout_layoffs: bool = True
    """With ``rollout``, against a player not read as a camper (``adapt``): a play-out's
    knock lets the defender lay off on the knocker's melds (without, the two raw
    deadwoods decide it). Against players who knock at once Hard's points come from
    undercuts, which lay-offs make.

    Measured on tuning seeds 8001 to 8250 (500 matches each, paired with the
    play-outs without lay-offs), lay-offs in every hand gained 2.2 points of win
    share against ``simple`` (+0.2 to +4.2) and lost 2.8 against the camper
    (-5.3 to -0.3), hence only against a player not read as a camper."""

    late_playouts: int = 7
    """With ``rollout``: from this turn of Hard's on (0: never), the play-outs weigh up to
    ``late_throws`` throws within ``late_margin`` points of the best, on twice
    ``rollout_samples`` dealt hands: late in a hand Hard's throws lose most to what the
    table knows (``bench/bench_throw_labels.py``).

    On at 7 since the round of 2026-12-04. Paired with Hard without it (2,000 matches
    each): against the camper +0.0 points of win share on tuning seeds 8751 to 9750
    (-1.6 to +1.6) and +0.7 on fresh seeds 922501 to 923500 (-0.9 to +2.3); against
    ``simple`` +0.7 (-0.2 to +1.5) and +0.1 on 924501 to 925500 (-0.6 to +0.9); decision
    p95 30 ms instead of 17. On seeds of its own (unpaired): 60.0% (58.0 to 61.9) of
    2,000 against the camper on 923501 to 924500, 78.9% (77.2 to 80.6) against
    ``simple`` on 925501 to 926500. The report on seeds chosen after it was switched on
    is in docs/strength/ROUNDS.md. ``hard:late_playouts=0`` is Hard without it."""
    late_throws: int = 5
    late_margin: float = 6.0
    knocker_playouts: int = 1
    """``late_playouts`` against a player not read as a camper (``adapt``; in a hand
    not read yet, see ``knocker_belief``): from this turn of Hard's on; 0 keeps
    ``late_playouts``. On in the app's Hard since the round "the wider early play-outs
    where the throws read a knocker", with ``knocker_belief=0.5``;
    ``hard:knocker_playouts=0`` is Hard without it.
    Against a player who knocks at once nearly half the hands end before Hard's 7th
    throw (91 of 200 first hands against ``simple``), so the wider play-outs seldom
    come where the hand is decided.

    Before that round it was off, and always played in a hand not read yet. At 1,
    paired with the app's Hard of the time, 2 matches a seed: against
    OpenSpiel's bot +1.4 points of win share on tuning seeds 8751 to 9750 (-0.1 to
    +2.9) and +1.3 on fresh 942201 to 944200 (+0.1 to +2.5); against ``simple`` +0.8
    on the tuning seeds (-0.7 to +2.3), +0.5 on fresh 941701 to 942200 and -2.0 on
    942701 to 943200 (-4.0 to -0.0); level against the camper's first hands, the only
    ones it changes. In the browser (the offline app) its decisions' p95 was 133 ms
    against the app's 75 ms, and with the faster play-outs, against Medium on the same
    deals, 114 ms against 78 ms: past the 100 ms target there (docs/strength/ROUNDS.md, the
    rounds "wider play-outs from Hard's first turn" and "Hard's play-outs made faster").
    On 944701 to 945200 against OpenSpiel's bot -0.4 (-2.6 to +1.8), on 945201 to 945700
    +2.5 (+0.4 to +4.6): over the 2,500 fresh seeds +1.2 (+0.3 to +2.1); against
    ``simple`` on 945201 to 945700 -0.3, over its 1,500 fresh seeds -0.6 (-1.7 to +0.5);
    against the camper's first hands on 945701 to 946200 -1.3 (-2.9 to +0.3).
    With the cheaper guesses of the round "OpenSpiel's bot ported" its browser p95
    against Medium was 87 ms (99 ms under load) against the app's 74 ms."""
    knocker_belief: float = 0.5
    """With ``knocker_playouts``, in a hand the earlier hands have not read (a match's
    first hand among them): the wider play-outs play only while :func:`camp_chance` of
    the other player's throws so far is below this (1 always, 0 never: only against a
    player the earlier hands show knocking late).

    0.5 in the app's Hard, chosen before any run. On fresh seeds, paired with the app's
    Hard before it (``knocker_playouts=0``), 2 matches a seed: against OpenSpiel's bot
    +2.8 points of win share on 946201 to 946700 (+0.8 to +4.8), +1.0 on 946701 to
    947200 and +0.2 on 947701 to 948200 (+1.3 over the three, +0.1 to +2.5); against
    ``simple`` +0.1 and +1.1 on the first two (+0.6 over both, -0.9 to +2.1); against
    the camper +0.2 on 946701 to 947200 and +0.3 on 947201 to 947700 (+0.3 over both,
    -0.6 to +1.1), where ``knocker_belief=1`` had lost 1.3 on the camper's first hands."""
    knocker_samples: int = 0
    """With ``knocker_playouts``: dealt hands for its play-outs before ``late_playouts``
    (0: twice ``rollout_samples``, as from ``late_playouts`` on).

    Off: 24 (half the cost when ``rollout_samples`` was 24) kept little of the gain.
    Against OpenSpiel's bot on tuning seeds 8751 to 9750 (2,000 matches, paired): +0.3
    points of win share against the app's Hard of the time (-0.8 to +1.3), -1.1 against
    48 hands (-2.7 to +0.4). 96 with ``rollout_samples=24``, on fresh seeds 950201 to
    951200 (2,000 matches, paired with the app's Hard of the time): +0.3 (-1.1 to +1.7),
    decision p95 166 ms instead of 108 beside other runs (96 is what 0 gives now)."""
    knocker_throws: int = 8
    """With ``knocker_playouts``, against a player not read as a camper: how many throws its
    play-outs weigh, within ``knocker_margin`` points of the best (0: ``late_throws`` and
    ``late_margin``, 5 within 6, as against anyone from ``late_playouts`` on).

    8 within 10 in the app's Hard since the round "more throws played out against a
    knocker" (against a player who knocks at once, more play-outs had paid:
    ``knocker_playouts``, ``rollout_samples``). Paired with Hard without it (5 within 6),
    2,000 matches a range on seeds never tuned on, settings chosen before the runs:
    against OpenSpiel's bot +0.4 points of win share on 951201 to 952200 (-0.2 to +1.1),
    against ``simple`` +0.1 on 952201 to 953200 (-0.4 to +0.7), against the camper -0.1
    on 952201 to 953200 (-0.5 to +0.3; only first hands whose throws read a knocker
    change); the three together +0.2 (-0.1 to +0.5). ``hard:knocker_throws=0`` is Hard
    without it."""
    knocker_margin: float = 10.0
    knock_takes: bool = False
    """With ``rollout``, against a player not read as a camper (``adapt``): in the
    play-outs the other player also takes a pile card that melds nothing when taking
    it lets it knock at once, as OpenSpiel's simple bot does (``simple`` takes only
    the cards it melds). A low throw beside a hand a few points above the knock limit
    then ends the hand, which the play-outs otherwise do not see.

    Off: measured on tuning seeds 8751 to 9750 (2,000 matches each, paired with the
    app's Hard), +0.1 points of win share against OpenSpiel's bot (-0.8 to +0.9), net
    points a seed -1.1 (-2.7 to +0.6); against ``simple``, which never does it, -0.6
    (-1.5 to +0.3), net -2.0 (-3.8 to -0.2)."""
    take_to_knock: bool = True
    """In the turns Hard knocks in (the first ``early_turns``, more against a camper:
    ``camp_turns``), take a pile card that melds nothing when it brings the hand within
    the knock limit at once (the search then decides the knock). Without it such a card
    is judged as a swap of deadwood, and one that shares no meld with the hand is never
    taken.

    On since the round of 2026-12-04 (evening). Paired with Hard without it on seeds
    never tuned on (2,000 matches each): +0.1 points of win share against the camper
    (930001 to 931000, -0.4 to +0.5; 79 seeds of 1,000 played differently), +0.0
    against OpenSpiel's bot (932001 to 933000, -0.1 to +0.1; 8 seeds) and no game
    changed against ``simple`` (931001 to 932000): a rare chance, taken when it comes.
    ``hard:-take_to_knock`` is Hard without it."""

    knocker_choosiness: float = 0.0
    """With ``rollout``: ``rollout_choosiness`` against a player the match's earlier hands
    show knocking late (one that knocks as soon as it can); 0 keeps ``rollout_choosiness``.

    Off (no gain). ``rollout_choosiness`` was chosen against the camper, whose true hands
    the play-outs' hands match at 0.7 a turn; against ``simple`` read as a knocker,
    hands dealt at 0.7 are closer to knocking than its true hand from its 5th turn (the
    chance that its next draw lets it knock: 0.39 against 0.18 at its 8th turn), and at
    0.35 as close as the true hand up to its 9th (``bench/bench_closeness.py``). Yet
    0.35 lost 2.7 points of win share against ``simple`` (-4.8 to -0.6) and 1.0 lost 2.5
    (-4.4 to -0.6) on tuning seeds 8751 to 9250, and 1.0 lost 1.2 against OpenSpiel's
    bot (-2.5 to +0.1, 8751 to 9750), paired with the app's Hard (docs/strength/ROUNDS.md, the
    round "how close to knocking the play-outs deal a knocker's hand")."""

    unread_fit: float = 1.0
    """With ``silence``: after its first ``early_turns`` turns, a guess in which the other
    player could have knocked is kept this share of the time while the match's earlier
    hands have not told whether it knocks late or camps (``adapt``: a match's first
    hand, mostly). 1 keeps every such guess, as for a camper; 0 deals none, as for a
    player who knocks at once; 0.5 weighs the two alike.

    Off (1): on single hands (every one a match's first) on seeds 8751 to 10750, paired
    with the app's Hard, 0.5 was level against the camper (-0.06 net points a seed) and
    +0.45 against ``simple`` (-0.02 to +0.93), 0 +0.13: first hands are one in seven of
    a match, too few for that to show in the win share."""

    def tidying(self, opp_turns: int, *, playouts: bool = False, knocker: bool = False) -> int:
        """How many extra cards a hand dealt to the other player is tidied with after
        ``opp_turns`` of its turns (``choosiness``, or ``rollout_choosiness`` for the
        play-outs, ``knocker_choosiness`` for them against a knocker when set; at most
        ``max_extra``)."""
        rate = self.rollout_choosiness if playouts else self.choosiness
        if playouts and knocker and self.knocker_choosiness:
            rate = self.knocker_choosiness
        return min(self.max_extra, round(rate * opp_turns))


@dataclass(frozen=True, slots=True)
class KnockOdds:
    """What the search found for one knock, as shares of the dealt hands."""

    ev: float
    """Expected points (an undercut counts negative, with its bonus)."""
    undercut: float
    """The chance of being undercut."""
    wins_match: float = 0.0
    """The chance the knock's points reach the match target."""
    loses_match: float = 0.0
    """The chance of an undercut that gives the other player the match."""


def hard_variant(spec: str, seed: int) -> HardBot:
    """Hard with some habits switched off (``-``) or on (``+``), or a setting changed,
    for the ablation study: ``"-infer,-search"``, ``"+lookahead"``, ``"early_turns=6"``."""
    config = HardConfig()
    names = {f.name for f in fields(HardConfig)}
    for part in filter(None, (p.strip() for p in spec.split(","))):
        if part[:1] in "-+" and part[1:] in names:
            config = replace(config, **{part[1:]: part[0] == "+"})
        elif "=" in part and part.split("=")[0] in names:
            key, value = part.split("=", 1)
            config = replace(config, **{key: type(getattr(config, key))(value)})
        else:
            raise ValueError(f"unknown Hard option {part!r}; the options are {sorted(names)}")
    bot = HardBot(seed, config)
    bot.name = f"hard:{spec}"
    return bot


@lru_cache(maxsize=1 << 16)
def _deadwood_cards(hand: Bitmask, ace_high: bool) -> Bitmask:
    arrangement = melds.best_arrangement(CardSet.from_mask(hand), ace_high=ace_high)
    return mask_of(arrangement.deadwood)


def potential(reading: Reading, hand: Bitmask, horizon: float) -> float:
    """Expected deadwood saved by the pairs and near-runs of ``hand`` over the coming draws.

    A combination counts only through its live outs (cards that may still
    come from the stock), so a pair whose other two cards are dead is worth nothing.
    """
    dead = _deadwood_cards(hand, reading.ace_high)
    if not dead:
        return 0.0
    unseen = max(1, reading.unseen.bit_count())
    total = 0.0
    cards = bits(dead)
    for i, x in enumerate(cards):
        for y in cards[i + 1 :]:
            gain = CARD_POINTS[x] + CARD_POINTS[y]
            outs = 0.0
            if x % 13 == y % 13:
                for s in range(4):
                    c = s * 13 + x % 13
                    if c != x and c != y:
                        outs += reading.p_live(c)
            elif x // 13 == y // 13 and y - x <= 2:
                if y - x == 1:
                    if x % 13 > 0:
                        outs += reading.p_live(x - 1)
                    if y % 13 < 12:
                        outs += reading.p_live(y + 1)
                else:
                    outs += reading.p_live(x + 1)
            else:
                continue
            total += gain * outs
        # A deadwood card that a single card would join to one of the melds.
        for n in _one_gap(x, hand & ~dead):
            total += CARD_POINTS[x] * reading.p_live(n) * 0.5
    return total * min(1.0, horizon / unseen)


def live_future_deadwood(reading: Reading, hand: Bitmask, best: float, draws: int = 1) -> float:
    """The deadwood of ``hand`` one draw ahead: the mean over its ``best`` best draws.

    MARJJ's look-ahead, with Hard's card reading: each unseen card is drawn
    in turn (the best card of the eleven then thrown) and counts by its
    chance to be in the stock, so a card the other player likely holds
    counts little. ``draws=2`` looks two draws ahead.
    """
    if draws >= 2:
        return two_draw_future(hand, reading.live, reading.ace_high, best)
    return weighted_future_deadwood(hand, reading.live, reading.ace_high, best)


def _lay_off_spots(arrangement: melds.Arrangement, ace_high: bool) -> tuple[melds.LayOffSpot, ...]:
    """Where the other hand could lay off: each run's chains of cards outward, each set's fourth."""
    return melds.lay_off_spots(arrangement.meld_masks, ace_high=ace_high)


def _layable(spots: tuple[melds.LayOffSpot, ...], hand: Bitmask) -> int:
    """Points of the cards of ``hand`` that could be laid off on these spots (an upper bound)."""
    total = 0
    for spot in spots:
        for chain in spot.chains:
            for c in chain:
                if not hand >> c & 1:
                    break
                total += CARD_POINTS[c]
    return total


def _one_gap(card: int, melded: Bitmask) -> list[int]:
    """Cards that would join ``card`` to a run it is two ranks from."""
    rank, out = card % 13, []
    for step in (-1, 1):
        far = rank + 2 * step
        if 0 <= far <= 12 and melded >> (card + 2 * step) & 1:
            out.append(card + step)
    return out


class HardBot:
    """The strongest level: reads the table, throws safely, knocks by the odds."""

    name = "hard"

    def __init__(self, seed: int = 0, config: HardConfig | None = None) -> None:
        self.seed = seed
        self.config = config or HardConfig()
        self._judge = self
        if self.config.lookahead and not self.config.take_by_lookahead:
            # A pile card that melds nothing is judged by the deadwood and the
            # live combinations, without the look-ahead.
            self._judge = HardBot(seed, replace(self.config, lookahead=False, potential=True))

    # -- evaluation --

    def _horizon(self, reading: Reading) -> float:
        """Roughly how many more draws this player gets."""
        return max(1.0, min(10.0, (reading.stock_count - 2) / 2))

    def _value(self, reading: Reading, hand: Bitmask, turn: int = 1, draws: int = 1) -> float:
        """How bad a ten-card hand is: deadwood, less what its live combinations promise,
        plus (with ``lookahead``) the weighted deadwood ``draws`` draws ahead."""
        config = self.config
        value = float(deadwood_of(hand, reading.ace_high))
        if config.potential:
            value -= config.potential_weight * potential(reading, hand, self._horizon(reading))
        if config.lookahead:
            weight = config.lookahead_weight * config.lookahead_decay ** max(0, turn - 1)
            value += weight * live_future_deadwood(reading, hand, config.lookahead_best, draws)
        return value

    def _throw_cost(
        self, reading: Reading, card: int, dangers: dict[int, float] | None = None
    ) -> float:
        """What giving ``card`` to the other player risks (``dangers``: from
        :meth:`_dealt_dangers`; without, card by card)."""
        if not self.config.safety:
            return 0.0
        chance = danger(reading, card) if dangers is None else dangers[card]
        return self.config.safety_weight * chance

    def _dealt_dangers(
        self,
        view: PlayerView,
        reading: Reading,
        opp_turns: int,
        choices: list[int],
        fits: Fits | None,
    ) -> dict[int, float] | None:
        """With ``dealt_danger``: each throw's danger over hands dealt to the other player."""
        config = self.config
        if not (config.safety and config.dealt_danger):
            return None
        # A stream of its own, so the knock search and the play-outs deal as without it.
        rng = decision_rng(self.seed, view, "danger")
        extra = config.tidying(opp_turns)
        guesses = [sample_opponent(reading, rng, extra, fits) for _ in range(config.danger_samples)]
        return dealt_danger(guesses, choices, reading.ace_high)

    def _scored_throws(
        self,
        reading: Reading,
        hand: Bitmask,
        choices: list[int],
        turn: int = 1,
        dangers: dict[int, float] | None = None,
        draws: int = 1,
    ) -> list[tuple[float, int, int]]:
        """The throws worth weighing, best first: (value, minus the card's points, card);
        ``draws``: how far the look-ahead looks."""
        left = {c: deadwood_of(hand & ~(1 << c), reading.ace_high) for c in choices}
        # A throw leaving this much more deadwood than the best is never worth the look-ahead.
        reach = min(left.values()) + self.config.throw_reach
        scored = [
            (
                self._value(reading, hand & ~(1 << c), turn, draws)
                + self._throw_cost(reading, c, dangers),
                -CARD_POINTS[c],
                c,
            )
            for c in choices
            if left[c] <= reach
        ]
        scored.sort()
        return scored

    def _played_out_throw(
        self,
        view: PlayerView,
        reading: Reading,
        record: PublicRecord,
        choices: list[int],
        early: int,
        style: tuple[int, int],
        fits: Fits | None,
        dangers: dict[int, float] | None,
    ) -> int:
        """The throw, with the closest few also judged by play-outs of the hand
        (``style``: the other player's :func:`knocking_style`; ``fits``: see
        :meth:`_fits`; ``dangers``: see :meth:`_dealt_dangers`)."""
        config = self.config
        scored = self._scored_throws(
            reading, reading.mine, choices, record.my_turns, dangers, self._draws(style)
        )
        best = scored[0][0]
        passed, late = style
        start = config.late_playouts
        belief = config.knocker_belief
        knocker = config.knocker_playouts > 0 and (
            passed < late
            or (passed == late and (belief >= 1 or camp_chance(record.opp_threw) < belief))
        )
        if knocker:
            start = config.knocker_playouts
        far_on = 0 < start <= record.my_turns
        count = config.late_throws if far_on else config.rollout_throws
        margin = config.late_margin if far_on else config.rollout_margin
        if far_on and knocker and config.knocker_throws:
            count, margin = config.knocker_throws, config.knocker_margin
        samples = 2 * config.rollout_samples if far_on else config.rollout_samples
        if far_on and config.knocker_samples and record.my_turns < config.late_playouts:
            samples = config.knocker_samples
        close = [s for s in scored[:count] if s[0] <= best + margin]
        if len(close) < 2:
            return scored[0][2]
        settings = view.settings
        rules = Playout(
            knock_limit=view.knock_limit,
            gin_bonus=settings.gin_bonus,
            undercut_bonus=settings.undercut_bonus,
            my_turns=record.my_turns,
            their_turns=record.opp_turns,
            my_knock_turns=early,
            their_knock_turns=config.early_turns if passed > late else 1 << 20,
            ace_high=reading.ace_high,
            layoffs=config.rollout_layoffs and passed <= late,
            my_outs=config.rollout_outs,
            their_outs=config.rollout_outs if passed > late else 0.0,
            their_knock_takes=config.knock_takes and passed <= late,
        )
        extra = config.tidying(record.opp_turns, playouts=True, knocker=late > passed)
        outcomes = throw_outcomes(
            reading,
            reading.mine,
            [c for _, _, c in close],
            decision_rng(self.seed, view),
            rules,
            samples,
            extra,
            fits,
        )
        weight = config.rollout_weight
        return min(close, key=lambda s: (s[0] - weight * outcomes[s[2]], s[1], s[2]))[2]

    # -- decisions --

    def choose(self, view: PlayerView) -> Action:
        """One legal action for ``view``."""
        record = read_record(view)
        reading = self._read(view, record)
        hand = reading.mine
        if view.phase in (Phase.UPCARD, Phase.DRAW):
            top = view.top_of_pile
            if len(view.legal_actions) < 2 or top is None:
                return take_or_draw(view, False)
            turn = record.my_turns + 1
            wants = self._wants(reading, hand, int(top), turn) or self._takes_to_knock(
                view, record, reading, int(top), turn
            )
            return take_or_draw(view, wants)
        big = big_gin_action(view)
        if big is not None:
            return big
        knocks = knock_cards(view)
        config = self.config
        style = self._style(view)
        early = self._early_turns(style, record.opp_threw)
        fits = self._fits(view, record, reading, style)
        if knocks:
            action = self._knock(
                view, reading, record.my_turns, record.opp_turns, knocks, early, fits
            )
            if action is not None:
                return action
        choices = discard_cards(view)
        dangers = self._dealt_dangers(view, reading, record.opp_turns, choices, fits)
        if config.rollout:
            card = self._played_out_throw(
                view, reading, record, choices, early, style, fits, dangers
            )
        else:
            _, _, card = self._scored_throws(
                reading, hand, choices, record.my_turns, dangers, self._draws(style)
            )[0]
        return Discard(FULL_DECK[card])

    def _draws(self, style: tuple[int, int]) -> int:
        """How many draws ahead the throw looks against a player of this ``style``."""
        config = self.config
        passed, late = style
        if config.knocker_draws and passed <= late:
            return config.knocker_draws
        return config.lookahead_draws

    def _style(self, view: PlayerView) -> tuple[int, int]:
        """The other player's :func:`knocking_style` (``(0, 0)`` without ``adapt``)."""
        config = self.config
        return knocking_style(view, config.early_turns) if config.adapt else (0, 0)

    def _fits(
        self, view: PlayerView, record: PublicRecord, reading: Reading, style: tuple[int, int]
    ) -> Fits | None:
        """How well a guess at the other hand fits what the other player did and did
        not do (``silence``, ``melded_takes``, ``last_turn``, ``sensible_throw``,
        ``knocker_throw``); ``None`` when nothing is read."""
        config = self.config
        passed, late = style
        model = config.camper_model == 2 or (config.camper_model == 1 and passed > late)
        # A player who knocks at once throws to the least deadwood.
        knocker = config.knocker_throw if passed <= late else 0.0
        reads = config.silence or config.melded_takes or config.last_turn or config.sensible_throw
        if record.opp_turns < 1 or not (reads or model or knocker):
            return None
        made = throws(view) if model else []
        marjj = made[-1] if made else None
        # The other player's latest throw, and the pile card it passed before it.
        threw = record.opp_threw[-1] if record.opp_threw else None
        passed_card = record.opp_last_passed
        slack = config.throw_slack if config.sensible_throw else -1
        last_turn = config.last_turn
        above = -1
        unread = 1.0
        if config.silence:
            # Nobody holding gin throws on; a player the earlier hands show knocking
            # late knocks whenever it can, and every player knocks in its first turns.
            knocks_now = late > passed or record.opp_turns <= config.early_turns
            above = view.knock_limit if knocks_now else 0
            if not knocks_now and passed == late:
                # Not read yet: a knocker would have knocked, a camper may wait.
                unread = config.unread_fit
        ace_high, held = reading.ace_high, reading.known_opp
        melded = config.melded_takes and held != 0
        limit = view.knock_limit

        def fits(hand: Bitmask) -> float:
            dead = deadwood_of(hand, ace_high)
            if dead <= above:
                return 0.0
            chance = unread if dead <= limit else 1.0
            if melded and held & _deadwood_cards(hand, ace_high):
                chance *= MELDED_TAKES_MISS
            if threw is not None and (slack >= 0 or knocker):
                least = melds.deadwood_after_discard_mask(hand | 1 << threw, ace_high)
                if slack >= 0 and dead > least + slack:
                    chance *= ODD_THROW_MISS
                if knocker and dead > least:
                    chance *= knocker
            if threw is not None and last_turn:
                if melds_with_two(hand, threw, ace_high):
                    chance *= THREW_MISS
                if passed_card is not None and melds_with_two(
                    hand | 1 << threw, passed_card, ace_high
                ):
                    chance *= PASSED_MISS
            if marjj is not None and not camper_would_throw(hand, marjj, ace_high):
                chance *= CAMPER_THROW_MISS
            return chance

        return fits

    def _read(self, view: PlayerView, record: PublicRecord) -> Reading:
        """What this player knows and believes of the cards (``bench/bench_oracle.py``
        replaces it to measure what knowing more would be worth)."""
        return read_table(view, record, infer=self.config.infer)

    def _early_turns(self, style: tuple[int, int], threw: list[int]) -> int:
        """How many turns Hard knocks by the search alone, for this other player
        (``style``: its :func:`knocking_style`, read with ``adapt``)."""
        config = self.config
        passed, late = style
        if passed > late:
            return max(config.early_turns, config.camp_turns)
        if config.camp and camp_chance(threw) > config.camp_belief:
            return max(config.early_turns, config.camp_turns)
        if late > passed and config.knocker_turns:
            return config.knocker_turns
        return config.early_turns

    def _takes_to_knock(
        self, view: PlayerView, record: PublicRecord, reading: Reading, top: int, turn: int
    ) -> bool:
        """With ``take_to_knock``: whether the pile card, melded or not, brings the hand
        within the knock limit at once in a turn Hard knocks in."""
        config = self.config
        if not (config.take_to_knock and config.upcard):
            return False
        hand, ace_high, limit = reading.mine, reading.ace_high, view.knock_limit
        now = deadwood_of(hand, ace_high)
        if now <= limit or not knocks_with(hand, top, now, limit, ace_high):
            return False
        # Reading the earlier hands costs more than the rest: only when it decides.
        return turn <= self._early_turns(self._style(view), record.opp_threw)

    def _wants(self, reading: Reading, hand: Bitmask, top: int, turn: int) -> bool:
        """Whether to take the pile card (or the upcard) rather than draw blind."""
        ace_high = reading.ace_high
        taken = hand | 1 << top
        choices = bits(hand)
        now_dead = deadwood_of(hand, ace_high)
        melded = any(
            deadwood_of(taken & ~(1 << d), ace_high)
            < deadwood_of(taken & ~(1 << d) & ~(1 << top), ace_high) + CARD_POINTS[top]
            and deadwood_of(taken & ~(1 << d), ace_high) < now_dead
            for d in choices
        )
        if not self.config.upcard:
            return melded
        if melded:
            return True
        if not any(hand >> n & 1 for n in neighbours(top)):
            # A card that shares no meld with the hand only swaps deadwood.
            return False
        # Not a meld: take it only when it clearly beats a blind draw.
        judge = self._judge
        after, _, _ = judge._scored_throws(reading, taken, choices, turn)[0]
        before = judge._value(reading, hand, turn)
        return after < before - self.config.take_margin - 2.0

    def _knock(
        self,
        view: PlayerView,
        reading: Reading,
        my_turns: int,
        opp_turns: int,
        knocks: set[int],
        early: int,
        fits: Fits | None,
    ) -> Action | None:
        ace_high = reading.ace_high
        hand = reading.mine
        left = {c: deadwood_of(hand & ~(1 << c), ace_high) for c in knocks}
        least = min(left.values())
        candidates = [c for c in knocks if left[c] == least]
        if least == 0:
            card = min(candidates, key=lambda c: (-CARD_POINTS[c], c))
            return Knock(FULL_DECK[card])
        config = self.config
        needs = _needs(view)
        at_wall = config.wall and view.stock_count <= DEAD_AT
        if (
            config.search
            and my_turns > early
            and not self._mid(my_turns, least)
            and least > config.late_deadwood
            and not (config.score and needs[0] <= config.clinch_reach)
            and not at_wall
        ):
            return None
        best: tuple[float, int, tuple[melds.Meld, ...], KnockOdds] | None = None
        for c in candidates:
            # Every candidate meets the same dealt hands, so two knocks are told
            # apart by what they leave, not by the luck of their deals.
            rng = decision_rng(self.seed, view)
            kept = hand & ~(1 << c)
            options = arrangements(kept, ace_high)
            if self.config.layoff:
                chosen = min(options, key=lambda a: lay_off_exposure(reading, a.meld_masks))
            else:
                chosen = options[0]
            odds = self._knock_odds(reading, chosen, rng, opp_turns, view.settings, needs, fits)
            if best is None or odds.ev > best[0]:
                best = (odds.ev, c, chosen.melds, odds)
        assert best is not None
        _, card, chosen_melds, odds = best
        if at_wall and config.search and odds.ev > 0:
            # A plain throw now ends the hand dead, for nothing: any knock
            # expected to gain is worth more.
            return Knock(FULL_DECK[card], chosen_melds if self.config.layoff else None)
        if self._should_knock(my_turns, least, odds, early):
            return Knock(FULL_DECK[card], chosen_melds if self.config.layoff else None)
        return None

    def _knock_odds(
        self,
        reading: Reading,
        arrangement: melds.Arrangement,
        rng: random.Random,
        opp_turns: int,
        settings: Settings,
        needs: tuple[int, int],
        fits: Fits | None = None,
    ) -> KnockOdds:
        """Expected points, undercut chance and match-ending chances of knocking so
        (the other hand dealt as :meth:`_fits` weighs it)."""
        mine = arrangement.deadwood_points
        if not self.config.search:
            return KnockOdds(float(25 - mine), 0.0)
        bonus = settings.undercut_bonus
        need_mine, need_theirs = needs
        total = 0.0
        undercuts = wins = losses = 0
        n = self.config.samples
        extra = self.config.tidying(opp_turns)
        spots = _lay_off_spots(arrangement, reading.ace_high)
        laid_out = arrangement.meld_masks
        for _ in range(n):
            opp = sample_opponent(reading, rng, extra, fits)
            raw = deadwood_of(opp, reading.ace_high)
            most = _layable(spots, opp)
            if raw - most > mine or raw <= mine:
                # Clear either way: lay-offs cannot change who wins.
                theirs = raw - most if raw > mine else raw
            else:
                theirs = melds.layoff_deadwood_mask(laid_out, opp, reading.ace_high)
            if theirs > mine:
                total += theirs - mine
                wins += theirs - mine >= need_mine
            else:
                undercuts += 1
                total -= mine - theirs + bonus
                losses += mine - theirs + bonus >= need_theirs
        return KnockOdds(total / n, undercuts / n, wins / n, losses / n)

    def _mid(self, my_turns: int, deadwood: int) -> bool:
        """Whether this turn and deadwood fall in the middle knocking window."""
        config = self.config
        return my_turns <= config.mid_turns and deadwood >= config.mid_deadwood

    def _should_knock(self, my_turns: int, deadwood: int, odds: KnockOdds, early: int) -> bool:
        if not self.config.search:
            return True
        config = self.config
        risk = odds.undercut
        if config.score:
            # An undercut that ends the match costs the match, not a hand: count it twice.
            risk += odds.loses_match
            # A match-winning knock takes the risk any knock may take at this turn.
            limit = config.early_risk if my_turns <= early else config.late_risk
            if odds.wins_match >= config.clinch and risk < limit:
                return True
        # Early, the other hand is young: knock. Later, only with the odds.
        if my_turns <= early or self._mid(my_turns, deadwood):
            return risk < config.early_risk
        if deadwood > config.late_deadwood:
            return False
        return risk < config.late_risk and odds.ev > config.min_ev


CAMP_EVIDENCE: tuple[tuple[float, ...], ...] = (
    (+0.00, +0.74, +1.50, +1.32, -0.16),
    (+0.45, +0.83, +0.99, +0.60, -0.25),
    (+0.58, +1.40, +0.74, -0.02, -0.21),
    (+1.68, +1.26, +0.35, -0.27, -0.13),
    (+2.40, +0.98, +0.10, -0.39, -0.08),
    (+2.98, +1.01, -0.17, -0.44, -0.09),
    (+3.35, +0.79, -0.24, -0.58, -0.13),
    (+3.87, +0.30, -0.59, -0.44, -0.21),
)
"""For the other player's n-th throw (the last row for the eighth and after) and
its points (1-3, 4-5, 6-7, 8-9, 10), the log of how much likelier a camper
throws it than a player who knocks at once. Measured from 1,500 hands each of
Hard against ``camper``, ``simple`` and Medium (seeds 5000 to 6499): a knocker
throws the dearest card it can spare, so a low throw early means a hand kept
for gin (a knocker with only low cards left would have knocked)."""
_CAMP_BINS = (3, 5, 7, 9)


def camp_chance(threw: list[int]) -> float:
    """The chance that the other player camps for gin, read from the points of their throws
    (even odds before the first)."""
    odds = 0.0
    for i, card in enumerate(threw):
        points = CARD_POINTS[card]
        row = CAMP_EVIDENCE[min(i, len(CAMP_EVIDENCE) - 1)]
        odds += row[sum(points > b for b in _CAMP_BINS)]
    return 1.0 / (1.0 + math.exp(-odds))


def knocking_style(view: PlayerView, early: int) -> tuple[int, int]:
    """How the other player knocked in the match's earlier hands: the hands in which
    it passed up a knock after its first ``early`` turns, and the hands in which it
    knocked (short of gin) after them.

    After a knock or gin both hands are laid down and every draw is shown, so the
    other player's ten cards after each of its throws can be traced back from the
    cards it laid down: a count within the knock limit after a throw past its
    ``early``-th turn is a knock it could have made and did not.
    """
    them = 1 - view.player
    ace_high = view.settings.ace_high
    passed = late = 0
    for earlier in view.earlier:
        result = earlier.result
        if result.knocker is None or result.kind is ResultKind.BIG_GIN:
            continue
        if result.knocker == them:
            held = [c for meld in result.knocker_melds for c in meld]
            held += result.knocker_deadwood
            turns = earlier.turns[them]
            late += result.kind is not ResultKind.GIN and turns > early
        else:
            held = [c for meld in result.defender_melds for c in meld]
            held += [lay.card for lay in result.lay_offs]
            held += result.defender_deadwood
        passed += _passed_up(earlier, them, mask_of(held), early, ace_high)
    return passed, late


def _passed_up(earlier: EarlierHand, them: int, held: Bitmask, early: int, ace_high: bool) -> bool:
    """Whether ``them``, holding ``held`` at the end of ``earlier``, had a knock after one
    of its throws past its ``early``-th turn (traced back through the revealed log)."""
    turn = earlier.turns[them]
    for e in reversed(earlier.events):
        if getattr(e, "player", None) != them:
            continue
        if isinstance(e, Knocked):
            held |= 1 << e.card
        elif isinstance(e, Discarded):
            # ``held`` is the hand this throw left.
            if turn > early and deadwood_of(held, ace_high) <= earlier.knock_limit:
                return True
            held |= 1 << e.card
        elif isinstance(e, UpcardTaken | StockDrawn | PileDrawn):
            if e.card is None:
                return False
            held &= ~(1 << e.card)
            turn -= 1
            if turn <= early:
                return False
    return False


def _needs(view: PlayerView) -> tuple[int, int]:
    """Points this player and the other still need to win the match (a lone hand: the target)."""
    target = view.settings.match_to
    mine, theirs = view.scores[view.player], view.scores[1 - view.player]
    return max(1, target - mine), max(1, target - theirs)
