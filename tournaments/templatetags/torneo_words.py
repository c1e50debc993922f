"""Template filters that turn codes into words (tournaments.labels)."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments import labels

register = template.Library()


@register.filter
def penalty_kind(code: str) -> Any:
    return labels.penalty_kind(code)


@register.filter
def clock_status(code: str) -> Any:
    return labels.clock_status(code)


@register.filter
def elimination_reason(code: str) -> Any:
    return labels.elimination_reason(code)


@register.filter
def violation(v: Any) -> str:
    return labels.violation(v.code, v.table_id, v.detail)
