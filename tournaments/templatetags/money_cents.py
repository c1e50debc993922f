"""Show an amount kept in integer cents as money, in the user's number format."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format

from tournaments.labels import cents_text

register = template.Library()


@register.filter
def cents(value: object) -> str:
    """123456 -> "1,234.56" (or "1.234,56" in Italian): `labels.cents_text`."""
    return cents_text(value)


@register.filter
def cents_whole(value: object) -> str:
    """Like `cents`, without the decimals of a whole amount: 1500 -> "15", 1250 -> "12,50"
    in Italian (a buy-in's parts read "100 + 15", as the room writes them)."""
    if isinstance(value, bool) or not isinstance(value, int) or value % 100:
        return cents(value)
    return number_format(value // 100, 0, use_l10n=True, force_grouping=True)


@register.filter
def money(value: object) -> str:
    """An amount in euro (a whole number or a Decimal) with its cents and thousands, as
    `cents` shows one kept in cents: 3010 -> "3,010.00", Decimal("62.5") -> "62.50"
    ("3.010,00", "62,50" in Italian), so a page of money reads one way. Anything else is
    shown as it is."""
    if isinstance(value, bool) or not isinstance(value, int | Decimal):
        return "" if value is None else str(value)
    return number_format(Decimal(value), 2, use_l10n=True, force_grouping=True)
