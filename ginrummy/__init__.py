"""Gin Rummy: a rules engine, computer opponents and a web app."""
from ginrummy.cards import Card, CardParseError, CardSet, format_cards, parse_card, parse_cards
from ginrummy.melds import (
    Arrangement,
    LayOff,
    LayOffResult,
    all_best_arrangements,
    best_arrangement,
    best_layoff,
    deadwood,
    deadwood_after_discard,
    knock_options,
)
