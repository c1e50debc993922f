"""The TD's setup pages: tournament settings, structure editor, tables, staff, clone.

Views parse, fetch with permissions, call one service, and render or redirect. Bad input
is refused with a message and changes nothing; a domain refusal becomes a message through
`config.views.run`. With an HX-Request header a view answers with its fragment only.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from config.views import run
from tournaments import permissions
from tournaments.forms import setup as setup_forms
from tournaments.forms.fields import _is_number, all_errors, whole_number
from tournaments.models import AnteMode, StructureItem, Table, Tournament
from tournaments.selectors import draw as draw_reads
from tournaments.services import layout as layout_services
from tournaments.services import presets
from tournaments.services import setup as setup_services

MAX_ROWS = 300


# --- Tournament settings --------------------------------------------------------------


def _td(request: HttpRequest, slug: str) -> Tournament:
    return permissions.get_tournament_for(request.user, slug, roles=permissions.TD)


@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request: HttpRequest) -> HttpResponse:
    if not permissions.can_create_tournaments(request.user):
        raise PermissionDenied
    form = setup_forms.TournamentForm(request.POST or None, initial={"date": timezone.localdate()})
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
    form = setup_forms.TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST":
        if form.is_valid():
            # Only what changed goes to the service, so the log shows the real edit.
            fields = {name: form.cleaned_data[name] for name in form.changed_data}
            if not fields:
                messages.info(request, _("Nothing changed."))
                return redirect("tournament_edit", slug)
            ok, updated = run(
                request,
                setup_services.tournament_update,
                tournament=Tournament.objects.get(pk=tournament.pk),
                actor=request.user,
                fields=fields,
            )
            if ok:
                messages.success(request, _("Settings saved."))
                # A new date moves the address with it.
                return redirect("tournament_edit", updated.slug)
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
            "clone_form": setup_forms.CloneForm(initial=_clone_initial(tournament)),
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


FILLED = ("ante_mode", "minutes")


def _fill_down(rows: list[dict[str, str]], arg: str) -> list[dict[str, str]]:
    """Copy one row's ante mode or minutes to every level below it ("field:row"). A
    big-blind ante filled down brings its amount with it: the ante is each level's big
    blind (the TD may then edit it)."""
    field, _sep, at = arg.partition(":")
    index = int(at) if _is_number(at) else -1
    if field not in FILLED or not 0 <= index < len(rows):
        return rows
    value = rows[index][field]
    for row in rows[index + 1 :]:
        if row["kind"] == StructureItem.Kind.BREAK:
            continue
        row[field] = value
        if field == "ante_mode":
            row["ante"] = row["big_blind"] if value == AnteMode.BIG_BLIND_ANTE else "0"
    return rows


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
    elif verb == "fill":
        rows = _fill_down(rows, arg)
    elif verb == "preset":
        key = request.POST.get("preset", "")
        if key in presets.PRESETS:
            rows = _rows_from_specs(presets.preset_items(key))
        else:
            messages.error(request, _("Choose a preset."))
    return rows


def _as_int(value: str) -> int | None:
    return whole_number(value, high=999_999)


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
            row_forms.append(setup_forms.BreakRowForm(row))
        else:
            row_forms.append(setup_forms.LevelRowForm(row))
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


def _tables_context(tournament: Tournament, form: setup_forms.TablesAddForm) -> dict[str, Any]:
    tables = tournament.tables.annotate(
        players=Count("seats", filter=Q(seats__entry__status="active"))
    ).order_by("number")
    return {
        "tournament": tournament,
        "tables": tables,
        "form": form,
        "seat_total": sum(t.max_seats for t in tables if t.status != Table.Status.CLOSED),
        "planned": draw_reads.tables_planned(tournament),
    }


def _table_update(request: HttpRequest, tournament: Tournament) -> bool:
    form = setup_forms.TableUpdateForm(request.POST)
    if not form.is_valid():
        messages.error(
            request,
            _("Table %(table)s not changed. %(errors)s")
            % {"table": request.POST.get("number", "?")[:5], "errors": all_errors(form)},
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
    form = setup_forms.TablesAddForm(request.POST if adding else None, initial=initial)
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
                form = setup_forms.TablesAddForm(
                    initial={**initial, "first": after + 1, "last": after + 10}
                )
        else:
            messages.error(request, _("Check the fields marked below; no table was added."))
    context = _tables_context(tournament, form)
    if request.htmx:
        return render(request, "setup/tables.html#tables", context)
    return render(request, "setup/tables.html", context)


# --- Staff ----------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def staff_edit(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _td(request, slug)
    form = setup_forms.StaffForm(
        request.POST if request.method == "POST" and "remove" not in request.POST else None
    )
    if request.method == "POST" and "remove" in request.POST:
        removal = setup_forms.StaffRemoveForm(request.POST)
        if removal.is_valid():
            ok, username = run(
                request,
                setup_services.staff_remove,
                tournament=tournament,
                actor=request.user,
                user_id=removal.cleaned_data["remove"],
            )
            if ok:
                messages.success(
                    request, _("%(user)s no longer has a role here.") % {"user": username}
                )
        else:
            messages.error(request, _("That person has no role in this tournament."))
        if not request.htmx:
            return redirect("staff_edit", slug)
    elif request.method == "POST":
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
                form = setup_forms.StaffForm()
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


def _clone_initial(tournament: Tournament) -> dict[str, Any]:
    # A clone is usually next week's edition of the same event.
    return {"name": tournament.name, "date": tournament.date + timedelta(days=7)}


@login_required
@require_http_methods(["GET", "POST"])
def tournament_clone(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _td(request, slug)
    if not permissions.can_create_tournaments(request.user):
        raise PermissionDenied  # a clone is a new tournament: the right to create one

    form = setup_forms.CloneForm(request.POST or None, initial=_clone_initial(tournament))
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
