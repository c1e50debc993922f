"""How the desk compares names (pure: no Django): no accents, no case, single spaces."""

from __future__ import annotations

import unicodedata


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
