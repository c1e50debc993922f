"""The user's language: every case asks for Italian (language cookie and Accept-Language),
and no message shown may be an English text that has an Italian translation (locale/it and
Django's own catalogues, read with polib, a test dependency imported inside functions).
`shown_messages` reads what a response shows the user.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

LANGUAGE = "it"  # the user's language in every case

_PLACEHOLDER = re.compile(r"%\(\w+\)[sdifr]|%[sdifr]|%%|\{\w*\}")


@dataclass
class _Pattern:
    msgid: str
    key: str  # the longest literal piece: a cheap test before the regex
    regex: re.Pattern[str]


class Catalog:
    """Tells an English text with an Italian translation from Italian (or untranslatable)
    text, using the project's catalogue and Django's own (form and login errors)."""

    def __init__(self, language: str = LANGUAGE) -> None:
        import django
        import polib

        files = [Path(p) / language / "LC_MESSAGES" / "django.po" for p in settings.LOCALE_PATHS]
        root = Path(django.__file__).parent
        files += [
            root / "conf" / "locale" / language / "LC_MESSAGES" / "django.po",
            root / "contrib" / "auth" / "locale" / language / "LC_MESSAGES" / "django.po",
        ]
        english: dict[str, str] = {}
        translated: list[str] = []
        for path in files:
            if not path.exists():
                continue
            for entry in polib.pofile(str(path)):
                if entry.obsolete or "fuzzy" in entry.flags:
                    continue
                pairs = [(entry.msgid, entry.msgstr)]
                if entry.msgid_plural:
                    plurals = [entry.msgstr_plural[k] for k in sorted(entry.msgstr_plural)]
                    pairs = [(entry.msgid, plurals[0] if plurals else "")]
                    pairs.append((entry.msgid_plural, plurals[-1] if plurals else ""))
                for msgid, msgstr in pairs:
                    if msgstr:
                        translated.append(msgstr)
                    if msgstr and msgstr != msgid:
                        english[msgid] = msgstr
        italian_text = "\n".join(translated)
        self.patterns: list[_Pattern] = []
        for msgid in english:
            pieces = [p for p in _PLACEHOLDER.split(msgid) if p.strip()]
            key = max(pieces, key=len, default="")
            # Short texts ("Seat", "Table %(n)s") read the same in both languages too
            # often to tell; a piece an Italian translation also contains proves nothing.
            if len(key.strip()) < 12 or " " not in key.strip() or key in italian_text:
                continue
            self.patterns.append(_Pattern(msgid, key, _regex(msgid)))

    def english_in(self, text: str) -> str | None:
        """The English msgid found in `text`, if any."""
        for pattern in self.patterns:
            if pattern.key in text and pattern.regex.search(text):
                return pattern.msgid
        return None


def _regex(msgid: str) -> re.Pattern[str]:
    parts = []
    last = 0
    for match in _PLACEHOLDER.finditer(msgid):
        parts.append(re.escape(msgid[last : match.start()]))
        parts.append("%" if match.group() == "%%" else ".*?")
        last = match.end()
    parts.append(re.escape(msgid[last:]))
    return re.compile("".join(parts), re.DOTALL)


_ERRORLIST = re.compile(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', re.DOTALL)
_TAG = re.compile(r"<[^>]+>")


def shown_messages(response) -> tuple[list[str], list[str]]:
    """(error texts, other texts) the user sees: flashed messages, an htmx error event,
    and form errors written into the page."""
    import html

    from django.contrib import messages

    errors, others = [], []
    storage = getattr(getattr(response, "wsgi_request", None), "_messages", None)
    # A page that shows its messages moves them from the queue to the loaded list (each
    # case has a fresh client, so nothing older is loaded).
    shown = [*getattr(storage, "_loaded_messages", []), *getattr(storage, "_queued_messages", [])]
    for message in shown:
        (errors if message.level >= messages.ERROR else others).append(str(message.message))
    trigger = response.headers.get("HX-Trigger", "")
    if "torneo:error" in trigger:
        try:
            errors.append(str(json.loads(trigger)["torneo:error"]))
        except (ValueError, KeyError, TypeError):
            errors.append(trigger)
    content_type = response.headers.get("Content-Type", "")
    if content_type.startswith("text/html") and not getattr(response, "streaming", False):
        body = response.content.decode("utf-8", "replace")
        for block in _ERRORLIST.findall(body):
            for item in re.findall(r"<li>(.*?)</li>", block, re.DOTALL):
                errors.append(html.unescape(_TAG.sub("", item)).strip())
    return errors, others
