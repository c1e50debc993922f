"""Every form of the event's pages: fields, bounds and messages in one place (STYLE.md 25).

Views parse input through these and call one service; nothing else reads request.POST
for what a form can hold."""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Callable
from decimal import Decimal, InvalidOperation
from typing import Any

from django import forms
from django.core import validators
from django.utils.formats import number_format
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from tournaments.models import (
    AnteMode,
    Role,
    StructureItem,
    Tournament,
)
from tournaments.services import setup as setup_services

# Upper bounds keep absurd numbers out of the database's integer columns (a 500 otherwise)
# and catch typing slips; they are far above anything a real room uses.
MAX_MONEY = 10_000_000


MAX_CHIPS = 2_000_000_000


MAX_LEVEL = 500


MAX_TABLE_NUMBER = 9999
# tournament.md §3 allows 2-22 seats, but the room's tables_add accepts 2-10: keep the
# tournament default within what a table can be created with.
MIN_SEATS, MAX_SEATS = 2, 10


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


# The amounts kept in cents that the setup form takes in currency units.
CENTS_FIELDS = ("bounty_part_cents", "bounty_unit_cents", "seat_value_cents", "leftover_unit_cents")


SECTIONS: list[tuple[Any, list[str]]] = [
    (gettext_lazy("General"), ["name", "date", "venue", "city", "country", "game"]),
    (gettext_lazy("Results and rankings"), ["category", "open_to_public"]),
    (
        gettext_lazy("Buy-in and prize pool"),
        [
            "currency",
            "buy_in_prize",
            "buy_in_fee",
            "house_percent",
            "tax_percent",
            "tax_mode",
            "guarantee",
            "added_money",
            "payout_unit",
        ],
    ),
    (
        gettext_lazy("Event format: bounties"),
        [
            "bounty_format",
            "bounty_part_cents",
            "progressive_cash_percent",
            "bounty_unit_cents",
            "split_pot_bounty",
            "bounty_payout_timing",
            "deal_bounty_handling",
            "guarantee_scope",
            "stage_trigger_players",
            "mystery_draw_timing",
            "mystery_draw_method",
        ],
    ),
    (
        gettext_lazy("Event format: satellite"),
        [
            "prize_type",
            "target_event",
            "seat_value_cents",
            "leftover_mode",
            "leftover_unit_cents",
            "guaranteed_seats",
            "seat_tie_resolution",
            "duplicate_seat_award",
            "seat_transferable",
            "satellite_deals",
            "min_paid_applies_to_satellites",
        ],
    ),
    (
        gettext_lazy("Places and days"),
        ["same_hand_elimination_rule", "flight_stack_rule", "redraw_rule"],
    ),
    (
        gettext_lazy("Seating"),
        ["starting_stack", "seats_per_table", "expected_entries", "deal_in_exclusion"],
    ),
    (
        gettext_lazy("Balancing and the final table"),
        ["balance_max_diff", "break_rule", "final_table_rule", "auto_apply_moves"],
    ),
    (gettext_lazy("Time calls"), ["time_call_profile"]),
    (
        gettext_lazy("Reservations"),
        ["reservations_open", "reservable_seats", "reservation_hold_level"],
    ),
    (
        gettext_lazy("Clock screen sounds"),
        ["sound_level_up", "sound_one_minute", "sound_break_over"],
    ),
    (
        gettext_lazy("Late registration"),
        ["late_registration_level", "late_registration_through_break"],
    ),
    (gettext_lazy("Re-entry"), ["reentry_allowed", "max_entries", "reentry_forfeit_allowed"]),
    (
        gettext_lazy("Rebuys"),
        [
            "rebuys_allowed",
            "rebuy_max",
            "rebuy_price",
            "rebuy_chips",
            "rebuy_until_level",
            "rebuy_stack_threshold",
        ],
    ),
    (
        gettext_lazy("Add-on (house policy)"),
        ["addon_allowed", "addon_break_after_level", "addon_price", "addon_chips"],
    ),
    (gettext_lazy("Live feed"), ["feed_public"]),
]


