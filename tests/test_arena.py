"""The arena: mirrored deals, whole matches and single hands, reports, external bots."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from ginrummy.arena import ExternalBot, build_bot, main, play_match, run_arena
from ginrummy.cards import FULL_DECK, Card, parse_cards
from ginrummy.hand import Action, DrawStock, Knock, PassUpcard, TakeUpcard
from ginrummy.match import Match
from ginrummy.settings import KnockMode, Settings

ROOT = Path(__file__).resolve().parent.parent
CLIENT = f"cmd:{sys.executable} {ROOT / 'examples' / 'random_bot.py'}"


def test_mirrored_deals_give_a_deterministic_bot_mirrored_results() -> None:
    # Medium against itself is the same player in both seats: swapping the
    # seats on the same deals must swap the outcome exactly.
    for seed in range(1, 5):
        first = play_match(("medium", "medium"), seed, 0, Settings(), {})
        second = play_match(("medium", "medium"), seed, 1, Settings(), {})
        assert first.a_won is not None and second.a_won is not None
        assert first.a_won != second.a_won
        assert first.a_points == -second.a_points
        assert first.hands == second.hands


def test_a_match_run_plays_every_seed_in_both_seats_to_the_target() -> None:
    report = run_arena(("camper", "simple"), [1, 2, 3], kind="matches")
    assert report.games == 6
    assert report.a_wins + report.b_wins == 6
    assert 0.0 <= report.win_ci[0] <= report.win_share <= report.win_ci[1] <= 1.0
    assert report.hands >= 6
    assert sum(report.kinds.values()) == report.hands
    assert set(report.decision_ms) == {"camper", "simple"}
    assert report.decision_ms["camper"]["decisions"] > 0
    # Points per hand are over all hands played, and their interval is centred on them.
    lo, hi = report.points_per_hand_ci
    assert lo < report.points_per_hand < hi
    assert report.points_per_hand == pytest.approx((lo + hi) / 2)


def test_a_hand_run_reports_paired_points_per_hand() -> None:
    report = run_arena(
        ("medium", "easy"),
        range(1, 21),
        kind="hands",
        settings=Settings(knocking=KnockMode.OKLAHOMA),
    )
    assert report.games == report.hands == 40
    lo, hi = report.points_per_hand_ci
    assert lo <= report.points_per_hand <= hi


def test_the_command_prints_the_figures_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    status = main(["medium", "simple", "--matches", "4", "--jobs", "2", "--json", str(out)])
    assert status == 0
    text = capsys.readouterr().out
    assert "win share of medium" in text and "95% CI" in text
    assert "decision time: median" in text
    data = json.loads(out.read_text())
    assert data["games"] == 4
    assert data["bots"] == ["medium", "simple"]
    assert data["a_wins"] + data["b_wins"] == 4
    assert "medium" in data["decision_ms"]
    # Each seed's two games are kept, so two runs on the same deals can be paired.
    assert sorted(data["per_seed"]) == ["1", "2"]
    assert sum(2 * share for share, _, _ in data["per_seed"].values()) == data["a_wins"]
    assert sum(hands for _, _, hands in data["per_seed"].values()) == data["hands"]


def test_an_unknown_bot_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["medium", "grandmaster", "--matches", "2"]) == 2
    assert "no bot is called 'grandmaster'" in capsys.readouterr().err


def test_an_external_bot_plays_through_the_line_protocol() -> None:
    report = run_arena(("medium", CLIENT), [1, 2], kind="matches")
    assert report.games == 4
    assert report.a_wins + report.b_wins == 4
    # The reference client only throws high cards and knocks at once: Medium is far stronger.
    assert report.a_wins >= 3


def test_hard_variants_switch_habits_off_by_name() -> None:
    bot = build_bot("hard:-search,-infer", 1)
    assert bot.name == "hard:-search,-infer"
    with pytest.raises(ValueError, match="unknown Hard option"):
        build_bot("hard:-telepathy", 1)


# --- the line protocol, message by message -----------------------------------

RECORDER = ROOT / "tests" / "protocol_recorder.py"


def _deck(non_dealer: str, dealer: str, upcard: str, stock: str = "") -> tuple[Card, ...]:
    """A deck that deals these hands (non-dealer first), turns this upcard, then this stock."""
    head = [
        c for pair in zip(parse_cards(non_dealer), parse_cards(dealer), strict=True) for c in pair
    ]
    head += parse_cards(upcard) + parse_cards(stock)
    return tuple(head + [c for c in FULL_DECK if c not in set(head)])


def _recorded(directory: Path) -> list[dict[str, Any]]:
    (log,) = directory.glob("*.jsonl")
    return [json.loads(line) for line in log.read_text().splitlines()]


def _play(match: Match, actions: list[Action], bot: ExternalBot, seat: int) -> None:
    """Apply the other player's actions; the external bot answers its own turns."""
    queue = list(actions)
    while not match.hand.is_over:
        player = match.hand.to_act
        assert player is not None
        if player == seat:
            match.apply(bot.choose(match.view(seat)))
        else:
            match.apply(queue.pop(0))
    bot.hand_over(match.view(seat))


