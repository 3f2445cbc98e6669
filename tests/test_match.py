"""The match rules: the deal, the target, the end bonuses, the score sheet; and the demo."""

from __future__ import annotations

import io
import random

import pytest
from conftest import LOSER_1, LOSER_80, deal, gin_deal, gin_match, play

from ginrummy.cards import FULL_DECK, Card
from ginrummy.demo import main as demo_main
from ginrummy.demo import play_match
from ginrummy.hand import Discard, DrawStock, IllegalActionError, ResultKind, StockDrawn
from ginrummy.match import Match
from ginrummy.settings import Settings, ShutoutRule

C = Card.parse


def play_dead_hand(match: Match) -> None:
    """Both pass the upcard, then each draws from the stock and throws that card until dead."""
    play(match, "pass", "pass")
    while not match.hand.is_over:
        match.apply(DrawStock())
        event = match.hand.events[-1]
        assert isinstance(event, StockDrawn) and event.card is not None
        match.apply(Discard(event.card))


def test_first_dealer_is_cut_at_random() -> None:
    dealers = {Match.new(rng=random.Random(seed)).first_dealer for seed in range(20)}
    assert dealers == {0, 1}
    again = Match.new(rng=random.Random(5))
    assert again == Match.new(rng=random.Random(5))


@pytest.mark.parametrize("dealer", [0, 1])
def test_same_dealer_after_dead_hand(dealer: int) -> None:
    match = Match.start(FULL_DECK, first_dealer=dealer)
    play_dead_hand(match)
    assert match.hand.result is not None and match.hand.result.kind is ResultKind.DEAD
    assert match.next_dealer == dealer
    hand = match.next_hand(FULL_DECK)
    assert hand.dealer == dealer and hand.to_act == 1 - dealer
    entry = match.sheet[0]
    assert (entry.kind, entry.winner, entry.points, entry.totals) == (
        ResultKind.DEAD,
        None,
        0,
        (0, 0),
    )
    assert entry.knocker_melds == entry.defender_melds == ()
    assert entry.knocker_deadwood == entry.defender_deadwood == ()


@pytest.mark.parametrize("winner", [0, 1])
def test_deal_passes_after_won_hand(winner: int) -> None:
    match = gin_match([winner], first_dealer=0, loser=LOSER_1)
    assert match.next_dealer == 1
    order, actions = gin_deal(dealer=1, winner=winner, loser=LOSER_1)
    assert match.next_hand(order).dealer == 1
    play(match, *actions)
    assert match.next_dealer == 0


def test_match_ends_at_target() -> None:
    # Each gin against LOSER_1 pays 1 + 25 = 26: 26, 52, 78 reaches 60 on the third.
    settings = Settings(match_to=60)
    match = gin_match([0, 0], settings=settings, loser=LOSER_1)
    assert match.scores == (52, 0) and not match.is_over and match.winner is None
    assert match.final_score() is None
    order, actions = gin_deal(dealer=match.next_dealer, winner=0, loser=LOSER_1)
    match.next_hand(order)
    play(match, *actions)
    assert match.scores == (78, 0)
    assert match.is_over and match.winner == 0 and not match.awaiting_deal
    with pytest.raises(IllegalActionError, match="the match is over") as info:
        match.next_hand(order)
    assert info.value.code == "match_over"
    with pytest.raises(IllegalActionError, match="the match is over") as info:
        match.apply(DrawStock())
    assert (info.value.code, dict(info.value.params)) == ("match_over", {})
    assert not match.can(DrawStock())


def test_match_target_reached_exactly_ends_the_match() -> None:
    match = gin_match([1], settings=Settings(match_to=26), loser=LOSER_1)
    assert match.scores == (0, 26) and match.winner == 1


def test_next_hand_waits_for_the_hand_to_end() -> None:
    match = Match.start(FULL_DECK, first_dealer=0)
    assert not match.awaiting_deal
    with pytest.raises(IllegalActionError, match="still being played") as info:
        match.next_hand(FULL_DECK)
    assert info.value.code == "hand_in_play"
    play_dead_hand(match)
    assert match.awaiting_deal
    with pytest.raises(IllegalActionError, match="deal the next one") as info:
        match.apply(DrawStock())
    assert info.value.code == "deal_next"
    with pytest.raises(IllegalActionError) as info:
        match.default_knock()
    assert info.value.code == "deal_next"


