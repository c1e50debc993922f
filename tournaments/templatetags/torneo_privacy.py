"""A player's contact as staff see it: masked (the room's manager reveals it, logged)."""

from __future__ import annotations

from django import template

from tournaments.selectors.people import mask_email, mask_phone

register = template.Library()


@register.filter
def masked_phone(value: object) -> str:
    return mask_phone(str(value or ""))


@register.filter
def masked_email(value: object) -> str:
    return mask_email(str(value or ""))
