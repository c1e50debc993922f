"""The parts the event's forms share: the one whole-number parser and its field, amounts
typed in currency units kept in cents, a list of seats, a country, the upper bounds that
keep absurd numbers out of the database, a form with one count per player, seat or chip,
and a form's complaints as the message bar says them."""

from __future__ import annotations

import datetime as dt
from decimal import Decimal
from typing import Any

from django import forms
from django.db import models
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

# Upper bounds keep absurd numbers out of the database's integer columns (a 500 otherwise)
# and catch typing slips; they are far above anything a real room uses.
MAX_CHIPS = 2_000_000_000


MAX_TABLE_NUMBER = 9999


MAX_NUMBER = 1_000_000


def whole_number(
    value: object, *, low: int = 0, high: int = 2_000_000_000, max_digits: int = 12
) -> int | None:
    """The one integer parser: a whole number typed by a person, within [low, high], or
    None. ASCII digits only (str.isdigit() takes "²" and int() takes "٣" and "1_000"),
    a minus sign only where `low` allows it, surrounding spaces ignored."""
    text = str(value).strip() if value is not None else ""
    negative = text.startswith("-") and low < 0
    digits = text[1:] if negative else text
    if not digits or len(digits) > max_digits or not (digits.isascii() and digits.isdigit()):
        return None
    number = -int(digits) if negative else int(digits)
    return number if low <= number <= high else None


class WholeNumberField(forms.IntegerField):
    """Django's IntegerField read through `whole_number`: "²", "٣" and "1_000" are not
    numbers here, whatever int() thinks; bounds and their messages stay Django's."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        # Wide bounds here: the field's own validators then say "at most ..." in Django's
        # words (translated) rather than "not a number" for a number that is too big.
        number = whole_number(value, low=-(10**17), high=10**17, max_digits=17)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


class DecimalNumberField(forms.DecimalField):
    """Django's DecimalField, with the digits a whole number takes: "٣" or "²" is no
    amount here, whatever Decimal() thinks; a comma and the user's format stay Django's."""

    def to_python(self, value: Any) -> Any:
        if isinstance(value, str) and any(c.isdigit() and c not in "0123456789" for c in value):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return super().to_python(value)


def whole_numbers(db_field: Any, **kwargs: Any) -> Any:
    """A ModelForm's `formfield_callback`: a model's whole-number and decimal fields are
    read as `WholeNumberField` and `DecimalNumberField` read them, like every number typed
    in the app (a form's own
    `field_classes` still win)."""
    if isinstance(db_field, models.IntegerField) and not db_field.choices:
        kwargs.setdefault("form_class", WholeNumberField)
    elif isinstance(db_field, models.DecimalField) and not db_field.choices:
        kwargs.setdefault("form_class", DecimalNumberField)
    return db_field.formfield(**kwargs)


class NightField(forms.DateField):
    """A night of the books or a gaming day: a date whose day, from the room's midnight to
    the next, the clock can hold. Django takes 0001-01-01 and 9999-12-31, whose span in
    the room's time zone runs off the calendar (a 500 wherever the night is counted); such
    a date is refused as no date, in Django's words."""

    FIRST, LAST = dt.date(1, 1, 3), dt.date(9999, 12, 29)

    def to_python(self, value: Any) -> dt.date | None:
        night = super().to_python(value)
        if night is not None and not self.FIRST <= night <= self.LAST:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return night


def money_to_cents(value: object) -> int | None:
    """An amount typed in currency units ("15", "12,50", "12.50", "1.500" in Italian) in
    whole cents, or None if it is not one (negative, more than two decimals, not a number)."""
    text = str(value).strip().replace(" ", "") if value is not None else ""
    if "," in text and "." in text:
        decimal_mark = "," if text.rindex(",") > text.rindex(".") else "."
    elif "," in text:
        decimal_mark = ","
    elif "." in text and get_language() == "it" and len(text.rsplit(".", 1)[1]) == 3:
        decimal_mark = ","  # "1.500" is a thousand five hundred to an Italian
    else:
        decimal_mark = "."
    grouping = "." if decimal_mark == "," else ","
    whole, _mark, fraction = text.replace(grouping, "").partition(decimal_mark)
    if not whole or len(whole) > 12 or len(fraction) > 2:
        return None
    if not (whole + fraction).isascii() or not (whole + fraction).isdigit():
        return None
    return int(whole) * 100 + int(fraction.ljust(2, "0"))


