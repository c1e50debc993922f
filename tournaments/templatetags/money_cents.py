"""Show an amount kept in integer cents as money, in the user's number format."""

from __future__ import annotations

from decimal import Decimal

from django import template
from django.utils.formats import number_format

register = template.Library()


@register.filter
def cents(value: object) -> str:
    """12345 -> "123.45" (or "123,45" in Italian); anything else is shown as it is."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    return number_format(Decimal(value) / 100, 2, use_l10n=True)


@register.filter
def cents_whole(value: object) -> str:
    """Like `cents`, without the decimals of a whole amount: 1500 -> "15", 1250 -> "12,50"
    in Italian (a buy-in's parts read "100 + 15", as the room writes them)."""
    if isinstance(value, bool) or not isinstance(value, int) or value % 100:
        return cents(value)
    return number_format(value // 100, 0, use_l10n=True, force_grouping=True)
