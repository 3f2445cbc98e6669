"""Refusals: one table of codes and English sentences, pinned to what is raised and documented."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import pytest
from conftest import deal, play

from ginrummy import REFUSALS, EngineError
from ginrummy.cards import CardParseError
from ginrummy.errors import refusal_params
from ginrummy.hand import ActionParseError, IllegalActionError, parse_action
from ginrummy.records import RecordError
from ginrummy.settings import SettingsError

DOC = Path(__file__).resolve().parent.parent / "docs" / "REFUSALS.md"


def test_every_code_is_snake_case_and_its_sentence_fills_from_its_params() -> None:
    for code, sentence in REFUSALS.items():
        assert code.replace("_", "").isalpha() and code == code.lower(), code
        params: dict[str, int | str] = {name: 7 for name in refusal_params(code)}
        error = EngineError(code, **params)
        assert str(error) == sentence.format(**params)
        assert error.to_dict() == {"code": code, "params": params}


def test_refusals_are_value_errors_of_their_own_types() -> None:
    for kind in (IllegalActionError, ActionParseError, SettingsError, RecordError, CardParseError):
        assert issubclass(kind, EngineError) and issubclass(kind, ValueError)


def test_a_refusal_survives_pickling_with_its_code_and_params() -> None:
    hand = deal(hands={1: "AS 2S 3S 4H 5H 6H 7C 7D 7S 2C", 0: "KC QD JH 9S TD 6D AH 5D TC 9H"},
                upcard="KH")  # fmt: skip
    play(hand, "take")
    with pytest.raises(IllegalActionError) as info:
        play(hand, "discard QS")
    again = pickle.loads(pickle.dumps(info.value))
    assert type(again) is IllegalActionError
    assert (again.code, dict(again.params), str(again)) == (
        "card_not_held",
        {"card": "QS"},
        "QS is not in your hand",
    )


@pytest.mark.parametrize(
    ("text", "code", "params"),
    [
        ("", "action_empty", {}),
        ("throw KC", "action_unknown", {"text": "throw KC"}),
        ("discard ZZ", "action_card", {"text": "discard ZZ", "token": "ZZ"}),
        ("knock KC 9C 9H 9S", "action_melds", {"text": "9C 9H 9S"}),
        ("discard", "action_needs_card", {"name": "discard"}),
        ("knock [AS 2S 3S]", "action_needs_card", {"name": "knock"}),
        ("discard KC [AS 2S 3S]", "action_takes_no_melds", {"name": "discard"}),
        ("stock KC", "action_unknown", {"text": "stock KC"}),
    ],
)
def test_action_text_refusals_have_codes(text: str, code: str, params: dict[str, object]) -> None:
    with pytest.raises(ActionParseError) as info:
        parse_action(text)
    assert (info.value.code, dict(info.value.params)) == (code, params)


def test_an_action_given_by_name_refuses_a_card_it_does_not_take() -> None:
    with pytest.raises(ActionParseError) as info:
        parse_action("take", card="7C")
    assert (info.value.code, dict(info.value.params)) == ("action_takes_no_card", {"name": "take"})
    with pytest.raises(ActionParseError) as info:
        parse_action("pile", melds=[["AS", "2S", "3S"]])
    assert info.value.code == "action_takes_no_melds"


def catalogue() -> str:
    """The refusal table as docs/REFUSALS.md lists it."""
    lines = [f"| `{code}` | {', '.join(refusal_params(code)) or '-'} | {sentence} |"
             for code, sentence in REFUSALS.items()]  # fmt: skip
    return "\n".join(lines)


def test_the_documented_catalogue_is_the_table() -> None:
    assert catalogue() in DOC.read_text(encoding="utf-8")


UNREACHABLE = {"pile_empty"}
"""Codes no player can meet: the pile is never empty when a draw is due (the
upcard starts it, and each turn ends with a discard onto it)."""


def test_every_code_a_player_can_meet_has_a_scenario_test() -> None:
    tests = "".join(
        p.read_text(encoding="utf-8") for p in Path(__file__).parent.glob("test_*.py")
        if p.name != "test_refusals.py"
    )  # fmt: skip
    here = Path(__file__).read_text(encoding="utf-8").split("def test_every_code_a_player")[0]
    named = set(re.findall(r"[a-z]+(?:_[a-z]+)*", tests + here))
    untested = [code for code in REFUSALS if code not in named and code not in UNREACHABLE]
    assert untested == []