class MoneyInCentsField(forms.Field):
    """An amount the TD types in currency units, like the buy-in, kept in cents (a bounty
    of 15 or 12,50 EUR is stored 1500 or 1250)."""

    widget = forms.TextInput(attrs={"inputmode": "decimal", "size": 10})
    default_error_messages = {
        "invalid": gettext_lazy("Write an amount such as 15 or 12,50."),
    }

    def __init__(self, *, min_value: Any = None, max_value: Any = None, **kwargs: Any) -> None:
        # The model's integer bounds are in cents: the form sets its own (TournamentForm).
        super().__init__(**kwargs)
        self.min_value, self.max_value = min_value, max_value

    def prepare_value(self, value: Any) -> Any:
        if isinstance(value, int) and not isinstance(value, bool):
            places = 2 if value % 100 else 0
            return number_format(Decimal(value) / 100, places, use_l10n=True)
        return value

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        cents = money_to_cents(value)
        if cents is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return cents


def country_field(label: Any) -> forms.ChoiceField:
    """A country chosen by its name in the reader's language, kept as its ISO code."""
    from django_countries import countries

    return forms.TypedChoiceField(
        label=label,
        choices=[("", "—"), *((code, name) for code, name in countries)],
        required=False,
        empty_value="",
    )


def _is_number(text: str) -> bool:
    return whole_number(text, high=10**12) is not None


class SeatListField(forms.CharField):
    """Seat numbers written as "1, 9" (or with spaces)."""

    def to_python(self, value: Any) -> list[int]:  # type: ignore[override]
        text = (super().to_python(value) or "").replace(",", " ").replace(";", " ")
        seats = []
        for part in text.split():
            if not _is_number(part) or len(part) > 3:
                raise forms.ValidationError(_("Write seat numbers separated by commas, like 1, 9."))
            seats.append(int(part))
        return sorted(set(seats))


def all_errors(form: forms.Form) -> str:
    """Every complaint of a form on one line, each with its field's label."""
    return " ".join(
        f"{form.fields[name].label}: {' '.join(errors)}"
        if name in form.fields
        else " ".join(errors)
        for name, errors in form.errors.items()
    )


def first_error(form: forms.Form) -> str:
    """The form's first complaint, with the field's label: what the message bar shows."""
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        label = field.label if field is not None and field.label else ""
        return f"{label}: {errors[0]}" if label and name != "__all__" else str(errors[0])
    return ""


# Several forms carry one field per player, seat or chip (``stack_12``, ``held_3``): the
# view passes the numbers the page showed and the form makes the fields.


def _count_field(label: Any = None) -> WholeNumberField:
    return WholeNumberField(label=label, min_value=0, max_value=MAX_CHIPS, required=False)


class KeyedCountsForm(forms.Form):
    """A form with one count field per key (entry number, seat, chip value): ``stack_12``.
    Subclasses name the prefix and the label; the view passes the keys the page showed."""

    prefix_of_counts = "count"
    label_of_counts: Any = gettext_lazy("Count of %(n)s")

    def __init__(self, *args: Any, keys: Any = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.keys = list(keys)
        for key in self.keys:
            self.fields[f"{self.prefix_of_counts}_{key}"] = _count_field(
                self.label_of_counts % {"n": key}
            )

    def counts(self, *, blank: int | None = 0) -> dict[Any, int]:
        """Counts by key; a blank field reads as `blank` (None: left out)."""
        data = self.cleaned_data if self.is_bound and self.is_valid() else {}
        found = {k: data.get(f"{self.prefix_of_counts}_{k}") for k in self.keys}
        return {
            k: blank if v is None else v
            for k, v in found.items()
            if v is not None or blank is not None
        }
