"""The wire's vocabulary is pinned to its sources: the settings to ``Settings``, every code
the server can send to the page's catalogue, and no role named in the web layer."""

from __future__ import annotations

import importlib
import json
import re
import typing
from pathlib import Path

import pytest

from ginrummy.bots import BOT_NAMES
from ginrummy.hand import ActionName
from ginrummy.settings import NUMBER_RANGES, Settings
from ginrummy.web.app import STATIC_DIR, WEB_ERROR_CODES
from ginrummy.web.model import BOT_LEVELS
from ginrummy.web.present import RULES, SETTINGS_FORM
from ginrummy.web.schemas import ActionIn, EventKind, SeatIn, SettingsIn, SettingsOut

CATALOGUE = STATIC_DIR / "i18n" / "en.json"
WEB_DIR = Path(__file__).resolve().parents[2] / "ginrummy" / "web"


def test_the_settings_schemas_and_the_form_are_the_engines_settings() -> None:
    defaults = Settings().to_dict()
    assert tuple(SettingsIn.model_fields) == RULES == tuple(SettingsOut.model_fields)
    assert SettingsIn().model_dump() == {name: defaults[name] for name in RULES}
    schema = SettingsIn.model_json_schema()["properties"]
    form = {option.name: option for option in SETTINGS_FORM.settings}
    assert tuple(form) == RULES
    for name in RULES:
        default = getattr(Settings(), name)
        option = form[name]
        assert option.default == defaults[name]
        if isinstance(default, bool):
            assert option.kind == "switch" and schema[name]["type"] == "boolean"
        elif hasattr(default, "value"):
            values = [m.value for m in type(default)]
            assert option.kind == "choice" and option.choices == values
            assert schema[name]["enum"] == values
        else:
            assert option.kind == "number" and schema[name]["type"] == "integer"
            assert (option.minimum, option.maximum) == NUMBER_RANGES[name]
    # Difficulty is a bot seat's, not a rule: the form offers the bot levels beside.
    assert "difficulty" not in RULES
    assert tuple(SETTINGS_FORM.bots) == BOT_LEVELS
    assert set(BOT_LEVELS) <= set(BOT_NAMES)
    bot_field = SeatIn.model_fields["bot"].annotation
    assert set(typing.get_args(typing.get_args(bot_field)[0])) == set(BOT_LEVELS)


def test_the_wires_action_names_are_the_engines() -> None:
    names = [n.value for n in ActionName]
    assert ActionIn.model_json_schema()["properties"]["action"]["enum"] == names
    assert list(typing.get_args(EventKind)) == ["dealt", *names]


def _engine_codes() -> set[str]:
    try:
        errors = importlib.import_module("ginrummy.errors")
    except ImportError:
        pytest.fail("ginrummy.errors (the engine's refusal codes) is not there yet")
    return set(errors.REFUSALS)


def test_every_code_the_server_can_send_has_words_in_the_pages_catalogue() -> None:
    if not CATALOGUE.exists():
        pytest.fail(f"{CATALOGUE} is missing: the page's message catalogue (WIRE.md, 5)")
    words = json.loads(CATALOGUE.read_text())
    missing = [f"error.{c}" for c in WEB_ERROR_CODES if f"error.{c}" not in words]
    missing += [f"refusal.{c}" for c in sorted(_engine_codes()) if f"refusal.{c}" not in words]
    assert not missing, f"{CATALOGUE.name} has no words for {missing}"


def test_no_role_is_named_in_the_web_layer() -> None:
    role = re.compile(r"COMPUTER|YOU\b")
    named = [
        f"{path.name}:{n}"
        for path in sorted(WEB_DIR.glob("*.py"))
        for n, line in enumerate(path.read_text().splitlines(), 1)
        if role.search(line)
    ]
    assert not named