_BOUNDS: dict[str, tuple[int, int]] = {
    "reservable_seats": (0, 10_000),
    "reservation_hold_level": (1, 100),
    "buy_in_prize": (0, MAX_MONEY),
    "buy_in_fee": (0, MAX_MONEY),
    "guarantee": (0, MAX_MONEY),
    "added_money": (0, MAX_MONEY),
    "starting_stack": (1, MAX_CHIPS),
    "seats_per_table": (MIN_SEATS, MAX_SEATS),
    "late_registration_level": (1, MAX_LEVEL),
    "max_entries": (1, 100),
    "rebuy_max": (0, 100),
    "rebuy_price": (0, MAX_MONEY),
    "rebuy_chips": (0, MAX_CHIPS),
    "rebuy_until_level": (1, MAX_LEVEL),
    "rebuy_stack_threshold": (0, MAX_CHIPS),
    "addon_price": (0, MAX_MONEY),
    "addon_chips": (0, MAX_CHIPS),
    "addon_break_after_level": (1, MAX_LEVEL),
    "payout_unit": (1, 10000),
    "bounty_part_cents": (0, MAX_MONEY * 100),
    "progressive_cash_percent": (1, 99),
    "bounty_unit_cents": (1, MAX_MONEY * 100),
    "stage_trigger_players": (2, 100000),
    "seat_value_cents": (1, MAX_MONEY * 100),
    "leftover_unit_cents": (1, MAX_MONEY * 100),
    "guaranteed_seats": (0, 10000),
    "expected_entries": (2, 100000),
}


OPTIONAL_WITH_DEFAULT = (
    "category",
    "tax_percent",
    "tax_mode",
    "payout_unit",
    "same_hand_elimination_rule",
    "flight_stack_rule",
    "redraw_rule",
    "break_rule",
    "time_call_profile",
    "bounty_format",
    "bounty_part_cents",
    "progressive_cash_percent",
    "bounty_unit_cents",
    "split_pot_bounty",
    "bounty_payout_timing",
    "deal_bounty_handling",
    "guarantee_scope",
    "mystery_draw_timing",
    "mystery_draw_method",
    "prize_type",
    "leftover_mode",
    "guaranteed_seats",
    "seat_tie_resolution",
    "duplicate_seat_award",
    "satellite_deals",
    "sound_level_up",
    "sound_one_minute",
    "sound_break_over",
)


def _or_default(name: str) -> Callable[[Any], Any]:
    def clean(self: Any) -> Any:
        value = self.cleaned_data.get(name)
        if value is None:
            return getattr(self.instance, name, None) or Tournament._meta.get_field(name).default
        return value

    return clean


def country_field(label: Any) -> forms.ChoiceField:
    """A country chosen by its name in the reader's language, kept as its ISO code."""
    from django_countries import countries

    return forms.TypedChoiceField(
        label=label,
        choices=[("", "—"), *((code, name) for code, name in countries)],
        required=False,
        empty_value="",
    )


