"""The arena: mirrored deals, whole matches and single hands, reports, external bots."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from ginrummy.arena import build_bot, main, play_match, run_arena
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
    assert sum(2 * share for share, _ in data["per_seed"].values()) == data["a_wins"]


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
