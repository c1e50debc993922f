"""Setting an event up: the tournament, its structure, a clone, its staff."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments import errors, realtime, selectors
from tournaments.events import event_log, logged_fields, undoes
from tournaments.models import (
    Event,
    FormerAddress,
    Role,
    StaffAssignment,
    StructureItem,
    Table,
    Tournament,
)

# --- Tournaments ----------------------------------------------------------------------


def _unique_slug(name: str, date) -> str:
    return _free_slug(slugify(f"{name}-{date:%Y-%m-%d}")[:70] or "torneo")


def _free_slug(base: str, *, owner: int | None = None) -> str:
    """`base`, or `base-2`, `base-3`...: the first address no other event holds, now or
    as a former address (an old link keeps reaching the event it was made for). `owner`
    may take back one of its own former addresses."""
    slug, n = base, 1
    while (
        Tournament.objects.filter(slug=slug).exclude(pk=owner).exists()
        or FormerAddress.objects.filter(slug=slug).exclude(tournament_id=owner).exists()
    ):
        n += 1
        slug = f"{base}-{n}"
    return slug


def _address_follows_date(tournament: Tournament, old_date) -> None:
    """An address made from the event's date moves with it ("sat-2026-11-21" becomes
    "sat-2026-11-28"); the old address is kept as a former one and still leads here."""
    old, new = f"{old_date:%Y-%m-%d}", f"{tournament.date:%Y-%m-%d}"
    if old == new or old not in tournament.slug:
        return
    # The part before the date, the new date; a "-2" that only told two events apart goes.
    stem = tournament.slug.rsplit(old, 1)[0]
    slug = _free_slug(f"{stem}{new}", owner=tournament.pk)
    if slug == tournament.slug:
        return
    FormerAddress.objects.filter(tournament=tournament, slug=slug).delete()
    FormerAddress.objects.update_or_create(
        slug=tournament.slug, defaults={"tournament": tournament}
    )
    tournament.slug = slug
    tournament.save(update_fields=["slug"])


@transaction.atomic
def tournament_create(*, actor, fields: dict[str, Any], now: datetime) -> Tournament:
    """Create a tournament; its creator becomes its TD."""
    tournament = Tournament(**fields)
    tournament.slug = _unique_slug(tournament.name, tournament.date)
    tournament.save()
    StaffAssignment.objects.create(tournament=tournament, user=actor, role=Role.TD)
    event_log(
        tournament=tournament,
        actor=actor,
        action="tournament.create",
        data={"name": tournament.name},
        now=now,
    )
    return tournament


# What the settings can change, and so all that undoing a change may restore: never a key,
# the slug, the parent event, or state that other services own (clock, days, payouts).
PROTECTED_FIELDS = frozenset(
    {
        "id",
        "slug",
        "parent",
        "created_at",
        "status",
        "day",
        "payouts",
        "mystery_permutation",
        "mystery_fingerprint",
        "h4h_active",
        "h4h_hands",
        "h4h_tables_done",
        "eod_card",
        "eod_remaining",
    }
)
SETTINGS_FIELDS = frozenset(
    f.name
    for f in Tournament._meta.concrete_fields
    if f.name not in PROTECTED_FIELDS and not f.name.startswith("clock_")
)


@transaction.atomic
def tournament_update(
    *, tournament: Tournament, actor, fields: dict[str, Any], now: datetime
) -> Tournament:
    """Change the settings of a tournament; the old values are logged for undo."""
    unknown = set(fields) - SETTINGS_FIELDS
    if unknown:
        raise ValueError(f"not a setting: {sorted(unknown)}")
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = {name: _jsonable(getattr(locked, name)) for name in fields}
    for name, value in fields.items():
        setattr(locked, name, value)
    locked.save(update_fields=list(fields))
    if "date" in fields:
        _address_follows_date(locked, Tournament._meta.get_field("date").to_python(before["date"]))
    changed = {k: _jsonable(v) for k, v in fields.items() if before[k] != _jsonable(v)}
    if changed:
        event_log(
            tournament=locked,
            actor=actor,
            action="tournament.update",
            data={"before": {k: before[k] for k in changed}, "after": changed},
            now=now,
        )
    return locked


@undoes("tournament.update")
def _undo_tournament_update(event: Event, actor, now: datetime) -> None:
    tournament = Tournament.objects.select_for_update().get(pk=event.tournament_id)
    before = logged_fields(event, "before", SETTINGS_FIELDS)
    date = tournament.date
    for name, value in before.items():
        field = Tournament._meta.get_field(name)
        setattr(tournament, field.attname, field.to_python(value))  # attname: FKs by pk
    tournament.save(update_fields=list(before))
    if "date" in before:
        _address_follows_date(tournament, date)


def _jsonable(value: Any) -> Any:
    if hasattr(value, "_meta") and hasattr(value, "pk"):
        return value.pk  # a related row (a satellite's target event) is logged by its key
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if value.__class__.__name__ == "Decimal":
        return str(value)
    return value


@dataclass(frozen=True)
class ItemSpec:
    """One row of the structure editor."""

    kind: str
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    ante_mode: str = "none"
    minutes: int = 20
    color_up: int | None = None


def structure_validate(items: list[ItemSpec]) -> None:
    """Refuse a structure a clock could not run or a TD would not mean."""
    levels = [i for i in items if i.kind == StructureItem.Kind.LEVEL]
    if not levels:
        raise errors.InvalidStructure(reason=_("it needs at least one level"))
    previous = None
    number = 0
    for position, item in enumerate(items, start=1):
        if item.minutes <= 0:
            raise errors.InvalidStructure(
                reason=_("row %(row)s: the duration must be at least one minute")
                % {"row": position}
            )
        if item.kind != StructureItem.Kind.LEVEL:
            continue
        number += 1
        if item.small_blind <= 0 or item.big_blind <= 0:
            raise errors.InvalidStructure(
                reason=_("level %(level)s: blinds must be positive") % {"level": number}
            )
        if item.big_blind < item.small_blind:
            raise errors.InvalidStructure(
                reason=_("level %(level)s: the big blind is smaller than the small blind")
                % {"level": number}
            )
        if item.ante < 0:
            raise errors.InvalidStructure(
                reason=_("level %(level)s: the ante cannot be negative") % {"level": number}
            )
        if item.ante and item.ante_mode == "none":
            raise errors.InvalidStructure(
                reason=_("level %(level)s: an ante needs an ante mode") % {"level": number}
            )
        if previous is not None and (
            item.small_blind < previous.small_blind or item.big_blind < previous.big_blind
        ):
            raise errors.InvalidStructure(
                reason=_("level %(level)s: blinds go down from the level before")
                % {"level": number}
            )
        previous = item


@transaction.atomic
def structure_set(
    *, tournament: Tournament, actor, items: list[ItemSpec], now: datetime
) -> list[StructureItem]:
    """Replace the whole structure (the editor sends every row, in order)."""
    structure_validate(items)
    locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
    before = [_item_data(i) for i in locked.items.all()]
    locked.items.all().delete()
    rows = StructureItem.objects.bulk_create(
        StructureItem(tournament=locked, position=p, **vars(spec))
        for p, spec in enumerate(items, start=1)
    )
    event_log(
        tournament=locked,
        actor=actor,
        action="structure.set",
        data={"before": before, "after": [vars(spec) for spec in items]},
        now=now,
    )
    _structure_changed(locked, now)
    return rows


def _structure_changed(tournament: Tournament, now: datetime) -> None:
    """Tell the screens the levels changed: the clock state with its whole structure
    (clock pushes carry only its key), then the rest of what shows it."""
    realtime.broadcast(tournament.pk, selectors.clock_payload(tournament, now))
    realtime.broadcast(tournament.pk, {"type": "structure", "version": tournament.clock_version})


def _item_data(item: StructureItem) -> dict[str, Any]:
    return {
        "kind": item.kind,
        "small_blind": item.small_blind,
        "big_blind": item.big_blind,
        "ante": item.ante,
        "ante_mode": item.ante_mode,
        "minutes": item.minutes,
        "color_up": item.color_up,
    }


@undoes("structure.set")
def _undo_structure_set(event: Event, actor, now: datetime) -> None:
    tournament = Tournament.objects.select_for_update().get(pk=event.tournament_id)
    tournament.items.all().delete()
    StructureItem.objects.bulk_create(
        StructureItem(tournament=tournament, position=p, **data)
        for p, data in enumerate(event.data["before"], start=1)
    )
    _structure_changed(tournament, now)


@transaction.atomic
def tournament_clone(
    *, tournament: Tournament, actor, name: str, date, now: datetime
) -> Tournament:
    """Copy a tournament's settings, structure and tables (no players) under a new name."""
    skip = {"id", "slug", "name", "date", "status", "created_at"}
    fields = {
        f.name: getattr(tournament, f.name)
        for f in Tournament._meta.concrete_fields
        if f.name not in skip and not f.name.startswith("clock_")
    }
    clone = tournament_create(actor=actor, fields={**fields, "name": name, "date": date}, now=now)
    StructureItem.objects.bulk_create(
        StructureItem(tournament=clone, position=i.position, **_item_data(i))
        for i in tournament.items.all()
    )
    Table.objects.bulk_create(
        Table(
            tournament=clone,
            number=t.number,
            max_seats=t.max_seats,
            opening_order=t.opening_order,
            break_order=t.break_order,
            accessible_seats=t.accessible_seats,
            reserved_seats=t.reserved_seats,
        )
        for t in tournament.tables.all()
    )
    event_log(
        tournament=clone,
        actor=actor,
        action="tournament.clone",
        data={"from": tournament.slug},
        now=now,
        undoable=False,
    )
    return clone


