"""``ginrummy demo``: two simple players play a whole match in the terminal.

A quick look at the engine from the terminal, end to end (``ginrummy serve``
plays in a browser). Each player sees only its own
:class:`~ginrummy.hand.PlayerView` and plays a plain greedy game: it takes
the pile card when that lowers its deadwood (else it draws from the stock),
throws the card that leaves the least deadwood, and knocks at the first
chance. After each hand it prints both hands as laid down, the lay-offs, the
counts, the result and the running score; at the end the score sheet and the
final score.

This module prints, so the engine never imports it; only the ``ginrummy``
command does (``ginrummy demo --seed 7 --to 100``).

>>> from ginrummy.demo import play_match
>>> match = play_match(seed=1, match_to=50)
>>> match.is_over and max(match.scores) >= 50
True
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from typing import TextIO

from ginrummy.cards import Card, format_cards
from ginrummy.hand import (
    Action,
    DeclareBigGin,
    Discard,
    DrawPile,
    DrawStock,
    Knock,
    PassUpcard,
    Phase,
    PlayerView,
    ResultKind,
    TakeUpcard,
    shuffled_deck,
)
from ginrummy.match import FinalScore, Match, ScoreEntry
from ginrummy.melds import Meld, deadwood, knock_options
from ginrummy.settings import Settings, SettingsError

__all__ = ["choose", "format_entry", "format_final", "format_sheet", "main", "play_match"]

_RESULT_NAMES = {
    ResultKind.KNOCK: "knock",
    ResultKind.GIN: "gin",
    ResultKind.BIG_GIN: "big gin",
    ResultKind.UNDERCUT: "undercut",
    ResultKind.DEAD: "dead",
}


def _name(player: int | None) -> str:
    return "nobody" if player is None else f"Player {player}"


# --- the simple player -------------------------------------------------------


def _best_throw(cards: Sequence[Card], options: dict[Card, int], allowed: Sequence[Card]) -> Card:
    # Least deadwood left; among equals throw the highest card (then the
    # highest in card order, so the choice is fixed).
    return min(allowed, key=lambda c: (options[c], -c.points, -int(c)))


def choose(view: PlayerView) -> Action:
    """The simple player's action, decided from its own view only.

    >>> from ginrummy.hand import Hand
    >>> hand = Hand.from_seed(3, dealer=0)
    >>> choose(hand.view(1)) in hand.legal_actions()
    True
    """
    legal = view.legal_actions
    if not legal:
        raise ValueError("it is not this player's turn")
    ace_high = view.settings.ace_high
    if DeclareBigGin() in legal:
        return DeclareBigGin()
    if view.phase is Phase.DISCARD:
        options = knock_options(view.hand, ace_high=ace_high)
        knocks = [a.card for a in legal if isinstance(a, Knock)]
        if knocks:
            return Knock(_best_throw(view.hand, options, knocks))
        throws = [a.card for a in legal if isinstance(a, Discard)]
        return Discard(_best_throw(view.hand, options, throws))
    top = view.top_of_pile
    take: Action = TakeUpcard() if view.phase is Phase.UPCARD else DrawPile()
    if top is not None and take in legal:
        now = deadwood(view.hand, ace_high=ace_high)
        with_top = knock_options((*view.hand, top), ace_high=ace_high)
        # The pile card may not be thrown back this turn, so it must stay.
        if min(d for c, d in with_top.items() if c != top) < now:
            return take
    return PassUpcard() if view.phase is Phase.UPCARD else DrawStock()


def play_match(
    *, seed: int | None = None, match_to: int = 100, settings: Settings | None = None
) -> Match:
    """A whole match between two simple players (seeded, or from the system's random source)."""
    rng: random.Random = random.Random(seed) if seed is not None else random.SystemRandom()
    base = settings or Settings()
    match = Match.new(Settings.from_dict({**base.to_dict(), "match_to": match_to}), rng=rng)
    while True:
        while not match.hand.is_over:
            player = match.to_act
            assert player is not None
            match.apply(choose(match.view(player)), player)
        if match.is_over:
            return match
        match.next_hand(shuffled_deck(rng))


# --- printing ------------------------------------------------------------------


def _melds(melds: Sequence[Meld]) -> str:
    return " | ".join(format_cards(m) for m in melds) or "-"


def _deadwood(cards: Sequence[Card], points: int) -> str:
    return f"{format_cards(cards) or '-'} ({points})"


def _row(who: str, what: str, cards: str) -> str:
    return f"  {who:<8}  {what:<8}  {cards}"


def format_entry(entry: ScoreEntry) -> str:
    """One hand's result as the players would read it at the table."""
    head = f"Hand {entry.number} ({_name(entry.dealer)} deals)"
    totals = f"Score: {entry.totals[0]} to {entry.totals[1]}"
    if entry.kind is ResultKind.DEAD:
        return f"{head}: dead hand, nobody scores, nothing is shown.\n  {totals}"
    knocker = entry.knocker
    assert knocker is not None
    if entry.kind is ResultKind.BIG_GIN:
        how = "declares big gin"
    elif entry.kind is ResultKind.GIN:
        how = f"goes gin, throwing {entry.knock_card}"
    else:
        how = f"knocks, throwing {entry.knock_card}"
    defender = _name(1 - knocker)
    lines = [
        f"{head}: {_name(knocker)} {how}",
        _row(_name(knocker), "melds", _melds(entry.knocker_melds)),
        _row("", "deadwood", _deadwood(entry.knocker_deadwood, entry.knocker_points)),
        _row(defender, "melds", _melds(entry.defender_melds)),
    ]
    for lay in entry.lay_offs:
        onto = format_cards(entry.knocker_melds[lay.meld_index])
        lines.append(_row("", "lays off", f"{lay.card} onto {onto}"))
    lines.append(_row("", "deadwood", _deadwood(entry.defender_deadwood, entry.defender_points)))
    double = " (spades double)" if entry.multiplier > 1 else ""
    lines.append(
        f"  {_RESULT_NAMES[entry.kind].capitalize()}: {_name(entry.winner)} scores "
        f"{entry.points}{double}.  {totals}"
    )
    return "\n".join(lines)


_COLUMNS = ("Hand", "Dealer", "Result", "Knocker", "Counts", "Laid off", "Winner", "Points", "P0",
            "P1")  # fmt: skip


def format_sheet(sheet: Sequence[ScoreEntry]) -> str:
    """The score sheet as a table: one row per hand, with the running totals.

    Counts are the knocker's then the defender's deadwood (after lay-offs).
    """
    rows = [_COLUMNS]
    for e in sheet:
        dead = e.kind is ResultKind.DEAD
        rows.append(
            (
                str(e.number),
                f"P{e.dealer}",
                _RESULT_NAMES[e.kind],
                "-" if e.knocker is None else f"P{e.knocker}",
                "-" if dead else f"{e.knocker_points}/{e.defender_points}",
                " ".join(str(lay.card) for lay in e.lay_offs) or "-",
                "-" if e.winner is None else f"P{e.winner}",
                str(e.points),
                str(e.totals[0]),
                str(e.totals[1]),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(_COLUMNS))]
    left = {1, 2, 3, 5, 6}

    def line(row: Sequence[str]) -> str:
        cells = (
            c.ljust(w) if i in left else c.rjust(w)
            for i, (c, w) in enumerate(zip(row, widths, strict=True))
        )
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return "\n".join([line(rows[0]), rule, *(line(r) for r in rows[1:])])


def format_final(final: FinalScore) -> str:
    """The final score: the running totals, each end bonus that applies, the winner."""
    lines = [f"Running score   {final.running[0]:>5} {final.running[1]:>5}"]
    for label, bonus in (
        ("Game bonus", final.game_bonus),
        ("Line bonus", final.line_bonus),
        ("Shutout", final.shutout_bonus),
    ):
        if any(bonus):
            lines.append(f"{label:<15} {bonus[0]:>5} {bonus[1]:>5}")
    lines.append(f"Final score     {final.totals[0]:>5} {final.totals[1]:>5}")
    loser = 1 - final.winner
    lines.append(
        f"{_name(final.winner)} wins the match, "
        f"{final.totals[final.winner]} to {final.totals[loser]}."
    )
    return "\n".join(lines)


# --- the command ---------------------------------------------------------------------


class _UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        raise _UsageError(message)


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(
        prog="ginrummy demo",
        description="Play a match between two simple players and print the score sheet.",
    )
    parser.add_argument(
        "--seed", type=int, default=None, help="replay the same match (default: random)"
    )
    parser.add_argument(
        "--to",
        type=int,
        default=100,
        metavar="POINTS",
        help="match target, 10 to 1000 (default 100)",
    )
    return parser


def main(argv: Sequence[str] | None = None, *, out: TextIO | None = None) -> int:
    """Run ``ginrummy demo [--seed N] [--to 100]``; returns the exit status."""
    stream = sys.stdout if out is None else out
    parser = _parser()
    try:
        args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
        match = play_match(seed=args.seed, match_to=args.to)
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except (_UsageError, SettingsError) as e:
        print(f"{parser.format_usage().rstrip()}\nginrummy demo: {e}", file=sys.stderr)
        return 2
    seed = "random" if args.seed is None else str(args.seed)
    print(f"A match to {match.settings.match_to} (seed {seed}); "
          f"{_name(match.first_dealer)} deals first.\n", file=stream)  # fmt: skip
    for entry in match.sheet:
        print(format_entry(entry) + "\n", file=stream)
    print("Score sheet\n" + format_sheet(match.sheet) + "\n", file=stream)
    final = match.final_score()
    assert final is not None
    print(format_final(final), file=stream)
    return 0
