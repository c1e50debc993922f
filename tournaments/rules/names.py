"""How the desk compares names (pure: no Django): no accents, no case, single spaces."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from typing import Any


def fold(text: str) -> str:
    """A name as the desk compares it: no accents, no case, single spaces."""
    if text.isascii():  # most names: nothing to take off
        return " ".join(text.casefold().split())
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    return " ".join(plain.casefold().split())


def search_text(last_name: str, first_name: str, nickname: str = "") -> str:
    """What the player list's search matches a typed word in: the last name, first name
    and nickname, folded, one space apart. A word holds no space, so it is found in
    the text exactly when it is found in one of the three."""
    return " ".join(part for part in map(fold, (last_name, first_name, nickname)) if part)


def clean_name(text: str) -> str:
    """A first or last name as a results file lists it: single spaces, and a name typed all
    in capitals or all in small letters ("ROSSI", "de luca") in the usual case ("Rossi",
    "De Luca", "D'Angelo"); a name typed in mixed case ("McDonald", "van der Berg") is
    kept as typed, accents always."""
    plain = " ".join(text.split())
    if plain.isupper() or plain.islower():
        return plain.title()
    return plain


def name_parts(first_name: str, last_name: str) -> tuple[str, str]:
    """(first, last) for a results file: each cleaned (`clean_name`). The desk keeps the
    two apart, so they are never split from one string; a part left empty stays empty."""
    return clean_name(first_name), clean_name(last_name)


# --- Erasure: a person's names taken out of stored text ----------------------------------

# What a database's JSON text shows as it is, whatever it escapes: printable ASCII but the
# quote and the backslash (SQLite stores "ò" as "\u00f2", PostgreSQL as "ò").
_PLAIN_RUN = re.compile(r"[ !#-\[\]-~]+")
# A shorter run finds too many rows to be worth asking the database for.
_SHORTEST_FRAGMENT = 3


def redaction_pattern(terms: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern that finds any of `terms` standing alone (not inside a longer word),
    case aside, any spacing between its words; None when there is nothing to find."""
    words = {tuple(term.split()) for term in terms}
    words.discard(())
    if not words:
        return None
    # The longest first, so "Rossi Mario Luigi" is taken whole before "Rossi Mario".
    ordered = sorted(words, key=lambda w: (-sum(map(len, w)), w))
    alternatives = "|".join(r"\s+".join(map(re.escape, w)) for w in ordered)
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)", re.IGNORECASE)


def redact(
    value: Any,
    pattern: re.Pattern[str],
    placeholder: str,
    *,
    within: frozenset[str] | None = None,
) -> Any:
    """`value` (text, or JSON-like lists and dicts) with every match of `pattern` replaced
    by `placeholder`, in strings and in dict keys; numbers and the rest as they are.
    `within`: only the values under these keys (at any depth) are read."""
    if isinstance(value, str):
        return pattern.sub(lambda _match: placeholder, value) if within is None else value
    if isinstance(value, list):
        return [redact(item, pattern, placeholder, within=within) for item in value]
    if isinstance(value, dict):
        return {
            (redact(key, pattern, placeholder) if within is None else key): redact(
                item,
                pattern,
                placeholder,
                within=None if within is None or key in within else within,
            )
            for key, item in value.items()
        }
    return value


def plain_fragment(term: str) -> str | None:
    """A word of `term` that any text holding the term holds as it is, for the database to
    narrow the rows to read: its longest plain run; None when no run is long enough (every
    row must then be read)."""
    pieces = [piece for run in _PLAIN_RUN.findall(term) for piece in run.split()]
    longest = max(pieces, key=len, default="")
    return longest if len(longest) >= _SHORTEST_FRAGMENT else None
