"""What the cash room's staff type, read through Django forms (bad input: a message, no change)."""

from __future__ import annotations

import datetime as dt
import re
from itertools import permutations
from typing import Any

from django import forms
from django.utils.formats import time_format
from django.utils.translation import gettext_lazy as _

from room.models import CashGame, CashRoom, CashSeat, CashTable
from room.services.cash_rake import staff_name
from room.services.cash_settings import GAME_FIELDS
from tables.cash.rake import Contribution
from tables.cash.settings import DEFAULTS, CashSettings
from tables.cash.shifts import Shift
from tournaments import permissions
from tournaments.forms.fields import NightField, WholeNumberField, whole_number, whole_numbers
from tournaments.models import Player, RoomRole

MAX_CHIPS = 10**9


class RowsField(forms.ModelMultipleChoiceField):
    """Rows chosen by id. An id that is no whole number in ASCII digits, or one too big for
    the database (SQLite cannot even compare it: a 500), is refused in Django's words for
    an id that is no id; the others are checked against the rows as Django does."""

    def clean(self, value: Any) -> Any:
        if isinstance(value, list | tuple):
            for pk in value:
                if whole_number(pk, low=-(2**63), high=2**63 - 1, max_digits=19) is None:
                    raise forms.ValidationError(
                        self.error_messages["invalid_pk_value"],
                        code="invalid_pk_value",
                        params={"pk": pk},
                    )
        return super().clean(value)


class CashGameForm(forms.ModelForm):
    class Meta:
        formfield_callback = whole_numbers
        model = CashGame
        fields = list(GAME_FIELDS)  # the fields the service saves and its undo restores

    def clean_max_seats(self) -> int:
        seats = self.cleaned_data["max_seats"]
        if not 2 <= seats <= 10:
            raise forms.ValidationError(_("A cash table has 2 to 10 seats."))
        return seats

    def clean_bb(self) -> int:
        bb = self.cleaned_data["bb"]
        if bb < 1:
            raise forms.ValidationError(_("The big blind must be at least 1."))
        return bb


class ListAddForm(forms.Form):
    """A name at the list: a player the search found (`player`, among those `find` finds),
    or, only when asked (`create`), a new record with a name and an optional card."""

    find = forms.CharField(
        label=_("Name, card or document"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "type": "search"}),
    )
    player = WholeNumberField(required=False, min_value=1, widget=forms.HiddenInput)
    games = RowsField(
        label=_("Lists"),
        queryset=CashGame.objects.filter(active=True),
        widget=forms.CheckboxSelectMultiple,
    )
    present = forms.BooleanField(label=_("The player is here in person"), required=False)
    create = forms.BooleanField(label=_("New player: create his record"), required=False)
    first_name = forms.CharField(label=_("First name"), max_length=60, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=60, required=False)
    card = forms.CharField(label=_("Player card"), max_length=40, required=False)

    def clean(self) -> dict:
        data = super().clean() or {}
        for name in ("find", "first_name", "last_name", "card"):
            data[name] = (data.get(name) or "").strip()
        if data.get("create"):
            if not data["first_name"]:
                raise forms.ValidationError(_("Give the new player's first name."))
        elif not data.get("player") and not data["find"]:
            raise forms.ValidationError(
                _("Type a name, card or document, or tick New player to create a record.")
            )
        return data


class SeatNumberForm(forms.Form):
    seat = WholeNumberField(label=_("Seat"), min_value=1, max_value=10)


class SeatFromListForm(forms.Form):
    table = forms.ModelChoiceField(
        label=_("Table"), queryset=CashTable.objects.filter(status=CashTable.Status.OPEN)
    )
    seat = WholeNumberField(label=_("Seat"), min_value=1, max_value=10)
    buy_in = WholeNumberField(label=_("Buy-in"), min_value=0, max_value=MAX_CHIPS)
    reason = forms.CharField(
        label=_("Reason to seat out of list order"), max_length=200, required=False
    )
    leaving_stack = WholeNumberField(
        label=_("Stake he leaves his other table with"),
        min_value=0,
        max_value=MAX_CHIPS,
        required=False,
    )


class MoveForm(forms.Form):
    table = forms.ModelChoiceField(
        label=_("To table"), queryset=CashTable.objects.filter(status=CashTable.Status.OPEN)
    )
    seat = WholeNumberField(label=_("Seat"), min_value=1, max_value=10)
    by_house = forms.BooleanField(label=_("Moved by the house"), required=False)


class RequestForm(forms.Form):
    request = forms.ChoiceField(
        label=_("Request"), choices=CashSeat.Request.choices, required=False
    )


class AnswerForm(forms.Form):
    takes_seat = forms.TypedChoiceField(
        choices=[("yes", _("Coming")), ("no", _("Declines"))], coerce=lambda v: v == "yes"
    )


