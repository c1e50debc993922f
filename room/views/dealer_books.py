"""The dealers' back office under /room/dealers/ and /room/pit/tables/: the dealers' games
and hours (the manager's), the rotation's settings, the pit's tables, a night's hours in
CSV, XLSX and PDF, and the night's tips pool, which the night's books show as a fragment
loaded from here (the books' app never imports the room)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from config.views import form_errors, run
from room.forms import dealers as forms
from room.models import PitTable
from room.selectors import dealers as selectors
from room.services import dealers as services
from tournaments import permissions
from tournaments.documents import pdf, reports
from tournaments.forms.fields import whole_number

HOURS = permissions.BOOKS  # the manager and the books: hours are pay
PIT_TABLES = permissions.PIT


# --- the dealers' games and hours, the settings -----------------------------------------


@login_required
def staff(request: HttpRequest) -> HttpResponse:
    """The room's dealers (accounts with the dealer role, given at /room/staff/): the games
    each deals and his shift; the rotation's settings."""
    permissions.require_room_role(request.user, permissions.MANAGER)
    room = selectors.dealer_room()
    rows = []
    for user in selectors.dealers().select_related("dealer_profile"):
        profile = getattr(user, "dealer_profile", None)
        initial = {"dealer": user.pk, "games": profile.games if profile else []}
        if profile:
            initial.update(shift_start=profile.shift_start, shift_end=profile.shift_end)
        rows.append(
            (user, selectors.dealer_name(user), forms.ProfileForm(initial=initial, prefix=user.pk))
        )
    settings_form = forms.SettingsForm(
        initial={name: getattr(room, name) for name in services.SETTING_FIELDS}
    )
    return render(
        request, "room/dealers/staff.html", {"rows": rows, "settings_form": settings_form}
    )


@login_required
@require_POST
def profile(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.MANAGER)
    dealer_id = whole_number(request.POST.get("dealer", ""), low=1, high=2**31 - 1)
    user = selectors.dealers().filter(pk=dealer_id).first() if dealer_id else None
    if user is None:
        messages.error(request, _("Choose a dealer of the room."))
        return redirect("dealer_staff")
    form = forms.ProfileForm(request.POST, prefix=user.pk)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("dealer_staff")
    data = form.cleaned_data
    ok, _profile = run(
        request,
        services.profile_save,
        actor=request.user,
        dealer=user,
        games=data["games"],
        start=data["shift_start"],
        end=data["shift_end"],
    )
    if ok:
        messages.success(request, _("Saved %(name)s.") % {"name": selectors.dealer_name(user)})
    return redirect("dealer_staff")


@login_required
@require_POST
def settings(request: HttpRequest) -> HttpResponse:
    permissions.require_room_role(request.user, permissions.MANAGER)
    form = forms.SettingsForm(request.POST)
    if not form.is_valid():
        form_errors(request, form)
        return redirect("dealer_staff")
    ok, _room = run(request, services.settings_save, actor=request.user, values=form.cleaned_data)
    if ok:
        messages.success(request, _("Dealers' settings saved."))
    return redirect("dealer_staff")


# --- the pit's tables ---------------------------------------------------------------------


@login_required
def pit_tables(request: HttpRequest) -> HttpResponse:
    """The pit's tables: add one, open or close it (the dealers' plan re-flows at once)."""
    permissions.require_room_role(request.user, PIT_TABLES)
    if request.method == "POST":
        form = forms.PitTableForm(request.POST)
        if not form.is_valid():
            form_errors(request, form)
        else:
            ok, table = run(
                request,
                services.pit_table_add,
                actor=request.user,
                name=form.cleaned_data["name"],
                game=form.cleaned_data["game"],
            )
            if ok:
                messages.success(request, _("Table %(name)s added.") % {"name": table.name})
        return redirect("pit_tables")
    context = {"tables": PitTable.objects.all(), "form": forms.PitTableForm()}
    return render(request, "room/dealers/pit_tables.html", context)


@login_required
@require_POST
def pit_table_status(request: HttpRequest, pk: int) -> HttpResponse:
    table = permissions.room_object(PitTable.objects.all(), request.user, PIT_TABLES, pk=pk)
    form = forms.PitStatusForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Open or close the table."))
        return redirect("pit_tables")
    status = form.cleaned_data["status"]
    ok, _table = run(
        request, services.pit_table_status, actor=request.user, table=table, status=status
    )
    if ok:
        words = (
            _("Table %(name)s is open.")
            if status == PitTable.Status.OPEN
            else _("Table %(name)s is closed.")
        )
        messages.success(request, words % {"name": table.name})
    return redirect("pit_tables")


# --- a night's hours and tips -------------------------------------------------------------


def _cents(amount: int | None) -> Decimal | None:
    return None if amount is None else (Decimal(amount) / 100).quantize(Decimal("0.01"))


