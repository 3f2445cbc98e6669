"""Two languages: every message in both catalogues, and the reader's language chosen and kept.

The page's words are JSON catalogues (``static/i18n/<lang>.json``, English the
hand-edited source); the learn pages' are gettext catalogues (``locale/``,
extracted from the templates). A message missing from a language, or with other
placeholders, fails here with the list of message ids to translate.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import httpx
import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from ginrummy.web.i18n import DEFAULT, LANGUAGES, LOCALE_DIR, from_accept_language
from ginrummy.web.learn import render_page

from ._support import ROOT, Server

I18N = ROOT / "ginrummy" / "web" / "static" / "i18n"
OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != DEFAULT]


def _placeholders(text: str) -> set[str]:
    return set(re.findall(r"\{(\w+)\}", text))


def _page_catalogue(lang: str) -> dict[str, str]:
    return dict(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


def _plural_base(key: str) -> str:
    return re.sub(r"\.(zero|one|two|few|many|other)$", "", key)


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_page_message_is_in_both_catalogues_with_the_same_params(lang: str) -> None:
    en, other = _page_catalogue(DEFAULT), _page_catalogue(lang)
    # A plural message may have other forms in another language: compare by message.
    en_ids = {_plural_base(k) for k in en}
    other_ids = {_plural_base(k) for k in other}
    missing = sorted(en_ids - other_ids)
    assert not missing, f"{len(missing)} message ids of en.json are not in {lang}.json:\n" + (
        "\n".join(missing)
    )
    extra = sorted(other_ids - en_ids)
    assert not extra, f"{lang}.json has ids en.json does not: " + ", ".join(extra)
    for key, text in other.items():
        wanted = _placeholders(en.get(key) or en[f"{_plural_base(key)}.other"])
        assert _placeholders(text) == wanted, f"{lang}.json {key}: {{params}} differ from English"
        assert text.strip(), f"{lang}.json {key} is empty"
    for key in en:
        if key.endswith(".other"):
            assert key in other, f"{lang}.json {key}: every language has the 'other' form"


def _extracted() -> dict[str, object]:
    """The learn templates' messages as `pybabel extract -F babel.cfg` finds them now."""
    templates = ROOT / "ginrummy" / "web" / "templates"
    method_map = [("**.html", "jinja2")]
    options = {"**.html": {"trimmed": "true"}}
    found: dict[str, object] = {}
    for _file, _line, message, _comments, _context in extract_from_dir(
        str(templates), method_map, options_map=options
    ):
        found[message[0] if isinstance(message, tuple) else message] = message
    return found


def _read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def test_the_message_template_holds_every_message_of_the_learn_pages() -> None:
    pot = {m.id if isinstance(m.id, str) else m.id[0] for m in _read(LOCALE_DIR / "messages.pot")}
    pot.discard("")
    now = set(_extracted())
    assert now - pot == set(), "run pybabel extract (docs/TRANSLATION.md): new messages"
    assert pot - now == set(), "run pybabel extract (docs/TRANSLATION.md): gone messages"


def _python_params(text: str) -> set[str]:
    return set(re.findall(r"%\((\w+)\)s", text))


def _tags(text: str) -> list[str]:
    return sorted(re.findall(r"</?[a-z]+\b[^>]*>", text))


@pytest.mark.parametrize("lang", OTHER_LANGUAGES)
def test_every_learn_message_is_translated_with_the_same_params_and_markup(lang: str) -> None:
    pot = _read(LOCALE_DIR / "messages.pot")
    po = _read(LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po", locale=lang)
    missing = sorted(
        str(m.id) for m in pot if m.id and (m.id not in po or not po[m.id].string or po[m.id].fuzzy)
    )
    assert not missing, f"{len(missing)} learn-page messages have no {lang} translation:\n" + (
        "\n".join(missing)
    )
    for m in pot:
        if not m.id:
            continue
        ids: tuple[str, ...] = tuple(m.id) if isinstance(m.id, (tuple, list)) else (m.id,)
        translated = po[m.id].string
        forms = translated if isinstance(translated, tuple) else (translated,)
        if isinstance(m.id, tuple):
            assert len(forms) == po.num_plurals, f"{ids[0]}: one form per plural of {lang}"
        for form in forms:
            assert isinstance(form, str), f"{lang}: {ids[0]!r} untranslated"
            assert _python_params(form) == _python_params(ids[-1]), f"{lang}: params of {ids[0]!r}"
            assert _tags(form) == _tags(ids[-1]), f"{lang}: markup of {ids[0]!r}"


def test_the_plural_forms_are_babels_for_the_language() -> None:
    po = _read(LOCALE_DIR / "ne" / "LC_MESSAGES" / "messages.po", locale="ne")
    assert po.plural_forms == Catalog(locale="ne").plural_forms
    html = render_page("/rules", "ne")
    assert "बाँकी ३१ पत्ती घोप्टो" in html  # the stock's plural message, with Devanagari digits


def test_accept_language_picks_ours_by_weight() -> None:
    assert from_accept_language("ne-NP,ne;q=0.9,en-US;q=0.8,en;q=0.7") == "ne"
    assert from_accept_language("en-US,en;q=0.9,ne;q=0.8") == "en"
    assert from_accept_language("fr;q=1, ne;q=0.2") == "ne"
    assert from_accept_language("hi, *;q=0.1") is None
    assert from_accept_language("ne;q=0, en;q=0.5") == "en"
    assert from_accept_language(";;,q=x") is None


def test_the_language_is_chosen_remembered_and_in_the_address(server: Server) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as client:
        # First visit: the browser's Accept-Language.
        home = client.get("/", headers={"accept-language": "ne-NP,ne;q=0.9,en;q=0.5"})
        assert '<html lang="ne">' in home.text
        assert "accept-language" in home.headers["vary"].lower()
        rules = client.get("/rules?match=abc", headers={"accept-language": "ne"})
        assert rules.status_code == 307 and rules.headers["location"] == "/ne/rules?match=abc"
        assert '<html lang="en">' in client.get("/rules").text
        # The control: remembered in a cookie, and back to the page it was used on.
        chosen = client.get("/lang/ne", params={"next": "/history"})
        assert chosen.status_code == 303 and chosen.headers["location"] == "/history"
        assert client.cookies.get("lang") == "ne"
        assert '<html lang="ne">' in client.get("/history").text
        assert client.get("/strategy").headers["location"] == "/ne/strategy"
        assert client.get("/lang/en", params={"next": "//evil.example/"}).headers["location"] == "/"
        assert '<html lang="en">' in client.get("/rules").text
        # A learn page's address names its language whoever asks.
        assert '<html lang="ne">' in client.get("/ne/worked-hand").text
        unknown = client.get("/lang/xx")
        assert unknown.status_code == 404 and unknown.json()["error"]["code"] == "not_found"


def test_a_shared_nepali_link_is_a_first_visits_choice_but_not_a_later_one(server: Server) -> None:
    fresh = httpx.get(server.url + "/ne/rules", timeout=10)
    assert "lang=ne" in fresh.headers.get("set-cookie", "")
    chosen = httpx.get(server.url + "/ne/rules", cookies={"lang": "en"}, timeout=10)
    assert "set-cookie" not in chosen.headers


def test_every_learn_page_has_the_control_in_both_languages() -> None:
    for path in ("/rules", "/worked-hand", "/strategy"):
        for lang in LANGUAGES:
            html = render_page(path, lang)
            assert 'aria-label="Language · भाषा"' in html
            assert ">English</a>" in html and ">नेपाली</a>" in html
            assert f'<html lang="{lang}">' in html
