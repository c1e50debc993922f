"""Whole numbers on screen (tournaments/templatetags/torneo_numbers.py): the `whole`
filter shows what Django's `floatformat:"0g"` showed, in both languages."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

VALUES = [
    0,
    7,
    999,
    1000,
    30000,
    6540000,
    -1234567,
    10**12,
    True,
    Decimal("1234.5"),
    Decimal("1234.49"),
    Decimal("-0.4"),
    Decimal("-2.5"),
    2.5,
    1234567.5,
    "98765",
    "1234.5",
    "",
    "twelve",
    None,
    float("nan"),
    float("inf"),
]


def shown(source: str, value: object) -> str:
    return Template("{% load torneo_numbers %}" + source).render(Context({"v": value}))


@pytest.mark.parametrize("language", ["en", "it"])
@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_whole_shows_what_floatformat_showed(language, value):
    with translation.override(language):
        assert shown("{{ v|whole }}", value) == shown('{{ v|floatformat:"0g" }}', value)


def test_whole_groups_thousands_as_each_language_writes_them():
    with translation.override("it"):
        assert shown("{{ v|whole }}", 6540000) == "6.540.000"
    with translation.override("en"):
        assert shown("{{ v|whole }}", 6540000) == "6,540,000"
        assert shown("{{ v|whole }}", Decimal("2.5")) == "3"