class OpenTableForm(forms.Form):
    number = WholeNumberField(label=_("Table number"), min_value=1, max_value=999)
    present = RowsField(
        label=_("Here in the cash area"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, game: CashGame, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["present"].queryset = Player.objects.filter(cash_lists__game=game)


class RakeForm(forms.Form):
    """A hand's rake from its total pot, or from what each seat put in (then the pots, the
    uncalled bet and the rake by pot are worked out as in cash-room.md §12.5)."""

    pot = WholeNumberField(label=_("Pot"), min_value=0, max_value=MAX_CHIPS, required=False)
    contributions = forms.CharField(
        label=_("Or each seat's chips, one per line: seat amount [fold] [allin]"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        required=False,
    )
    # Never ticked in advance: a hand without a flop takes no rake (§12.2), and a box
    # ticked before the hand rakes it by mistake when the dealer forgets to untick it.
    flop_dealt = forms.BooleanField(label=_("Flop dealt"), required=False)
    dealer = forms.ModelChoiceField(
        label=_("Dealer"),
        queryset=permissions.staff_holding(permissions.DEALS_CASH),
        required=False,
        empty_label="—",
    )
    shift = forms.ChoiceField(label=_("Shift"), choices=[], required=False)
    # The hand the form was drawn for: the same form sent twice rakes the hand once.
    hand = WholeNumberField(
        widget=forms.HiddenInput, min_value=1, max_value=MAX_CHIPS, required=False
    )

    def __init__(self, *args: Any, shifts: tuple[Shift, ...] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["dealer"].label_from_instance = staff_name
        if shifts:
            self.fields["shift"].choices = [(s.name, s.name) for s in shifts]
            self.fields["shift"].required = True
        else:
            del self.fields["shift"]  # the room names no shifts: nothing to choose

    def clean_contributions(self) -> list[Contribution]:
        found: list[Contribution] = []
        for number, line in enumerate(self.cleaned_data["contributions"].splitlines(), start=1):
            words = line.lower().split()
            if not words:
                continue
            flags = set(words[2:])
            if (
                len(words) < 2
                or not (words[0].isascii() and words[0].isdigit())
                or not (words[1].isascii() and words[1].isdigit())
                or not flags <= {"fold", "allin"}
            ):
                raise forms.ValidationError(
                    _("Line %(line)s: write the seat, the amount, then fold or allin if so."),
                    params={"line": number},
                )
            if any(c.player == words[0] for c in found):
                raise forms.ValidationError(
                    _("Seat %(seat)s is written twice."), params={"seat": words[0]}
                )
            found.append(Contribution(words[0], int(words[1]), "fold" in flags, "allin" in flags))
        if len(found) == 1:
            raise forms.ValidationError(_("A pot needs at least two seats."))
        return found

    def clean(self) -> dict:
        data = super().clean() or {}
        if not self.errors and data.get("pot") is None and not data.get("contributions"):
            raise forms.ValidationError(_("Give the pot or each seat's chips."))
        return data


class ShiftReportForm(forms.Form):
    shift = forms.ChoiceField(label=_("Shift"), choices=[], required=False)
    day = NightField(
        label=_("Gaming day"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("A gaming day runs from the time the room's day starts to the next."),
    )

    def __init__(self, *args: Any, shifts: list[str] = (), **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["shift"].choices = [("", _("Every shift"))] + [(s, s) for s in shifts]


SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
SUIT_ORDERS = [
    ("".join(order), " > ".join(SUIT_SYMBOLS[s] for s in order)) for order in permutations("shdc")
]
YES_NO = {True: _("yes"), False: _("no")}
SHIFT_LINE = re.compile(r"^(?P<name>.+?)\s+(?P<h>[01]?\d|2[0-3])[:.](?P<m>[0-5]\d)$")
MAX_SHIFTS = 6


def _minutes(label: Any, low: int, high: int, **kwargs: Any) -> forms.IntegerField:
    return WholeNumberField(label=label, min_value=low, max_value=high, **kwargs)


class CashRoomForm(forms.Form):
    """Every room setting of cash-room.md §3 the app acts on, each starting at the
    rulebook's default (per-game ones are the game's form). The time collection of the
    rake (`rake_mode`) is not built, and the engine's and display-only settings
    (`run_it_twice_min_pot`, `button_straddle`, `table_languages`, `absent_dealt_until_bb`)
    change nothing the app does: none of them is offered."""

    answer_minutes = _minutes(_("Minutes to answer a call"), 1, 120)
    arrival_minutes = _minutes(_("Minutes to reach the table after answering"), 1, 120)
    decline_lockout_minutes = _minutes(_("Minutes a declined seat keeps him off the lists"), 0, 240)
    declined_seat_to_bottom = forms.BooleanField(
        label=_("A declined seat sends him to the bottom of the list"), required=False
    )
    return_wait_minutes = _minutes(_("Minutes before he may sit again at a table he left"), 0, 240)
    remote_joins = forms.BooleanField(
        label=_("Players may join a list from their phone before they arrive"),
        help_text=_(
            "Off in the Sanremo rules: a player must be in the room to join a list "
            "(cash-room.md §6.2)."
        ),
        required=False,
    )
    remote_arrival_minutes = _minutes(_("Minutes a remote joiner has to arrive"), 5, 180)
    level_down_moves = forms.ChoiceField(
        label=_("Moving down to lower blinds"),
        choices=[("forbidden", _("never")), ("allowed", _("allowed"))],
    )
    open_table_suggest_at = _minutes(_("Names on a list that suggest opening a table"), 2, 50)
    suit_order = forms.ChoiceField(label=_("Suit order for the button draw"), choices=SUIT_ORDERS)
    main_table_feeding = forms.ChoiceField(
        label=_("Feeding the main table"),
        choices=[
            ("on_request", _("the players who ask for it")),
            ("must_move", _("must move: the house moves them")),
        ],
    )
    seat_change_post_rule = forms.BooleanField(
        label=_("A seat change past the button waits for the big blind or posts it"),
        required=False,
    )
    close_order = forms.ChoiceField(
        label=_("Order back on the list when a table closes"),
        choices=[
            ("highest_first", _("highest card first")),
            ("lowest_first", _("lowest card first")),
        ],
    )
    limit_min_buy_in_bb = _minutes(_("Smallest purchase in limit games, in big blinds"), 1, 200)
    short_buy_ins_per_session = _minutes(_("Short buy-ins per session"), 0, 10)
    rathole_rule = forms.BooleanField(
        label=_("Coming back the same day, he brings at least the stake he left with"),
        required=False,
    )
    gaming_day_start = forms.TimeField(
        label=_("The gaming day starts at"), widget=forms.TimeInput(attrs={"type": "time"})
    )
    sit_out_minutes = _minutes(_("Minutes of a sit-out"), 1, 240)
    sit_outs_per_day = _minutes(_("Sit-outs per player per day"), 0, 10)
    max_away_full_table = _minutes(_("Players away at once at a full table"), 0, 10)
    max_away_short_table = _minutes(_("Players away at once at a short table"), 0, 10)
    unannounced_absence_minutes = _minutes(_("Minutes away without a word"), 1, 240)
    release_after_markers = _minutes(
        _("Missed-blind markers that free a seat when a list waits"),
        1,
        10,
        required=False,
    )
    rake_rounding = forms.ChoiceField(
        label=_("Rake rounding"),
        choices=[
            ("half_up", _("to the nearest euro, halves up")),
            ("down", _("down")),
            ("up", _("up")),
        ],
    )
    no_flop_no_drop = forms.BooleanField(label=_("No flop, no drop"), required=False)
    shifts = forms.CharField(
        label=_("Dealer shifts"),
        required=False,
        max_length=400,
        widget=forms.Textarea(attrs={"rows": 3}),
    )
    public_name_format = forms.ChoiceField(
        label=_("Names on the public board"), choices=CashRoom.NameFormat.choices
    )

    SECTIONS = [
        (
            _("Lists and calls"),
            [
                "answer_minutes",
                "arrival_minutes",
                "decline_lockout_minutes",
                "declined_seat_to_bottom",
                "return_wait_minutes",
                "remote_joins",
                "remote_arrival_minutes",
                "level_down_moves",
                "open_table_suggest_at",
            ],
        ),
        (
            _("Tables"),
            ["suit_order", "main_table_feeding", "seat_change_post_rule", "close_order"],
        ),
        (
            _("Buy-in"),
            [
                "limit_min_buy_in_bb",
                "short_buy_ins_per_session",
                "rathole_rule",
                "gaming_day_start",
            ],
        ),
        (
            _("Absence"),
            [
                "sit_out_minutes",
                "sit_outs_per_day",
                "max_away_full_table",
                "max_away_short_table",
                "unannounced_absence_minutes",
                "release_after_markers",
            ],
        ),
        (_("Rake"), ["rake_rounding", "no_flop_no_drop", "shifts"]),
        (_("Screens"), ["public_name_format"]),
    ]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        defaults = self.as_fields(DEFAULTS, public_name_format=CashRoom.NameFormat.FIRST_NAME)
        for name, field in self.fields.items():
            field.help_text = _("Rulebook: %(default)s") % {
                "default": self._shown(field, defaults[name])
            }
        self.fields["release_after_markers"].help_text = _(
            "Empty: markers never free a seat. Rulebook: %(default)s"
        ) % {"default": DEFAULTS.release_after_markers}
        self.fields["shifts"].help_text = _(
            "One a line: its name and the time it starts, e.g. “Day 14:00”. A shift runs "
            "until the next one starts. The rulebook names none."
        )

    def sections(self) -> list[tuple[Any, list[forms.BoundField]]]:
        """The fields by topic, as the settings page shows them."""
        return [(title, [self[name] for name in names]) for title, names in self.SECTIONS]

    @staticmethod
    def _shown(field: forms.Field, value: Any) -> str:
        if isinstance(field, forms.BooleanField):
            return str(YES_NO[bool(value)])
        if isinstance(field, forms.ChoiceField):
            return str(dict(field.choices).get(value, value))
        if isinstance(value, dt.time):
            return time_format(value, "H:i")
        return str(value)

    @staticmethod
    def as_fields(settings: CashSettings, *, public_name_format: str) -> dict[str, Any]:
        """The form's values for these settings."""
        start = settings.gaming_day_start_minutes
        return {
            **{
                name: getattr(settings, name)
                for name in CashRoomForm.base_fields
                if hasattr(settings, name)
            },
            "suit_order": "".join(settings.suit_order),
            "gaming_day_start": dt.time(start // 60, start % 60),
            "shifts": "\n".join(
                f"{s.name} {s.start_minutes // 60:02d}:{s.start_minutes % 60:02d}"
                for s in settings.shifts
            ),
            "public_name_format": public_name_format,
        }

    def clean_shifts(self) -> tuple[Shift, ...]:
        found: list[Shift] = []
        for number, line in enumerate(self.cleaned_data["shifts"].splitlines(), start=1):
            line = " ".join(line.split())
            if not line:
                continue
            match = SHIFT_LINE.match(line)
            if match is None or len(match["name"]) > 20:
                raise forms.ValidationError(
                    _(
                        "Line %(line)s: write the shift's name (at most 20 letters), then the "
                        "time it starts, e.g. Night 22:00."
                    ),
                    params={"line": number},
                )
            shift = Shift(match["name"], int(match["h"]) * 60 + int(match["m"]))
            if any(s.name.lower() == shift.name.lower() for s in found):
                raise forms.ValidationError(
                    _("Two shifts are named %(name)s."), params={"name": shift.name}
                )
            if any(s.start_minutes == shift.start_minutes for s in found):
                raise forms.ValidationError(
                    _("Two shifts start at %(time)s."), params={"time": line.split()[-1]}
                )
            found.append(shift)
        if len(found) > MAX_SHIFTS:
            raise forms.ValidationError(_("At most %(n)s shifts."), params={"n": MAX_SHIFTS})
        return tuple(sorted(found, key=lambda s: s.start_minutes))

    def values(self) -> dict[str, Any]:
        """The settings by their names in `CashSettings`, as the service saves them."""
        data = dict(self.cleaned_data)
        start = data.pop("gaming_day_start")
        data["gaming_day_start_minutes"] = start.hour * 60 + start.minute
        data["suit_order"] = tuple(data["suit_order"])
        return data


class KeepApartForm(forms.Form):
    card_a = forms.CharField(label=_("Player card"), max_length=40)
    card_b = forms.CharField(label=_("Other player's card"), max_length=40)
    reason = forms.CharField(label=_("Reason (private)"), max_length=200, required=False)

    def _player(self, field: str) -> Player:
        card = self.cleaned_data[field].strip()
        player = Player.objects.filter(document_number=card).first()
        if player is None:
            raise forms.ValidationError(
                _("No player has the card %(card)s."), params={"card": card}
            )
        return player

    def clean_card_a(self) -> Player:
        return self._player("card_a")

    def clean_card_b(self) -> Player:
        return self._player("card_b")


class LeaveForm(forms.Form):
    stack = WholeNumberField(
        label=_("Stake he leaves with"), min_value=0, max_value=MAX_CHIPS, required=False
    )


class BuyForm(forms.Form):
    stack = WholeNumberField(label=_("Stack now"), min_value=0, max_value=MAX_CHIPS)
    amount = WholeNumberField(label=_("Buys"), min_value=1, max_value=MAX_CHIPS)
    # What the seat had bought when the form was drawn: the same form sent twice sells
    # the chips once.
    bought = WholeNumberField(
        widget=forms.HiddenInput, min_value=0, max_value=2**31 - 1, required=False
    )


class RoomStaffForm(forms.Form):
    """Give a person a room role, or take it away."""

    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Room role"), choices=RoomRole.choices)
    # Posted by the button pressed (give or take away), never rendered as a field.
    action = forms.ChoiceField(choices=[("give", _("Give")), ("take", _("Take away"))])
