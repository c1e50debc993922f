"""The TD's setup pages: tournament settings, structure editor, tables, staff, clone.

Views parse, fetch with permissions, call one service, and render or redirect. Bad input
is refused with a message and changes nothing; a domain refusal becomes a message through
`core.run`. With an HX-Request header a view answers with its fragment only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import validators
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from tables.models import Table
from tables.services import layout as layout_services
from tournaments import permissions, presets
from tournaments.models import AnteMode, Role, StructureItem, Tournament
from tournaments.services import setup as setup_services
from tournaments.views.core import run

# Upper bounds keep absurd numbers out of the database's integer columns (a 500 otherwise)
# and catch typing slips; they are far above anything a real room uses.
MAX_MONEY = 10_000_000
MAX_CHIPS = 2_000_000_000
MAX_LEVEL = 500
MAX_ROWS = 300
MAX_TABLE_NUMBER = 9999
# tournament.md §3 allows 2-22 seats, but the room's tables_add accepts 2-10: keep the
# tournament default within what a table can be created with.
MIN_SEATS, MAX_SEATS = 2, 10


# --- Tournament settings --------------------------------------------------------------

SECTIONS: list[tuple[Any, list[str]]] = [
    (gettext_lazy("General"), ["name", "date", "venue", "game"]),
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
    (gettext_lazy("Seating"), ["starting_stack", "seats_per_table", "deal_in_exclusion"]),
    (
        gettext_lazy("Balancing and the final table"),
        ["balance_max_diff", "final_table_rule", "auto_apply_moves"],
    ),
    (gettext_lazy("Time calls"), ["time_call_profile"]),
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
]

_BOUNDS: dict[str, tuple[int, int]] = {
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
}


OPTIONAL_WITH_DEFAULT = (
    "tax_percent",
    "tax_mode",
    "payout_unit",
    "same_hand_elimination_rule",
    "flight_stack_rule",
    "redraw_rule",
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


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [name for _title, names in SECTIONS for name in names]
        widgets = {"date": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")}
        help_texts = {
            "buy_in_prize": gettext_lazy(
                "The part that goes into the prize pool, e.g. 50 of 50+10."
            ),
            "buy_in_fee": gettext_lazy("The organiser's fee, e.g. 10 of 50+10."),
            "late_registration_level": gettext_lazy("Empty: registration closes at the start."),
            "rebuy_until_level": gettext_lazy("Empty: no time limit."),
            "rebuy_stack_threshold": gettext_lazy("Empty: any stack may rebuy."),
            "addon_break_after_level": gettext_lazy("Empty: at any time."),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, (low, high) in _BOUNDS.items():
            field = self.fields[name]
            field.min_value, field.max_value = low, high
            field.validators = [
                validators.MinValueValidator(low),
                validators.MaxValueValidator(high),
            ]
            field.widget.attrs.update(min=low, max=high)
        for name in ("house_percent", "tax_percent"):
            self.fields[name].validators = [
                validators.MinValueValidator(0),
                validators.MaxValueValidator(100),
            ]
        self.fields["currency"].widget.attrs.update(size=3, pattern="[A-Za-z]{3}")
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


def _td(request: HttpRequest, slug: str) -> Tournament:
    return permissions.get_tournament_for(request.user, slug, roles=permissions.TD)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not permissions.can_create_tournaments(request.user):
        raise PermissionDenied
    form = TournamentForm(request.POST or None, initial={"date": timezone.localdate()})
    if request.method == "POST":
        if form.is_valid():
            ok, tournament = run(
                request,
                setup_services.tournament_create,
                actor=request.user,
                fields=dict(form.cleaned_data),
            )
            if ok:
                messages.success(
                    request,
                    _("%(name)s created. Now set its structure.") % {"name": tournament.name},
                )
                return redirect("structure_edit", tournament.slug)
        else:
            messages.error(request, _("Check the fields marked below; nothing was saved."))
    return render(request, "setup/tournament_form.html", {"form": form, "creating": True})


@login_required
@require_http_methods(["GET", "POST"])
def tournament_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _td(request, slug)
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST":
        if form.is_valid():
            # Only what changed goes to the service, so the log shows the real edit.
            fields = {name: form.cleaned_data[name] for name in form.changed_data}
            if not fields:
                messages.info(request, _("Nothing changed."))
                return redirect("tournament_edit", slug)
            ok, _updated = run(
                request,
                setup_services.tournament_update,
                tournament=Tournament.objects.get(pk=tournament.pk),
                actor=request.user,
                fields=fields,
            )
            if ok:
                messages.success(request, _("Settings saved."))
                return redirect("tournament_edit", slug)
        else:
            messages.error(request, _("Check the fields marked below; nothing was saved."))
        # ModelForm validation wrote the rejected values onto the instance: reload it.
        tournament = Tournament.objects.get(pk=tournament.pk)
    return render(
        request,
        "setup/tournament_form.html",
        {
            "form": form,
            "tournament": tournament,
            "creating": False,
            "warnings": structure_warnings(tournament),
            "clone_form": CloneForm(initial=_clone_initial(tournament)),
        },
    )


def structure_warnings(tournament: Tournament) -> list[str]:
    """Settings that point past the structure or at a break it does not have: allowed
    (either may still change) but worth a look before the start."""
    items = list(tournament.items.all())
    levels = sum(1 for i in items if i.kind == StructureItem.Kind.LEVEL)
    if not levels:
        return []
    warnings = []
    for name, label in (
        ("late_registration_level", _("Late registration")),
        ("rebuy_until_level", _("Rebuys")),
        ("addon_break_after_level", _("Add-on (house policy)")),
    ):
        level = getattr(tournament, name)
        if level is not None and level > levels:
            warnings.append(
                _("%(setting)s: level %(level)s is past the last level (%(last)s).")
                % {"setting": label, "level": level, "last": levels}
            )
    addon = tournament.addon_break_after_level
    if tournament.addon_allowed and addon is not None and addon <= levels:
        number, break_follows = 0, False
        for item, following in zip(items, [*items[1:], None], strict=True):
            if item.kind == StructureItem.Kind.LEVEL:
                number += 1
                if number == addon:
                    break_follows = (
                        following is not None and following.kind == StructureItem.Kind.BREAK
                    )
        if not break_follows:
            warnings.append(
                _("The add-on is sold at the break after level %(level)s, but no break follows it.")
                % {"level": addon}
            )
    return warnings


# --- Structure editor -----------------------------------------------------------------

ROW_FIELDS = ("kind", "small_blind", "big_blind", "ante", "ante_mode", "minutes", "color_up")


class LevelRowForm(forms.Form):
    """One level of the structure editor (tournament.md §11.1)."""

    small_blind = forms.IntegerField(min_value=0, max_value=MAX_CHIPS)
    big_blind = forms.IntegerField(min_value=0, max_value=MAX_CHIPS)
    ante = forms.IntegerField(min_value=0, max_value=MAX_CHIPS, required=False)
    ante_mode = forms.ChoiceField(choices=AnteMode.choices)
    minutes = forms.IntegerField(min_value=0, max_value=600)

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

    minutes = forms.IntegerField(min_value=0, max_value=600)
    color_up = forms.IntegerField(min_value=1, max_value=MAX_CHIPS, required=False)

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


def _posted_rows(post) -> list[dict[str, str]]:
    """The editor's rows in page order: every row posts every field once, so the i-th
    value of each list belongs to the i-th row (missing values read as empty)."""
    columns = {name: post.getlist(name)[:MAX_ROWS] for name in ROW_FIELDS}
    count = len(columns["kind"])
    return [
        {name: (values[i].strip() if i < len(values) else "") for name, values in columns.items()}
        for i in range(count)
    ]


def _rows_from_specs(specs: Iterable[setup_services.ItemSpec]) -> list[dict[str, str]]:
    return [
        {
            "kind": spec.kind,
            "small_blind": str(spec.small_blind) if spec.kind == "level" else "",
            "big_blind": str(spec.big_blind) if spec.kind == "level" else "",
            "ante": str(spec.ante) if spec.kind == "level" else "",
            "ante_mode": spec.ante_mode,
            "minutes": str(spec.minutes),
            "color_up": "" if spec.color_up is None else str(spec.color_up),
        }
        for spec in specs
    ]


def _new_level(rows: list[dict[str, str]]) -> dict[str, str]:
    """A new last level: a copy of the last one, which the TD then raises."""
    levels = [r for r in rows if r["kind"] == StructureItem.Kind.LEVEL]
    if levels:
        return {**levels[-1], "color_up": ""}
    return {
        "kind": StructureItem.Kind.LEVEL,
        "small_blind": "100",
        "big_blind": "200",
        "ante": "0",
        "ante_mode": AnteMode.NONE,
        "minutes": "20",
        "color_up": "",
    }


def _new_break() -> dict[str, str]:
    return {
        "kind": StructureItem.Kind.BREAK,
        "small_blind": "",
        "big_blind": "",
        "ante": "",
        "ante_mode": AnteMode.NONE,
        "minutes": "10",
        "color_up": "",
    }


def _apply_op(request: HttpRequest, rows: list[dict[str, str]], op: str) -> list[dict[str, str]]:
    """Edit the rows in memory (nothing is saved until the TD presses Save)."""
    verb, _sep, arg = op.partition(":")
    index = int(arg) if _is_number(arg) else -1
    if verb == "add_level" and len(rows) < MAX_ROWS:
        rows.append(_new_level(rows))
    elif verb == "add_break" and len(rows) < MAX_ROWS:
        rows.append(_new_break())
    elif verb == "delete" and 0 <= index < len(rows):
        del rows[index]
    elif verb == "up" and 0 < index < len(rows):
        rows[index - 1], rows[index] = rows[index], rows[index - 1]
    elif verb == "down" and 0 <= index < len(rows) - 1:
        rows[index], rows[index + 1] = rows[index + 1], rows[index]
    elif verb == "preset":
        key = request.POST.get("preset", "")
        if key in presets.PRESETS:
            rows = _rows_from_specs(presets.preset_items(key))
        else:
            messages.error(request, _("Choose a preset."))
    return rows


def _is_number(text: str) -> bool:
    # str.isdigit() accepts "²", which int() refuses: ASCII digits only.
    return text.isascii() and text.isdigit()


def _as_int(value: str) -> int | None:
    return int(value) if _is_number(value) and len(value) < 7 else None


def _display_rows(rows: list[dict[str, str]], forms_: list[forms.Form | None]) -> dict[str, Any]:
    """Number the levels and add up the time (unparsable minutes count as zero)."""
    shown = []
    number = 0
    elapsed = 0
    for index, (row, form) in enumerate(zip(rows, forms_, strict=True)):
        is_level = row["kind"] != StructureItem.Kind.BREAK
        if is_level:
            number += 1
        shown.append(
            {
                "index": index,
                "values": row,
                "is_level": is_level,
                "number": number if is_level else None,
                "starts_at": "%d:%02d" % divmod(elapsed, 60),
                "errors": form.errors if form is not None else {},
            }
        )
        elapsed += _as_int(row["minutes"]) or 0
    return {
        "rows": shown,
        "level_count": number,
        "total": "%d:%02d" % divmod(elapsed, 60),
        "last_index": len(rows) - 1,
    }


def _structure_context(
    tournament: Tournament, rows: list[dict[str, str]], row_forms=None
) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "warnings": structure_warnings(tournament),
        "ante_modes": AnteMode.choices,
        "presets": [(p.key, p.name) for p in presets.PRESETS.values()],
        "max_rows": MAX_ROWS,
        **_display_rows(rows, row_forms or [None] * len(rows)),
    }


def _validate_rows(rows: list[dict[str, str]]) -> tuple[list[forms.Form], bool]:
    row_forms: list[forms.Form] = []
    for row in rows:
        if row["kind"] == StructureItem.Kind.BREAK:
            row_forms.append(BreakRowForm(row))
        else:
            row_forms.append(LevelRowForm(row))
    valid = all([f.is_valid() for f in row_forms])  # noqa: C419 - validate every row
    return row_forms, valid


@login_required
@require_http_methods(["GET", "POST"])
def structure_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _td(request, slug)
    if request.method == "GET":
        rows = _rows_from_specs(
            setup_services.ItemSpec(
                kind=item.kind,
                small_blind=item.small_blind,
                big_blind=item.big_blind,
                ante=item.ante,
                ante_mode=item.ante_mode,
                minutes=item.minutes,
                color_up=item.color_up,
            )
            for item in tournament.items.all()
        )
        return render(request, "setup/structure.html", _structure_context(tournament, rows))

    rows = _posted_rows(request.POST)
    unknown_kind = any(row["kind"] not in StructureItem.Kind.values for row in rows)
    if unknown_kind:
        messages.error(request, _("A row is neither a level nor a break."))
        rows = [r for r in rows if r["kind"] in StructureItem.Kind.values]
    op = request.POST.get("op", "")
    if op != "save":
        rows = _apply_op(request, rows, op)
        context = _structure_context(tournament, rows)
        if request.htmx:
            return render(request, "setup/structure.html#editor", context)
        return render(request, "setup/structure.html", context)

    row_forms, valid = _validate_rows(rows)
    if unknown_kind:
        pass  # refused above: saving the other rows would drop a row the TD sent
    elif not valid:
        messages.error(request, _("Correct the rows marked below; nothing was saved."))
    else:
        ok, _items = run(
            request,
            setup_services.structure_set,
            tournament=tournament,
            actor=request.user,
            items=[form.spec() for form in row_forms],
        )
        if ok:
            messages.success(request, _("Structure saved."))
            return redirect("structure_edit", slug)
    return render(request, "setup/structure.html", _structure_context(tournament, rows, row_forms))


# --- Tables ---------------------------------------------------------------------------


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
    first = forms.IntegerField(
        label=gettext_lazy("From table"), min_value=1, max_value=MAX_TABLE_NUMBER
    )
    last = forms.IntegerField(
        label=gettext_lazy("To table"), min_value=1, max_value=MAX_TABLE_NUMBER
    )
    max_seats = forms.IntegerField(
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

    number = forms.IntegerField(min_value=1, max_value=MAX_TABLE_NUMBER, widget=forms.HiddenInput)
    opening_order = forms.IntegerField(
        label=gettext_lazy("Opening order"), min_value=0, max_value=MAX_TABLE_NUMBER
    )
    break_order = forms.IntegerField(
        label=gettext_lazy("Break order"), min_value=0, max_value=MAX_TABLE_NUMBER
    )
    accessible_seats = SeatListField(
        label=gettext_lazy("Accessible seats"), required=False, max_length=60
    )
    reserved_seats = SeatListField(
        label=gettext_lazy("Reserved seats"), required=False, max_length=60
    )


def _form_errors(form: forms.Form) -> str:
    return " ".join(
        f"{form.fields[name].label}: {' '.join(errors)}"
        if name in form.fields
        else " ".join(errors)
        for name, errors in form.errors.items()
    )


def _tables_context(tournament: Tournament, form: TablesAddForm) -> dict[str, Any]:
    tables = tournament.tables.annotate(
        players=Count("seats", filter=Q(seats__entry__status="active"))
    ).order_by("number")
    return {
        "tournament": tournament,
        "tables": tables,
        "form": form,
        "seat_total": sum(t.max_seats for t in tables if t.status != Table.Status.CLOSED),
    }


def _table_update(request: HttpRequest, tournament: Tournament) -> bool:
    form = TableUpdateForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("Table %(table)s not changed. %(errors)s")
            % {"table": request.POST.get("number", "?")[:5], "errors": _form_errors(form)},
        )
        return False
    ok, table = run(
        request,
        layout_services.table_update,
        tournament=tournament,
        actor=request.user,
        **form.cleaned_data,
    )
    if ok:
        messages.success(request, _("Table %(table)s saved.") % {"table": table.number})
    return ok


@login_required
@require_http_methods(["GET", "POST"])
def tables_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _td(request, slug)
    last = tournament.tables.order_by("-number").values_list("number", flat=True).first() or 0
    initial = {"first": last + 1, "last": last + 10, "max_seats": tournament.seats_per_table}
    adding = request.method == "POST" and request.POST.get("action") != "update"
    form = TablesAddForm(request.POST if adding else None, initial=initial)
    if request.method == "POST" and not adding:
        if _table_update(request, tournament) and not request.htmx:
            return redirect("tables_edit", slug)
    elif adding:
        if form.is_valid():
            ok, added = run(
                request,
                layout_services.tables_add,
                tournament=tournament,
                actor=request.user,
                **form.cleaned_data,
            )
            if ok:
                messages.success(request, _("%(count)s tables added.") % {"count": len(added)})
                if not request.htmx:
                    return redirect("tables_edit", slug)
                after = added[-1].number
                form = TablesAddForm(initial={**initial, "first": after + 1, "last": after + 10})
        else:
            messages.error(request, _("Check the fields marked below; no table was added."))
    context = _tables_context(tournament, form)
    if request.htmx:
        return render(request, "setup/tables.html#tables", context)
    return render(request, "setup/tables.html", context)


# --- Staff ----------------------------------------------------------------------------


class StaffForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Username"), max_length=150)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)


@login_required
@require_http_methods(["GET", "POST"])
def staff_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _td(request, slug)
    form = StaffForm(request.POST or None)
    if request.method == "POST":
        if form.is_valid():
            ok, assignment = run(
                request,
                setup_services.staff_assign,
                tournament=tournament,
                actor=request.user,
                username=form.cleaned_data["username"].strip(),
                role=form.cleaned_data["role"],
            )
            if ok:
                messages.success(
                    request,
                    _("%(user)s is now %(role)s.")
                    % {
                        "user": assignment.user.get_username(),
                        "role": assignment.get_role_display(),
                    },
                )
                if not request.htmx:
                    return redirect("staff_edit", slug)
                form = StaffForm()
        else:
            messages.error(request, _("Write a username and choose a role."))
    context = {
        "tournament": tournament,
        "form": form,
        "staff": tournament.staff.select_related("user").order_by("role", "user__username"),
    }
    if request.htmx:
        return render(request, "setup/staff.html#staff", context)
    return render(request, "setup/staff.html", context)


# --- Clone ----------------------------------------------------------------------------


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


def _clone_initial(tournament: Tournament) -> dict[str, Any]:
    # A clone is usually next week's edition of the same event.
    return {"name": tournament.name, "date": tournament.date + timedelta(days=7)}


@login_required
@require_http_methods(["GET", "POST"])
def tournament_clone(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _td(request, slug)
    form = CloneForm(request.POST or None, initial=_clone_initial(tournament))
    if request.method == "POST":
        if form.is_valid():
            ok, clone = run(
                request,
                setup_services.tournament_clone,
                tournament=tournament,
                actor=request.user,
                **form.cleaned_data,
            )
            if ok:
                messages.success(
                    request,
                    _(
                        "%(name)s created as a copy of %(source)s (structure and tables, no players)."
                    )
                    % {"name": clone.name, "source": tournament.name},
                )
                return redirect("tournament_edit", clone.slug)
        else:
            messages.error(request, _("Give the copy a name and a date."))
    return render(request, "setup/clone.html", {"tournament": tournament, "form": form})
