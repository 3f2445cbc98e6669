"""``camper-lite``: the project's first sketch of a gin camper, kept as a yardstick.

The faithful port of MARJJ is :mod:`ginrummy.bots.camper`; this one lacks
its one-draw look-ahead, which is most of MARJJ's strength (the faithful
camper beats this one clearly, see docs/STRENGTH.md).

It knocks only in its first three turns, while the other hand is still young;
after that it camps: it plays only for gin (and so undercuts players who knock
late with a few points). Each throw is weighed by its own deadwood and by how
much it could help the other hand (read from their pickups, passes and
throws). When it does knock it lays its melds out the way that leaves the
fewest lay-off spots.
"""

from __future__ import annotations

from ginrummy.bots._common import (
    arrangements,
    big_gin_action,
    deadwood_of,
    discard_cards,
    knock_cards,
    read_record,
)
from ginrummy.bots._reading import danger, lay_off_exposure, read_table
from ginrummy.bots.basic import connections, draw_if_it_melds
from ginrummy.cards import CARD_POINTS, FULL_DECK
from ginrummy.hand import Action, Discard, Knock, Phase, PlayerView

__all__ = ["CamperLiteBot"]


class CamperLiteBot:
    """Knocks in its first three turns, then plays for gin."""

    name = "camper-lite"
    knock_turns = 3
    safety_weight = 6.0

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: PlayerView) -> Action:
        """One legal action for ``view``."""
        record = read_record(view)
        reading = read_table(view, record)
        hand = reading.mine
        ace_high = reading.ace_high
        if view.phase in (Phase.UPCARD, Phase.DRAW):
            return draw_if_it_melds(view, hand, ace_high)
        big = big_gin_action(view)
        if big is not None:
            return big
        knocks = knock_cards(view)
        if knocks:
            left = {c: deadwood_of(hand & ~(1 << c), ace_high) for c in knocks}
            least = min(left.values())
            if least == 0 or record.my_turns <= self.knock_turns:
                best = None
                for c in (c for c in knocks if left[c] == least):
                    for a in arrangements(hand & ~(1 << c), ace_high):
                        key = (lay_off_exposure(reading, a.meld_masks), -CARD_POINTS[c], c)
                        if best is None or key < best[0]:
                            best = (key, c, a.melds)
                assert best is not None
                return Knock(FULL_DECK[best[1]], best[2])

        def cost(c: int) -> tuple[float, int, int]:
            left = deadwood_of(hand & ~(1 << c), ace_high)
            return (
                left + self.safety_weight * danger(reading, c),
                connections(c, hand),
                -CARD_POINTS[c],
            )

        return Discard(FULL_DECK[min(discard_cards(view), key=cost)])