def test_only_the_winner_scores_and_totals_are_the_sum_of_the_sheet() -> None:
    match = gin_match([0, 1, 1, 0], loser=LOSER_1, settings=Settings(match_to=500))
    running = [0, 0]
    for entry in match.sheet:
        assert entry.winner is not None
        running[entry.winner] += entry.points
        assert entry.totals == tuple(running)
    assert match.scores == (52, 52)


def test_no_end_bonuses_by_default() -> None:
    match = gin_match([0], loser=LOSER_80)  # gin against 80 deadwood: 105
    final = match.final_score()
    assert final is not None
    assert match.scores == (105, 0)
    assert final.totals == final.running == (105, 0)
    assert final.game_bonus == final.line_bonus == final.shutout_bonus == (0, 0)


def lost_one_won_four(settings: Settings) -> Match:
    """Player 1 wins one hand (26), then player 0 wins four (26 each) to reach 100."""
    return gin_match([1, 0, 0, 0, 0], loser=LOSER_1, settings=settings)


def test_game_bonus_adds_100_to_the_match_winner() -> None:
    final = lost_one_won_four(Settings(game_bonus=True)).final_score()
    assert final is not None
    assert final.running == (104, 26)
    assert final.game_bonus == (100, 0)
    assert final.totals == (204, 26)


def test_line_bonus_is_25_per_hand_won_to_each_player() -> None:
    final = lost_one_won_four(Settings(line_bonus=True)).final_score()
    assert final is not None
    assert final.line_bonus == (100, 25)
    assert final.totals == (204, 51)


def test_shutout_double_doubles_the_winners_total_after_other_bonuses() -> None:
    settings = Settings(shutout=ShutoutRule.DOUBLE, game_bonus=True, line_bonus=True)
    match = gin_match([0] * 4, loser=LOSER_1, settings=settings)
    final = match.final_score()
    assert final is not None
    assert final.running == (104, 0)
    before = 104 + 100 + 4 * 25
    assert final.shutout_bonus == (before, 0)
    assert final.totals == (2 * before, 0)


def test_shutout_plus_100() -> None:
    match = gin_match([1] * 4, loser=LOSER_1, settings=Settings(shutout=ShutoutRule.PLUS_100))
    final = match.final_score()
    assert final is not None
    assert final.winner == 1
    assert final.totals == (0, 104 + 100)


def test_no_shutout_when_the_loser_scored() -> None:
    final = lost_one_won_four(Settings(shutout=ShutoutRule.DOUBLE)).final_score()
    assert final is not None
    assert final.shutout_bonus == (0, 0) and final.totals == (104, 26)


def test_no_shutout_after_dead_hands_alone() -> None:
    # A dead hand is nobody's: the loser still never scored.
    settings = Settings(shutout=ShutoutRule.PLUS_100, match_to=10)
    match = Match.start(FULL_DECK, first_dealer=0, settings=settings)
    play_dead_hand(match)
    order, actions = gin_deal(dealer=match.next_dealer, winner=1, loser=LOSER_1)
    match.next_hand(order)
    play(match, *actions)
    final = match.final_score()
    assert final is not None and final.totals == (0, 26 + 100)


def test_spades_double_in_the_score_sheet() -> None:
    settings = Settings(spades_double=True, match_to=500)
    order, actions = gin_deal(dealer=0, winner=1, loser=LOSER_1, spade_upcard=True)
    match = Match.start(order, first_dealer=0, settings=settings)
    play(match, *actions)
    entry = match.sheet[-1]
    assert (entry.multiplier, entry.points, entry.totals) == (2, 52, (0, 52))
    order, actions = gin_deal(dealer=1, winner=1, loser=LOSER_1)
    match.next_hand(order)
    play(match, *actions)
    assert (match.sheet[-1].multiplier, match.sheet[-1].points) == (1, 26)


