"""Forms of an event's player list and of the stacks counted at a table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.forms.fields import MAX_CHIPS, WholeNumberField
from tournaments.selectors.people import SHOW, SORTS


class PlayerListForm(forms.Form):
    q = forms.CharField(label=_("Search"), max_length=80, required=False)
    show = forms.ChoiceField(
        label=_("Show"),
        required=False,
        choices=[
            ("all", _("Everyone")),
            ("active", _("Still playing")),
            ("out", _("Out")),
            ("paid", _("In the money")),
        ],
    )
    sort = forms.ChoiceField(
        label=_("Sort by"),
        required=False,
        choices=[
            ("number", _("Entry")),
            ("name", _("Name")),
            ("table", _("Table and seat")),
            ("chips", _("Chips")),
            ("place", _("Place")),
            ("prize", _("Prize")),
        ],
    )
    page = WholeNumberField(required=False, min_value=1, max_value=100_000)

    def values(self) -> dict[str, object]:
        """The cleaned choices, with defaults for anything missing or refused."""
        data = self.cleaned_data if self.is_valid() else {}
        show = data.get("show") or "all"
        sort = data.get("sort") or "number"
        return {
            "q": data.get("q") or "",
            "show": show if show in SHOW else "all",
            "sort": sort if sort in SORTS else "number",
            "page": data.get("page") or 1,
        }


class TableCountForm(forms.Form):
    """One table's stacks: a field per seated entry ("count_<number>"); blank: not
    counted this time."""

    table = WholeNumberField(label=_("Table"), min_value=1, max_value=100_000)

    def __init__(self, *args, keys=(), **kwargs) -> None:
        super().__init__(*args, **kwargs)
        for key in keys:
            self.fields[f"count_{key}"] = WholeNumberField(
                label=str(key), required=False, min_value=0, max_value=MAX_CHIPS
            )

    def counts(self) -> dict[int, int]:
        return {
            int(name.removeprefix("count_")): value
            for name, value in self.cleaned_data.items()
            if name.startswith("count_") and value is not None
        }