def hours_table(rows: list[selectors.ShiftHours]) -> reports.Table:
    """One row a shift: clock-in and out, lateness, minutes on the box in all, by game and
    by table, the breaks, the share of the tips."""
    games = [code for code, _words in selectors.GAME_CHOICES]
    head = [
        _("Dealer"),
        pgettext("hours column", "Clock in"),
        pgettext("hours column", "Clock out"),
        _("Minutes late"),
        _("Minutes on the box"),
        *[str(words) for _code, words in selectors.GAME_CHOICES],
        _("Tables (minutes)"),
        _("Breaks"),
        _("Minutes of break"),
        _("Tips (€)"),
    ]
    body: list[list[Any]] = []
    for h in rows:
        body.append(
            [
                h.name,
                h.shift.clock_in,
                h.shift.clock_out,
                h.shift.late_minutes,
                h.box_minutes,
                *[h.by_game.get(code, 0) for code in games],
                " · ".join(f"{label} {minutes}′" for label, minutes in h.by_table),
                h.breaks,
                h.break_minutes,
                _cents(h.tips),
            ]
        )
    return head, body


def _night(request: HttpRequest) -> tuple[Any, str]:
    form = forms.NightForm(request.GET)
    valid = form.is_valid()
    night = (valid and form.cleaned_data["night"]) or timezone.localdate()
    return night, (form.cleaned_data["format"] if valid else "")


def _download(content: bytes, kind: str, filename: str) -> HttpResponse:
    response = HttpResponse(content, content_type=kind)
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@login_required
def hours(request: HttpRequest) -> HttpResponse:
    """A night's hours, shift by shift, on screen or as CSV, XLSX or PDF."""
    permissions.require_room_role(request.user, HOURS)
    night, fmt = _night(request)
    rows = selectors.hours(night, timezone.now())
    table = hours_table(rows)
    name = f"dealers-{night.isoformat()}"
    title = _("Dealers' hours · %(night)s") % {"night": pdf.shown(night)}
    if fmt == "csv":
        return _download(reports.as_csv(table), "text/csv; charset=utf-8", f"{name}.csv")
    if fmt == "xlsx":
        kind = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        return _download(reports.as_xlsx(title, table), kind, f"{name}.xlsx")
    if fmt == "pdf":
        head, body = table
        blocks = [pdf.table(head, body), pdf.text(_tips_words(night, rows))]
        return _download(pdf.render(title, blocks), "application/pdf", f"{name}.pdf")
    pool = selectors.tips_pool(night)
    context = {
        "night": night,
        "rows": rows,
        "head": table[0],
        "body": table[1],
        "pool": pool,
        "tips_words": _tips_words(night, rows),
        "tips_form": forms.TipsForm(
            initial={"night": night, "amount": _cents(pool.amount) if pool else None}
        ),
    }
    return render(request, "room/dealers/hours.html", context)


def _tips_words(night: Any, rows: list[selectors.ShiftHours]) -> str:
    pool = selectors.tips_pool(night)
    if pool is None:
        return _("No tips pool entered for this night.")
    split = (
        _("split by minutes on the box")
        if pool.split == "minutes"
        else _("split in equal shares per shift")
    )
    if not any(h.tips for h in rows) and pool.amount:
        return _(
            "Tips pool %(amount)s €, %(split)s: nobody dealt that night, nothing is split."
        ) % {
            "amount": pdf.shown(_cents(pool.amount)),
            "split": split,
        }
    return _(
        "Tips pool %(amount)s €, %(split)s; the cents left over go one each to the largest "
        "remainders."
    ) % {"amount": pdf.shown(_cents(pool.amount)), "split": split}


@login_required
def tips(request: HttpRequest) -> HttpResponse:
    """The night's tips: the pool entered by the books and each dealer's share. GET is the
    fragment the night's books load; POST enters the pool."""
    permissions.require_room_role(request.user, HOURS)
    if request.method == "POST":
        form = forms.TipsForm(request.POST)
        if not form.is_valid():
            form_errors(request, form)
            night = timezone.localdate()
        else:
            night = form.cleaned_data["night"]
            cents = int(form.cleaned_data["amount"] * 100)
            ok, _pool = run(
                request, services.tips_set, actor=request.user, night=night, amount=cents
            )
            if ok:
                messages.success(request, _("Tips pool saved."))
        back = request.POST.get("back")
        target = reverse("night_books" if back == "books" else "dealer_hours")
        return redirect(f"{target}?night={night.isoformat()}")
    night, _fmt = _night(request)
    rows = selectors.hours(night, timezone.now())
    pool = selectors.tips_pool(night)
    context = {
        "night": night,
        "rows": rows,
        "pool": pool,
        "tips_words": _tips_words(night, rows),
        "tips_form": forms.TipsForm(
            initial={"night": night, "amount": _cents(pool.amount) if pool else None}
        ),
    }
    return render(request, "room/dealers/tips.html", context)