def test_score_sheet_records_the_hands_as_laid_down() -> None:
    # Knocker (player 1) 3S-4S-5S, 8C 8D 8H, 2C-3C-4C and AD; the defender lays off 6S and 7S.
    hand = deal(
        hands={1: "3S 4S 5S 8H 8D 8C 2C 3C 4C AD", 0: "6S 7S KC QD JH TC 9H 5D 2H 9D"},
        upcard="KH",
        stock="KD",
    )
    match = Match.start(hand.deck, first_dealer=0)
    play(match, "pass", "pass", "stock", "knock KD")
    entry = match.sheet[0]
    assert entry.number == 1 and entry.dealer == 0
    assert (entry.kind, entry.knocker, entry.winner) == (ResultKind.KNOCK, 1, 1)
    assert entry.knock_card == C("KD")
    assert set(entry.knocker_melds) == {
        (C("3S"), C("4S"), C("5S")),
        (C("8C"), C("8D"), C("8H")),
        (C("2C"), C("3C"), C("4C")),
    }
    assert entry.knocker_deadwood == (C("AD"),) and entry.knocker_points == 1
    laid = [(lay.card, entry.knocker_melds[lay.meld_index]) for lay in entry.lay_offs]
    assert laid == [(C("6S"), (C("3S"), C("4S"), C("5S"))), (C("7S"), (C("3S"), C("4S"), C("5S")))]
    assert entry.defender_melds == ()
    assert entry.defender_points == 10 * 4 + 9 + 5 + 2 + 9
    assert entry.points == entry.defender_points - 1
    assert entry.totals == (0, entry.points)


def test_match_view_carries_the_score_and_hand_number() -> None:
    match = gin_match([1], loser=LOSER_1)
    order, _ = gin_deal(dealer=1, winner=0, loser=LOSER_1)
    match.next_hand(order)
    view = match.view(0)
    assert (view.scores, view.hand_number) == ((0, 26), 2)


# --- the demo command ----------------------------------------------------------------


def run_demo(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = demo_main(list(args), out=out)
    return code, out.getvalue()


def sheet_rows(text: str) -> list[list[str]]:
    """The rows of the printed score sheet table."""
    lines = text.split("Score sheet\n", 1)[1].splitlines()
    assert lines[0].split()[:3] == ["Hand", "Dealer", "Result"]
    rows = []
    for line in lines[2:]:
        if not line.strip():
            break
        rows.append(line.split())
    return rows


def test_demo_plays_a_match_and_prints_a_sheet_whose_totals_match() -> None:
    code, text = run_demo("--seed", "11", "--to", "100")
    assert code == 0
    match = play_match(seed=11, match_to=100)
    rows = sheet_rows(text)
    assert len(rows) == len(match.sheet) >= 1
    running = [0, 0]
    for number, row in enumerate(rows, start=1):
        hand_no, winner, points, p0, p1 = row[0], row[-4], int(row[-3]), int(row[-2]), int(row[-1])
        assert int(hand_no) == number
        if winner != "-":
            running[int(winner[1])] += points
        else:
            assert points == 0
        assert [p0, p1] == running
    assert tuple(running) == match.scores
    assert max(running) >= 100
    for number in range(1, len(rows) + 1):
        assert f"Hand {number} (" in text
    final = match.final_score()
    assert final is not None
    assert f"Player {final.winner} wins the match, " in text
    assert text.rstrip().endswith(
        f"{final.totals[final.winner]} to {final.totals[1 - final.winner]}."
    )


def test_demo_shows_both_hands_as_laid_down() -> None:
    _, text = run_demo("--seed", "11")
    match = play_match(seed=11)
    won = next(e for e in match.sheet if e.kind is not ResultKind.DEAD)
    block = text.split(f"Hand {won.number} (", 1)[1].split("\n\n", 1)[0]
    for meld in (*won.knocker_melds, *won.defender_melds):
        assert " ".join(map(str, meld)) in block
    assert f"({won.knocker_points})" in block and f"({won.defender_points})" in block
    for lay in won.lay_offs:
        assert f"lays off  {lay.card} onto" in block


def test_demo_with_the_same_seed_prints_the_same_match() -> None:
    assert run_demo("--seed", "3", "--to", "50") == run_demo("--seed", "3", "--to", "50")


def test_demo_rejects_a_bad_target(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run_demo("--to", "5")
    assert code == 2 and text == ""
    assert "match_to must be a whole number from 10 to 1000, not 5" in capsys.readouterr().err
    code, _ = run_demo("--seed", "x")
    assert code == 2
