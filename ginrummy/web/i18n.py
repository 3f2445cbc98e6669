"""The reader's language: which one, and the learn pages' words in it.

Two languages, English (``en``, the source) and Nepali (``ne``). The page's
own words live in one JSON catalogue per language (``static/i18n/en.json``,
``static/i18n/ne.json``) and are put together in the browser by ``t(key,
params)``; the learn pages are Jinja2 templates whose words are gettext
messages, one ``.po`` catalogue per language under ``locale/``, read with
Babel when the server starts (no compiled ``.mo`` file is kept: the ``.po`` is
the one source, and compiling it takes milliseconds).

The language is chosen once per request by :func:`choose`: a learn page's
address may name it (``/ne/rules``), else the ``lang`` cookie that the
language control sets, else the browser's ``Accept-Language``, else English.

>>> from_accept_language("ne-NP,ne;q=0.9,en;q=0.8")
'ne'
>>> from_accept_language("en-GB,en;q=0.9,ne;q=0.5"), from_accept_language("fr, de")
('en', None)
>>> translations("ne").gettext("The rules")
'नियम'
"""

from __future__ import annotations

import io
from functools import cache
from pathlib import Path
from typing import Literal, get_args

from babel.core import Locale, UnknownLocaleError
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations
from fastapi import Request, Response
from jinja2 import Environment, FileSystemLoader, select_autoescape

__all__ = [
    "COOKIE",
    "DEFAULT",
    "LANGUAGES",
    "LOCALE_DIR",
    "TEMPLATE_DIR",
    "Language",
    "choose",
    "environment",
    "from_accept_language",
    "number",
    "remember",
    "translations",
]

Language = Literal["en", "ne"]
"""A language the app speaks, by its BCP 47 tag."""
LANGUAGES: tuple[Language, ...] = get_args(Language)
"""Every language, the source (English) first."""
DEFAULT: Language = "en"
"""The language of a reader whose browser asks for none of ours."""
COOKIE = "lang"
"""The cookie that remembers the language chosen with the page's control."""

LOCALE_DIR = Path(__file__).parent / "locale"
"""``messages.pot`` (extracted from the templates) and ``<lang>/LC_MESSAGES/messages.po``."""
TEMPLATE_DIR = Path(__file__).parent / "templates"
"""The learn pages' templates (one per page, for every language)."""


def _language(tag: str) -> Language | None:
    """Our language for a BCP 47 tag (``ne-NP`` is Nepali), or None."""
    try:
        locale = Locale.parse(tag.strip(), sep="-")
    except (ValueError, UnknownLocaleError):
        return None
    return next((lang for lang in LANGUAGES if lang == locale.language), None)


def from_accept_language(header: str) -> Language | None:
    """The first of our languages in an ``Accept-Language`` header, by its weights."""
    weighted: list[tuple[float, int, str]] = []
    for order, part in enumerate(header.split(",")):
        tag, _, q = part.partition(";")
        weight = 1.0
        if q.strip().startswith("q="):
            try:
                weight = float(q.strip()[2:])
            except ValueError:
                continue
        if tag.strip() and tag.strip() != "*" and weight > 0:
            weighted.append((-weight, order, tag))
    for _, _, tag in sorted(weighted):
        lang = _language(tag)
        if lang is not None:
            return lang
    return None


def choose(request: Request) -> Language:
    """The request's language: its cookie, else its ``Accept-Language``, else English."""
    cookie = request.cookies.get(COOKIE, "")
    if cookie in LANGUAGES:
        return next(lang for lang in LANGUAGES if lang == cookie)
    return from_accept_language(request.headers.get("accept-language", "")) or DEFAULT


@cache
def translations(lang: Language) -> NullTranslations:
    """The learn pages' messages in a language, read from its ``.po`` with Babel.

    English is the source: its messages are the ids themselves.
    """
    if lang == DEFAULT:
        return NullTranslations()
    po = LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return Translations(buffer)


@cache
def environment(lang: Language) -> Environment:
    """The Jinja2 environment that renders the learn pages in a language."""
    env = Environment(
        loader=FileSystemLoader(TEMPLATE_DIR),
        autoescape=select_autoescape(["html"]),
        extensions=["jinja2.ext.i18n"],
        trim_blocks=True,
        lstrip_blocks=True,
    )
    # A message's id is its words with the template's line breaks and indents folded,
    # as `pybabel extract` (babel.cfg) writes them.
    env.policies["ext.i18n.trimmed"] = True
    env.install_gettext_translations(translations(lang), newstyle=True)  # type: ignore[attr-defined]
    return env


def number(n: int, lang: Language) -> str:
    """A number in a language's own digits (Devanagari in Nepali), grouped as it groups them.

    >>> number(1000, "ne"), number(1000, "en")
    ('१,०००', '1,000')
    """
    locale = Locale.parse(lang)
    grouped = format_decimal(n, locale=locale)
    # Babel groups and signs by the locale but writes Latin digits; the locale names its
    # own digits (CLDR's default numbering system), as Intl.NumberFormat does on the page.
    digits = _DIGITS.get(locale.default_numbering_system, "0123456789")
    return grouped.translate(str.maketrans("0123456789", digits))


_DIGITS = {"deva": "०१२३४५६७८९"}
"""The digits of the numbering systems our languages use, zero to nine."""


def remember(response: Response, lang: Language) -> None:
    """Have the browser remember a language (the pages read it; so does the server)."""
    response.set_cookie(COOKIE, lang, max_age=400 * 24 * 3600, samesite="lax", path="/")
