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
