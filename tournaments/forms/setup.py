"""The forms that set an event up: its settings (the sections of the settings page, their
bounds and defaults), the structure editor's levels and breaks, the tables, the staff and
a copy of the event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.core import validators
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.forms.fields import (
    MAX_CHIPS,
    MAX_TABLE_NUMBER,
    MoneyInCentsField,
    SeatListField,
    WholeNumberField,
    country_field,
    whole_numbers,
)
from tournaments.models import AnteMode, Role, StructureItem, Tournament
from tournaments.services import setup as setup_services

# Bounds of the settings alone (forms/fields.py says why forms bound numbers at all).
MAX_MONEY = 10_000_000


MAX_LEVEL = 500
# tournament.md §3 allows 2-22 seats, but the room's tables_add accepts 2-10: keep the
# tournament default within what a table can be created with.
MIN_SEATS, MAX_SEATS = 2, 10


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


class TournamentForm(forms.ModelForm):
    clean_reservable_seats = _or_default("reservable_seats")
    clean_reservation_hold_level = _or_default("reservation_hold_level")

    class Meta:
        formfield_callback = whole_numbers
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
