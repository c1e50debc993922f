"""The chips page's forms: the chip set, a colour-up's preview and a chip race at a
table, a player's colour-up and leftovers, chips removed from play."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.forms.fields import (
    MAX_CHIPS,
    MAX_NUMBER,
    MAX_TABLE_NUMBER,
    KeyedCountsForm,
    WholeNumberField,
    _count_field,
)


class ChipRowsForm(forms.Form):
    """The chip set: up to `rows` lines of value, colour and count in the starting stack."""

    def __init__(self, *args: Any, rows: int = 16, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rows = rows
        for i in range(rows):
            self.fields[f"value_{i}"] = WholeNumberField(
                label=_("Chip value (row %(n)s)") % {"n": i + 1},
                min_value=1,
                max_value=MAX_CHIPS,
                required=False,
            )
            self.fields[f"colour_{i}"] = forms.CharField(max_length=30, required=False)
            self.fields[f"count_{i}"] = _count_field(
                _("Chips in the starting stack (row %(n)s)") % {"n": i + 1}
            )

    def rows_given(self) -> list[tuple[int, str, int]]:
        """(value, colour, count) for each row with a value."""
        data = self.cleaned_data
        return [
            (data[f"value_{i}"], data.get(f"colour_{i}") or "", data.get(f"count_{i}") or 0)
            for i in range(self.rows)
            if data.get(f"value_{i}") is not None
        ]


class ColorUpPreviewForm(KeyedCountsForm):
    """The chips page's own query: a table, the chip coloured up, what each seat holds."""

    prefix_of_counts = "held"
    label_of_counts = gettext_lazy("Seat %(n)s holds")
    table = WholeNumberField(min_value=1, max_value=MAX_TABLE_NUMBER, required=False)
    removed = WholeNumberField(min_value=0, max_value=MAX_CHIPS, required=False)


class ChipRaceForm(ColorUpPreviewForm):
    """A chip race at one table: what each seat holds, the cards dealt (or "draw them"),
    and who has nothing but the chip raced."""

    draw = forms.CharField(max_length=1, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for s in self.keys:
            self.fields[f"cards_{s}"] = forms.CharField(max_length=60, required=False)
            self.fields[f"only_{s}"] = forms.CharField(max_length=1, required=False)

    def cards(self) -> dict[int, list[str]] | None:
        if self.cleaned_data.get("draw") == "1":
            return None
        return {
            s: self.cleaned_data[f"cards_{s}"].split()
            for s in self.keys
            if (self.cleaned_data.get(f"cards_{s}") or "").strip()
        }

    def nothing_else(self) -> frozenset[int]:
        return frozenset(s for s in self.keys if self.cleaned_data.get(f"only_{s}") == "1")


class ColorUpForm(KeyedCountsForm):
    """A discretionary colour-up of one player: how many of each smaller chip he has."""

    label_of_counts = gettext_lazy("Chips of %(n)s")

    entry = WholeNumberField(label=gettext_lazy("Player"), min_value=1, max_value=MAX_NUMBER)
    target = WholeNumberField(label=gettext_lazy("Colour up to"), min_value=0, max_value=MAX_CHIPS)

    def stack(self) -> dict[int, int]:
        return {v: c for v, c in self.counts().items() if c}


class LeftoversForm(forms.Form):
    entry = WholeNumberField(label=gettext_lazy("Player"), min_value=1, max_value=MAX_NUMBER)
    # 0 and other values outside the set are the service's to refuse (it names the chip).
    removed = WholeNumberField(label=gettext_lazy("Retired chip"), min_value=0, max_value=MAX_CHIPS)
    count = _count_field(gettext_lazy("How many"))


class ChipsRemoveForm(forms.Form):
    amount = _count_field(gettext_lazy("Chips"))
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=40, required=False)
    note = forms.CharField(label=gettext_lazy("Note"), max_length=200, required=False)