@transaction.atomic
def staff_assign(
    *, tournament: Tournament, actor, username: str, role: str, now: datetime
) -> StaffAssignment:
    """Give a staff account a role in this tournament (replacing any earlier one)."""
    user = get_user_model().objects.filter(username=username).first()
    if user is None:
        raise errors.DomainError(_("No staff account is called %(name)s."), name=username)
    if role not in Role.values:
        raise errors.DomainError(_("Unknown role."))
    assignment, _created = StaffAssignment.objects.update_or_create(
        tournament=tournament, user=user, defaults={"role": role}
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="staff.assign",
        data={"username": username, "role": role},
        now=now,
        undoable=False,
    )
    return assignment


@transaction.atomic
def staff_remove(*, tournament: Tournament, actor, user_id: int, now: datetime) -> str:
    """Take a person's role in this tournament away; their open sockets close (the
    StaffAssignment signal, tournaments/sockets/signals.py). The last TD stays: someone must be
    able to run the event. Returns the username removed."""
    assignment = (
        StaffAssignment.objects.select_for_update()
        .select_related("user")
        .filter(tournament=tournament, user_id=user_id)
        .first()
    )
    if assignment is None:
        raise errors.DomainError(_("That person has no role in this tournament."))
    if assignment.role == Role.TD and not (
        StaffAssignment.objects.select_for_update()
        .filter(tournament=tournament, role=Role.TD)
        .exclude(pk=assignment.pk)
        .exists()
    ):
        raise errors.DomainError(
            _("The tournament's last TD cannot be removed: name another first.")
        )
    username = assignment.user.get_username()
    assignment.delete()
    event_log(
        tournament=tournament,
        actor=actor,
        action="staff.remove",
        data={"username": username},
        now=now,
        undoable=False,
    )
    return username
