"""Whole numbers (chips, stacks, prizes) as the user's language writes them."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal, InvalidOperation

from django import template
from django.utils.formats import get_format, number_format
from django.utils.translation import get_language

register = template.Library()

_ONE = Decimal(1)
# The thousands separator of each language, read once: Django's formats of a language
# do not change while the process runs.
_SEPARATORS: dict[str | None, str] = {}


@register.filter
def whole(value: object) -> str:
    """What `floatformat:"0g"` shows (rounded half up to a whole number, its thousands
    grouped by the language: 1234567 -> "1,234,567", "1.234.567" in Italian; "" for
    what is not a number), at a fraction of its cost.

    The clock screen's figures are rendered in every language for every change pushed
    to the screens, before the first of them hears of it: Django's filter and its
    number formatting took a third of that render."""
    if isinstance(value, int):
        number = value
    else:
        try:
            exact = value if isinstance(value, Decimal) else Decimal(str(value))
            number = int(exact.quantize(_ONE, rounding=ROUND_HALF_UP))
        except (InvalidOperation, ValueError, OverflowError):
            # floatformat's answer too: "" for None or text; a non-finite number as given.
            return str(value) if isinstance(value, float | Decimal) else ""
    language = get_language()
    separator = _SEPARATORS.get(language)
    if separator is None:
        separator = _SEPARATORS[language] = str(get_format("THOUSAND_SEPARATOR"))
    return f"{number:,}".replace(",", separator)


@register.filter
def points(value: object) -> str:
    """League points kept in hundredths, as the user's language writes them: 1250 ->
    "12.5" ("12,5" in Italian), 1200 -> "12", 123400 -> "1,234" ("1.234"). The CSV keeps
    the machine format of `leagues.hundredths`."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    return number_format(Decimal(value) / 100, use_l10n=True, force_grouping=True)
