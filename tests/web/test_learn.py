"""The learn pages' data: the worked hand is a real hand, and the pages obey the CSP."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from types import ModuleType

import httpx
import pytest

from ginrummy.bots import make_bot
from ginrummy.hand import (
    Action,
    Discarded,
    Hand,
    Knock,
    PileDrawn,
    ResultKind,
    UpcardPassed,
    UpcardTaken,
)
from ginrummy.melds import best_arrangement
from ginrummy.web.i18n import LANGUAGES, Language
from ginrummy.web.learn import (
    LEARN_DIR,
    LEARNER_SEAT,
    OPPONENT_SEAT,
    WORKED_STEPS,
    render_page,
    worked_deck,
    worked_hand,
)

from ._support import ROOT, Server

CATALOGUE: dict[str, str] = json.loads((LEARN_DIR.parent / "i18n" / "en.json").read_text())
"""The page's English words: the worked hand's captions are there."""


def replay_steps() -> list[Hand]:
    """The worked hand replayed by the engine alone: a copy of the hand after each step."""
    hand = Hand.deal(worked_deck(), dealer=OPPONENT_SEAT)
    states = []
    for step in WORKED_STEPS:
        for action in step.actions:
            hand.apply(action)
        states.append(hand.clone())
    return states


def test_every_step_shows_the_numbers_of_the_engines_replay() -> None:
    data = worked_hand()
    states = replay_steps()
    assert len(data.steps) == len(states)
    for step, hand in zip(data.steps, states, strict=True):
        table = step.table
        mine = hand.cards_of(LEARNER_SEAT)
        assert sorted(table.hand) == sorted(str(c) for c in mine)
        assert table.arrangement.points == best_arrangement(mine).deadwood_points
        assert table.stock_count == hand.stock_count
        assert table.pile == [str(c) for c in hand.pile]
        assert table.phase == hand.phase.value
        theirs = best_arrangement(hand.cards_of(OPPONENT_SEAT))
        assert step.opponent_deadwood == theirs.deadwood_points
        assert sorted(step.opponent_hand) == sorted(str(c) for c in hand.cards_of(OPPONENT_SEAT))
        # Every figure its caption names (in the page's catalogue) comes with the step.
        caption = CATALOGUE[f"learn.worked.step.{step.key}.caption"]
        assert set(re.findall(r"\{(\w+)\}", caption)) <= set(step.figures)
    result = states[-1].result
    assert result is not None
    last = data.steps[-1].result
    assert last is not None
    assert (last.points, last.knocker_points, last.defender_points) == (
        result.points,
        result.knocker_points,
        result.defender_points,
    )
    assert data.steps[-1].scores == (result.points, 0)
    # The caption of the score states the engine's own figures.
    figures = data.steps[-1].figures
    assert (figures["defender"], figures["knocker"], figures["points"]) == (
        result.defender_points,
        result.knocker_points,
        result.points,
    )
    assert "{defender} − {knocker} = {points}" in CATALOGUE["learn.worked.step.score.caption"]


def test_the_worked_hand_shows_what_the_issue_asks_for() -> None:
    hand = replay_steps()[-1]
    kinds = [type(e) for e in hand.events]
    assert UpcardPassed in kinds and UpcardTaken in kinds
    assert any(isinstance(e, PileDrawn) and e.player == LEARNER_SEAT for e in hand.events)
    assert any(isinstance(e, Discarded) for e in hand.events)
    result = hand.result
    assert result is not None
    assert result.kind is ResultKind.KNOCK and result.knocker == LEARNER_SEAT
    assert result.lay_offs, "the defender lays off onto the knocker's melds"
    assert 7 <= len(WORKED_STEPS) <= 11


def _same(a: Action, b: Action) -> bool:
    if isinstance(a, Knock) and isinstance(b, Knock):
        return a.card == b.card
    return a == b


def test_every_move_in_the_worked_hand_is_the_move_hard_makes() -> None:
    # So the captions' "why" is the strategy the Hard computer really plays.
    hand = Hand.deal(worked_deck(), dealer=OPPONENT_SEAT)
    for step in WORKED_STEPS:
        for action in step.actions:
            player = hand.to_act
            assert player is not None
            for seed in range(3):
                chosen = make_bot("hard", seed=seed).choose(hand.view(player))
                assert _same(chosen, action), (str(action), str(chosen))
            hand.apply(action)


def test_the_server_sends_the_worked_hand_and_the_pages(server: Server) -> None:
    r = httpx.get(server.url + "/api/learn/worked-hand", timeout=10)
    assert r.status_code == 200
    assert r.json() == worked_hand().model_dump(mode="json", by_alias=True)
    for path, title in (
        ("/rules", "The rules"),
        ("/worked-hand", "A worked hand"),
        ("/strategy", "Strategy"),
        ("/ne/rules", "नियम"),
        ("/ne/worked-hand", "एउटा पूरा बाजी"),
        ("/ne/strategy", "रणनीति"),
    ):
        page = httpx.get(server.url + path, timeout=10)
        assert page.status_code == 200
        assert page.headers["content-type"].startswith("text/html")
        assert "script-src 'self'" in page.headers["content-security-policy"]
        assert f"<title>{title}" in page.text
        assert f'<html lang="{"ne" if path.startswith("/ne/") else "en"}">' in page.text
    figures = httpx.get(server.url + "/static/learn/knock-stage.json", timeout=10)
    assert figures.status_code == 200


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("path", ["/rules", "/worked-hand", "/strategy"])
def test_the_pages_need_no_inline_code_and_no_other_site(path: str, lang: Language) -> None:
    html = render_page(path, lang)
    for tag in re.findall(r"<script\b[^>]*>", html):
        assert re.search(r'src="/static/', tag), tag
    assert "<style" not in html
    assert not re.search(r"\sstyle=", html)
    assert not re.search(r"\son[a-z]+=", html), "inline event handlers break the CSP"
    assert not re.search(r'(src|href)="(https?:)?//', html), "everything comes from this server"


def _bench() -> ModuleType:
    path = ROOT / "bench" / "bench_knock_stage.py"
    spec = importlib.util.spec_from_file_location("bench_knock_stage", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_bench_figures_are_what_the_strategy_page_reads() -> None:
    bench = _bench()
    batch = bench.run(6, "test", 1)
    data = bench.report(batch, "test", 0.0)
    assert data["hands"] == 6
    tried = 0
    for row in data["stages"]:
        assert {c["count"] for c in row["cells"]} == set(range(1, 11))
        for cell in row["cells"]:
            assert 0 <= cell["wins"] <= cell["knocks"]
            tried += cell["knocks"]
            if cell["knocks"]:
                assert cell["win_rate"] == round(cell["wins"] / cell["knocks"], 3)
    assert tried > 0
    measured = json.loads((LEARN_DIR / "knock-stage.json").read_text())
    assert measured["hands"] >= 1000
    assert [r["stage"] for r in measured["stages"]] == [r["stage"] for r in data["stages"]]


def test_the_worked_hand_names_its_players_by_seat_like_a_match() -> None:
    data = worked_hand().model_dump(mode="json")
    assert data["seat"] == LEARNER_SEAT
    assert data["dealer"] == OPPONENT_SEAT == 1 - LEARNER_SEAT
    assert [(s["index"], s["kind"], s["bot"]) for s in data["seats"]] == [
        (LEARNER_SEAT, "person", None),
        (OPPONENT_SEAT, "bot", "hard"),
    ]
    # No role names on the wire: seats and the neutral "opponent" only.
    assert not re.search(r'"(computer|you)"|computer_', json.dumps(data))
    for step in data["steps"]:
        assert step["table"]["dealer"] == OPPONENT_SEAT
        assert {e["who"] for e in step["moves"]} <= {0, 1}