def test_a_bot_with_nothing_to_decide_gets_the_scores_before_the_hand(tmp_path: Path) -> None:
    # The non-dealer takes the upcard and goes gin at once: the dealer (the
    # external bot) never decides, and its deal message comes with the result.
    deck = _deck("AS 2S 3S 4H 5H 6H 9C 9D 9H KC", "5C 6D JC JH 3D 9S TD TC QS KD", "4S")
    match = Match.start(deck, first_dealer=1)
    bot = ExternalBot(f"{sys.executable} {RECORDER} {tmp_path}", seed=1)
    try:
        bot.start_match(1, match.settings, 1)
        _play(match, [TakeUpcard(), Knock(Card.parse("KC"))], bot, seat=1)
    finally:
        bot.close()
    messages = _recorded(tmp_path)
    assert [m["type"] for m in messages] == [
        "match",
        "deal",
        "take",
        "knock",
        "result",
        "quit",
    ]
    deal, result = messages[1], messages[4]
    assert deal["scores"] == [0, 0]
    assert result["kind"] == "gin" and result["scores"] == [result["points"], 0]


def test_the_other_players_stock_draws_stay_hidden_up_to_the_result(tmp_path: Path) -> None:
    # Both pass the upcard; the external bot (non-dealer) draws and throws; the
    # dealer draws the 2D from the stock and knocks: that draw is sent as null.
    deck = _deck(
        "AC 6C 7C 8C 7H 3D 9S TD QS KD",
        "AS 2S 3S 4H 5H 6H 9C 9D 9H KC",
        "8D",
        "KH 2D",
    )
    match = Match.start(deck, first_dealer=1)
    bot = ExternalBot(f"{sys.executable} {RECORDER} {tmp_path}", seed=1)
    try:
        bot.start_match(0, match.settings, 1)
        _play(match, [PassUpcard(), DrawStock(), Knock(Card.parse("KC"))], bot, seat=0)
    finally:
        bot.close()
    messages = _recorded(tmp_path)
    draws = [m for m in messages if m["type"] == "stock"]
    assert [d["player"] for d in draws] == [0, 1]
    assert draws[0]["card"] == "KH"  # its own draw
    assert draws[1]["card"] is None  # the dealer's 2D, never seen at the table
    # The bot threw its first legal card, the AC.
    assert [m["card"] for m in messages if m["type"] == "discard"] == ["AC"]
    result = next(m for m in messages if m["type"] == "result")
    # The result lays both hands down: the knock card, the knocker's melds,
    # the defender's lay-offs and melds, and what is left.
    assert result["kind"] == "knock" and result["knocker"] == 1
    assert result["knock_card"] == "KC"
    assert result["knocker_deadwood"] == ["2D"]
    assert result["knocker_melds"] == [["9C", "9D", "9H"], ["4H", "5H", "6H"], ["AS", "2S", "3S"]]
    assert sorted(result["lay_offs"]) == [["7H", 1], ["9S", 0]]
    assert result["defender_melds"] == [["6C", "7C", "8C"]]
    assert sorted(result["defender_deadwood"]) == sorted(["3D", "TD", "QS", "KD", "KH"])


def test_with_several_jobs_every_external_bot_is_told_to_quit(tmp_path: Path) -> None:
    spec = f"cmd:{sys.executable} {RECORDER} {tmp_path}"
    assert main(["medium", spec, "--matches", "4", "--jobs", "2", "--quiet"]) == 0
    logs = list(tmp_path.glob("*.jsonl"))
    assert logs
    for log in logs:
        lines = log.read_text().splitlines()
        assert json.loads(lines[-1]) == {"type": "quit"}


def test_a_run_on_a_local_ray_reports_what_the_worker_pool_reports() -> None:
    import ray

    # Ray gives its node 30 s to start; on a busy machine it may need a second try.
    for attempt in range(3):
        try:
            ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
            break
        except Exception:
            ray.shutdown()
            if attempt == 2:
                raise
    try:
        on_ray = run_arena(("medium", "simple"), [1, 2, 3], ray="local").to_json()
    finally:
        ray.shutdown()
    in_pool = run_arena(("medium", "simple"), [1, 2, 3], jobs=2).to_json()
    for report in (on_ray, in_pool):
        # Only the clock differs from run to run.
        del report["seconds"], report["decision_ms"]
    assert on_ray == in_pool
    assert on_ray["games"] == 6