class TournamentForm(forms.ModelForm):
    clean_reservable_seats = _or_default("reservable_seats")
    clean_reservation_hold_level = _or_default("reservation_hold_level")

    class Meta:
        model = Tournament
        fields = [name for _title, names in SECTIONS for name in names]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        field_classes = dict.fromkeys(CENTS_FIELDS, MoneyInCentsField)
        labels = {
            "bounty_part_cents": gettext_lazy("buy-in: bounty part"),
            "bounty_unit_cents": gettext_lazy("bounties are paid in units of"),
            "seat_value_cents": gettext_lazy("seat value"),
            "leftover_unit_cents": gettext_lazy("leftover unit"),
        }
        help_texts = {
            "bounty_part_cents": gettext_lazy(
                "The part that pays the bounties, e.g. 15 of 100+15."
            ),
            "buy_in_prize": gettext_lazy(
                "The part that goes into the prize pool, e.g. 50 of 50+10."
            ),
            "buy_in_fee": gettext_lazy("The organiser's fee, e.g. 10 of 50+10."),
            "category": gettext_lazy(
                "Rankings count only open events: not those for ladies, seniors, "
                "satellites, charity, teams or staff."
            ),
            "open_to_public": gettext_lazy("Anyone may enter (the rankings ask)."),
            "city": gettext_lazy("Where the venue is, for the rankings' results files."),
            "late_registration_level": gettext_lazy("Empty: registration closes at the start."),
            "rebuy_until_level": gettext_lazy("Empty: no time limit."),
            "rebuy_stack_threshold": gettext_lazy("Empty: any stack may rebuy."),
            "addon_break_after_level": gettext_lazy("Empty: at any time."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # Reservations stay as they are (off) when the form does not show them.
        for name in ("reservable_seats", "reservation_hold_level"):
            self.fields[name].required = False
        for name, (low, high) in _BOUNDS.items():
            field = self.fields[name]
            field.min_value, field.max_value = low, high
            field.validators = [
                validators.MinValueValidator(low),
                validators.MaxValueValidator(high),
            ]
            if name not in CENTS_FIELDS:  # bounds in cents mean nothing to a text input
                field.widget.attrs.update(min=low, max=high)
        for name in ("house_percent", "tax_percent"):
            self.fields[name].validators = [
                validators.MinValueValidator(0),
                validators.MaxValueValidator(100),
            ]
        self.fields["currency"].widget.attrs.update(size=3, pattern="[A-Za-z]{3}")
        self.fields["country"] = country_field(self.fields["country"].label)
        for name in OPTIONAL_WITH_DEFAULT:
            self.fields[name].required = False

    def clean_currency(self) -> str:
        currency = self.cleaned_data["currency"].strip().upper()
        if len(currency) != 3 or not currency.isalpha():
            raise forms.ValidationError(_("Write a three-letter currency code, like EUR."))
        return currency

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the tournament a name."))
        return name

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # Money and day settings left empty keep their documented default (§3).
        for name in OPTIONAL_WITH_DEFAULT:
            if name in data and data[name] in (None, ""):
                data[name] = Tournament._meta.get_field(name).get_default()
        if data.get("late_registration_through_break") and not data.get("late_registration_level"):
            self.add_error(
                "late_registration_level",
                _("Give the level after which late registration closes."),
            )
        if data.get("rebuys_allowed"):
            if not data.get("rebuy_max"):
                self.add_error("rebuy_max", _("Allow at least one rebuy, or turn rebuys off."))
            if not data.get("rebuy_chips"):
                self.add_error("rebuy_chips", _("A rebuy must give some chips."))
        if data.get("addon_allowed") and not data.get("addon_chips"):
            self.add_error("addon_chips", _("An add-on must give some chips."))
        self._clean_format(data)
        if data.get("reentry_forfeit_allowed") and not data.get("reentry_allowed"):
            self.add_error(
                "reentry_forfeit_allowed",
                _("Forfeit-and-re-enter needs re-entries to be allowed."),
            )
        return data

    def _clean_format(self, data: dict[str, Any]) -> None:
        """Bounty and satellite settings that do not fit together (formats.md §5.5, §11)."""
        bounty_format = data.get("bounty_format") or "none"
        unit = data.get("bounty_unit_cents") or 1
        if bounty_format != "none":
            part = data.get("bounty_part_cents") or 0
            if not part:
                self.add_error("bounty_part_cents", _("A bounty event needs a bounty part."))
            elif part % unit:
                self.add_error(
                    "bounty_part_cents",
                    _("The bounty part must be a whole number of bounty units."),
                )
        if data.get("prize_type") == "seats":
            if not data.get("seat_value_cents") and not data.get("target_event"):
                self.add_error(
                    "seat_value_cents", _("Give the seat value or choose the target event.")
                )
            target = data.get("target_event")
            if target is not None and self.instance.pk and target.pk == self.instance.pk:
                self.add_error("target_event", _("A satellite cannot be its own target."))

    def sections(self) -> list[tuple[Any, list[forms.BoundField]]]:
        return [(title, [self[name] for name in names]) for title, names in SECTIONS]


class LevelRowForm(forms.Form):
    """One level of the structure editor (tournament.md §11.1)."""

    small_blind = WholeNumberField(min_value=0, max_value=MAX_CHIPS)
    big_blind = WholeNumberField(min_value=0, max_value=MAX_CHIPS)
    ante = WholeNumberField(min_value=0, max_value=MAX_CHIPS, required=False)
    ante_mode = forms.ChoiceField(choices=AnteMode.choices)
    minutes = WholeNumberField(min_value=0, max_value=600)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        sb, bb = data.get("small_blind"), data.get("big_blind")
        if sb is not None and sb <= 0:
            self.add_error("small_blind", _("The small blind must be positive."))
        if bb is not None and bb <= 0:
            self.add_error("big_blind", _("The big blind must be positive."))
        if sb and bb and bb < sb:
            self.add_error("big_blind", _("The big blind must be at least the small blind."))
        if data.get("minutes") == 0:
            self.add_error("minutes", _("A level lasts at least one minute."))
        ante = data.get("ante") or 0
        if not ante and data.get("ante_mode") == AnteMode.BIG_BLIND_ANTE and bb:
            ante = bb  # a big-blind ante left blank is the big blind (TDA)
        data["ante"] = ante
        if ante and data.get("ante_mode") == AnteMode.NONE:
            self.add_error("ante_mode", _("Choose who pays the ante."))
        return data

    def spec(self) -> setup_services.ItemSpec:
        d = self.cleaned_data
        return setup_services.ItemSpec(
            kind=StructureItem.Kind.LEVEL,
            small_blind=d["small_blind"],
            big_blind=d["big_blind"],
            ante=d["ante"],
            ante_mode=d["ante_mode"],
            minutes=d["minutes"],
        )


class BreakRowForm(forms.Form):
    """One break, with the denomination coloured up during it, if any (§12.2)."""

    minutes = WholeNumberField(min_value=0, max_value=600)
    color_up = WholeNumberField(min_value=1, max_value=MAX_CHIPS, required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("minutes") == 0:
            self.add_error("minutes", _("A break lasts at least one minute."))
        return data

    def spec(self) -> setup_services.ItemSpec:
        d = self.cleaned_data
        return setup_services.ItemSpec(
            kind=StructureItem.Kind.BREAK, minutes=d["minutes"], color_up=d["color_up"]
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


class TablesAddForm(forms.Form):
    first = WholeNumberField(
        label=gettext_lazy("From table"), min_value=1, max_value=MAX_TABLE_NUMBER
    )
    last = WholeNumberField(label=gettext_lazy("To table"), min_value=1, max_value=MAX_TABLE_NUMBER)
    max_seats = WholeNumberField(
        label=gettext_lazy("Seats per table"), min_value=MIN_SEATS, max_value=MAX_SEATS
    )
    accessible_seats = SeatListField(
        label=gettext_lazy("Accessible seats"),
        required=False,
        max_length=60,
        help_text=gettext_lazy("Seats reachable by a wheelchair, e.g. 1, 9."),
    )
    reserved_seats = SeatListField(
        label=gettext_lazy("Reserved seats"),
        required=False,
        max_length=60,
        help_text=gettext_lazy("Seats kept out of the draw."),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        first, last = data.get("first"), data.get("last")
        if first is not None and last is not None and last < first:
            self.add_error("last", _("The last table number must not be below the first."))
        seats = data.get("max_seats")
        for name in ("accessible_seats", "reserved_seats"):
            bad = [s for s in data.get(name) or [] if seats and not 1 <= s <= seats]
            if bad:
                self.add_error(
                    name, _("Seat %(seat)s does not exist at these tables.") % {"seat": bad[0]}
                )
        return data


class TableUpdateForm(forms.Form):
    """One row of the tables list: its opening and break order, accessible and reserved seats."""

    number = WholeNumberField(min_value=1, max_value=MAX_TABLE_NUMBER, widget=forms.HiddenInput)
    opening_order = WholeNumberField(
        label=gettext_lazy("Opening order"), min_value=0, max_value=MAX_TABLE_NUMBER
    )
    break_order = WholeNumberField(
        label=gettext_lazy("Break order"), min_value=0, max_value=MAX_TABLE_NUMBER
    )
    accessible_seats = SeatListField(
        label=gettext_lazy("Accessible seats"), required=False, max_length=60
    )
    reserved_seats = SeatListField(
        label=gettext_lazy("Reserved seats"), required=False, max_length=60
    )


class StaffForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)


class StaffRemoveForm(forms.Form):
    remove = WholeNumberField(min_value=1)


class CloneForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name of the copy"), max_length=120)
    date = forms.DateField(
        label=gettext_lazy("Date"),
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the copy a name."))
        return name


def person_name(value: str) -> str:
    """A name as people read it: NFC, no invisible or bidi-control characters, spaces
    collapsed, and at least one letter."""
    text = unicodedata.normalize("NFC", value)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in {"Cf", "Cc", "Co", "Cs"})
    text = " ".join(text.split())
    if not any(ch.isalpha() for ch in text):
        raise forms.ValidationError(gettext_lazy("A name needs at least one letter."))
    return text


class PlayerForm(forms.Form):
    first_name = forms.CharField(label=gettext_lazy("First name"), max_length=60)
    last_name = forms.CharField(label=gettext_lazy("Last name"), max_length=60)

    def clean_first_name(self) -> str:
        return person_name(self.cleaned_data["first_name"])

    def clean_last_name(self) -> str:
        return person_name(self.cleaned_data["last_name"])

    document_number = forms.CharField(
        label=gettext_lazy("Document number"), max_length=40, required=False
    )
    nationality = forms.CharField(label=gettext_lazy("Nationality"), max_length=60, required=False)
    needs_accessible_seat = forms.BooleanField(
        label=gettext_lazy("Needs an accessible seat"), required=False
    )


class PurchaseForm(forms.Form):
    stack = WholeNumberField(label=gettext_lazy("Current stack"), min_value=0, required=False)
    declared_before_hand = forms.BooleanField(
        label=gettext_lazy("Declared before the hand"), required=False
    )
    # A fresh one-time key each time the desk opens the form: sent twice, it sells once.
    key = forms.CharField(widget=forms.HiddenInput, max_length=64, required=False)


MAX_NUMBER = 1_000_000


class AwardForm(forms.Form):
    eliminated = WholeNumberField(
        label=gettext_lazy("Eliminated player (entry number)"), min_value=1, max_value=MAX_NUMBER
    )
    winners = forms.CharField(
        label=gettext_lazy("Who won his last pot (entry numbers)"), max_length=200
    )
    low_winners = forms.CharField(
        label=gettext_lazy("Who won the low half of that pot (hi/lo only)"),
        max_length=200,
        required=False,
    )
    envelope = forms.CharField(label=gettext_lazy("Envelope drawn"), max_length=20, required=False)
    confirm = forms.BooleanField(required=False)

    def clean_winners(self) -> list[int]:
        return _numbers(self.cleaned_data["winners"], required=True)

    def clean_low_winners(self) -> list[int]:
        return _numbers(self.cleaned_data.get("low_winners", ""), required=False)


def _numbers(text: str, *, required: bool) -> list[int]:
    parts = [p for p in re.split(r"[\s,;]+", text.strip()) if p]
    if not parts and required:
        raise forms.ValidationError(_("Write at least one entry number."))
    numbers = [whole_number(p, low=1, high=MAX_NUMBER) for p in parts]
    if None in numbers:
        raise forms.ValidationError(_("Write entry numbers separated by commas."))
    return [n for n in dict.fromkeys(numbers) if n is not None]


class ForfeitForm(forms.Form):
    entry = WholeNumberField(min_value=1, max_value=MAX_NUMBER)


class EnvelopesForm(forms.Form):
    envelopes = forms.CharField(
        label=gettext_lazy("Envelopes, one a line: code = value"),
        widget=forms.Textarea(attrs={"rows": 8}),
        max_length=20000,
    )

    def clean_envelopes(self) -> dict[str, int]:
        result: dict[str, int] = {}
        for line in self.cleaned_data["envelopes"].splitlines():
            if not line.strip():
                continue
            match = re.fullmatch(
                r"\s*([A-Za-z0-9_-]{1,20})\s*[=:]\s*([0-9]+(?:[.,][0-9]{1,2})?)\s*", line
            )
            if match is None:
                raise forms.ValidationError(
                    _("Write each envelope as code = value, like E01 = 1500.00.")
                )
            try:
                cents = int(Decimal(match[2].replace(",", ".")) * 100)
            except InvalidOperation as exc:  # pragma: no cover - the pattern rules it out
                raise forms.ValidationError(_("Write each envelope as code = value.")) from exc
            if match[1] in result:
                raise forms.ValidationError(
                    _("Envelope %(code)s is listed twice.") % {"code": match[1]}
                )
            result[match[1]] = cents
        if not result:
            raise forms.ValidationError(_("Write at least one envelope."))
        return result


# --- Money and the floor's records (tournaments/views/money.py) -----------------------
#
# Several of these forms carry one field per player, seat or chip (``stack_12``,
# ``held_3``): the view passes the numbers the page showed and the form makes the fields.


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


class PaidPlacesForm(forms.Form):
    paid_places = WholeNumberField(
        label=gettext_lazy("Paid places"), min_value=1, max_value=MAX_NUMBER, required=False
    )


class PayoutAmountsForm(forms.Form):
    amounts = forms.CharField(label=gettext_lazy("Prizes"), max_length=20000)

    def clean_amounts(self) -> list[int]:
        words = [w for w in re.split(r"[\s,;]+", self.cleaned_data["amounts"].strip()) if w]
        amounts = [whole_number(w, high=MAX_CHIPS) for w in words]
        if not amounts or None in amounts:
            raise forms.ValidationError(_("Write the prizes as whole numbers, first place first."))
        return [a for a in amounts if a is not None]


class DealForm(KeyedCountsForm):
    """The deal calculator: each player's stack, the method, what is left to play for."""

    prefix_of_counts = "stack"
    label_of_counts = gettext_lazy("Stack of entry %(n)s")

    method = forms.CharField(max_length=20, required=False)
    left_to_play_for = WholeNumberField(
        label=gettext_lazy("Left to play for"), min_value=0, max_value=MAX_CHIPS, required=False
    )
    action = forms.CharField(max_length=20, required=False)


class EliminationsForm(KeyedCountsForm):
    """Who is out: ticked entry numbers and/or "table/seat" spots, each with his stack at
    the start of the hand."""

    prefix_of_counts = "stack"
    label_of_counts = gettext_lazy("Stack of entry %(n)s")

    out = forms.MultipleChoiceField(choices=(), required=False)
    seats = forms.CharField(label=gettext_lazy("Seats"), max_length=2000, required=False)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        out = self.fields["out"]
        assert isinstance(out, forms.MultipleChoiceField)
        out.choices = [(str(n), str(n)) for n in self.keys]
        out.error_messages["invalid_choice"] = _("Choose players who are still in.")

    def clean_seats(self) -> list[tuple[int, int]]:
        spots = []
        for spot in re.split(r"[\s,;]+", self.cleaned_data["seats"].strip()):
            if not spot:
                continue
            match = re.fullmatch(r"([0-9]{1,6})[/.-]([0-9]{1,2})", spot)
            if match is None:
                raise forms.ValidationError(
                    _("Write a seat as table/seat, like 4/7 (%(spot)s).") % {"spot": spot}
                )
            spots.append((int(match[1]), int(match[2])))
        return spots

    def out_numbers(self) -> list[int]:
        return [int(n) for n in self.cleaned_data.get("out") or []]


class PenaltyForm(forms.Form):
    kind = forms.CharField(label=gettext_lazy("Penalty"), max_length=30)
    entry = WholeNumberField(label=gettext_lazy("Player"), min_value=1, max_value=MAX_NUMBER)
    rounds = WholeNumberField(
        label=gettext_lazy("Rounds"), min_value=0, max_value=100, required=False
    )
    hands = WholeNumberField(
        label=gettext_lazy("Hands"), min_value=0, max_value=1000, required=False
    )
    offence = forms.CharField(label=gettext_lazy("Offence"), max_length=120, required=False)
    stack = _count_field(gettext_lazy("Stack"))


class TablesPageForm(forms.Form):
    """Which page of the room's tables list (100 tables a page), and whether to list every
    move waiting for its player."""

    page = WholeNumberField(min_value=1, max_value=1000, required=False)
    # Every move waiting for the player to sit, not only the first 50.
    all_waiting = forms.BooleanField(required=False)


class ResultsPageForm(forms.Form):
    """Which page of a results list (100 rows a page), or all of it."""

    page = WholeNumberField(min_value=1, max_value=100_000, required=False)
    all = forms.BooleanField(required=False)


class TableChoiceForm(forms.Form):
    """Which table's players a floor page lists (a big field is shown table by table)."""

    view_table = WholeNumberField(min_value=1, max_value=MAX_TABLE_NUMBER, required=False)


class HandDealtForm(forms.Form):
    table = WholeNumberField(label=gettext_lazy("Table"), min_value=1, max_value=MAX_TABLE_NUMBER)
    event = forms.CharField(max_length=20, required=False)


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


class BagForm(KeyedCountsForm):
    """End of day: each player's bagged chips (a blank line is not counted)."""

    prefix_of_counts = "chips"
    label_of_counts = gettext_lazy("Chips of entry %(n)s")


class FlightForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=120)
    date = forms.DateField(label=gettext_lazy("Date"))

    def clean_name(self) -> str:
        name = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError(_("Give the flight a name and a date."))
        return name


# --- The room: tables, seats, moves (tournaments/views/room.py) -------------------------

MAX_SEAT = 22  # tournament.md §3: a table has at most 22 seats


class ButtonForm(forms.Form):
    button = WholeNumberField(label=gettext_lazy("Button"), min_value=1, max_value=MAX_SEAT)


class TableStatusForm(forms.Form):
    status = forms.ChoiceField(choices=[("open", "open"), ("closed", "closed")])


class TableRenumberForm(forms.Form):
    number = WholeNumberField(
        label=gettext_lazy("Table number"), min_value=1, max_value=MAX_TABLE_NUMBER
    )


class SeatLockForm(forms.Form):
    locked = forms.CharField(max_length=1, required=False)

    def is_locked(self) -> bool:
        return self.cleaned_data.get("locked") != "0"


class PlayerMoveForm(forms.Form):
    entry = WholeNumberField(label=gettext_lazy("Entry"), min_value=1, max_value=10**9)
    table = WholeNumberField(label=gettext_lazy("Table"), min_value=1, max_value=MAX_TABLE_NUMBER)
    seat = WholeNumberField(label=gettext_lazy("Seat"), min_value=1, max_value=MAX_SEAT)
    back_table = WholeNumberField(min_value=1, max_value=MAX_TABLE_NUMBER, required=False)


class MoveConfirmForm(forms.Form):
    carried_by = forms.CharField(max_length=120, required=False)
