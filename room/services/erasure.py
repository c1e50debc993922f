"""What an erasure reaches beyond the player's own row (`people.player_erase` runs it).

The logs and a few records keep copies of a player's name as it was written (a log row says
who it was about, in words, and outlives him). An erasure rewrites every copy in the same
transaction: each stored text that names the person (any name he has had, his nickname,
document, phone or e-mail) gets the erased placeholder instead. So the event log, the
room's log, every backup and report read afterwards name "Anonymous #<id>"; the ids the
rows hold (and every undo, which reads only ids) are untouched.

A homonym's rows say the placeholder too where they copied the very same full name: the
erasure errs on the side of erasing.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import reduce

from django.db import models
from django.db.models.functions import Cast
from django.utils.translation import gettext as _

from room.models import CashSeat, KeepApart, RoomEvent, WaitEntry
from tournaments import errors
from tournaments.models import (
    CashCorrection,
    CashRefund,
    ChipAdjustment,
    Entry,
    Event,
    IdCheck,
    Penalty,
    Player,
    Reservation,
    Ruling,
    TimeCall,
)
from tournaments.rules import names


@dataclass(frozen=True)
class Reach:
    """Whom an erasure is about: his player rows (he and his duplicates), their entries,
    and the events they played."""

    players: tuple[int, ...]
    entries: tuple[int, ...]
    tournaments: tuple[int, ...]


@dataclass(frozen=True)
class Swept:
    """A stored text that may hold a player's name in words.

    `his`: the rows whose free text is about him, where one of his names alone ("Quaglietti
    left") names him too; elsewhere only a whole name, nickname, document or contact is
    taken out (a homonym's "Rossi" stays). `free_keys`: in a JSON field, the keys that hold
    free text (None: all of it is)."""

    model: type[models.Model]
    field: str
    his: Callable[[Reach], models.Q] | None = None
    free_keys: frozenset[str] | None = None


def _in_his_events(reach: Reach) -> models.Q:
    return models.Q(tournament_id__in=reach.tournaments)


# Every stored text that may hold a player's name in words: the logs' payloads, and the
# fields the floor, the desk or a service write a name into.
SWEPT: tuple[Swept, ...] = (
    Swept(Event, "data", _in_his_events, frozenset({"offence", "note", "reason"})),
    Swept(RoomEvent, "data"),
    Swept(TimeCall, "player_name", lambda r: models.Q(entry_id__in=r.entries)),
    Swept(Ruling, "names", _in_his_events),
    Swept(Ruling, "hand"),
    Swept(Ruling, "note", _in_his_events),
    Swept(Penalty, "offence", lambda r: models.Q(player_id__in=r.players)),
    Swept(ChipAdjustment, "data", _in_his_events, frozenset({"note"})),
    Swept(CashRefund, "reason", lambda r: models.Q(entry_id__in=r.entries)),
    Swept(CashCorrection, "reason", _in_his_events),
    Swept(
        KeepApart,
        "reason",
        lambda r: models.Q(player_a_id__in=r.players) | models.Q(player_b_id__in=r.players),
    ),
)

# The log rows that wrote a player's name beside his id: the names he had before an edit.
NAMING_ACTIONS = ("player.create", "entry.register", "id.check")
ROOM_NAMING_ACTIONS = ("cash.list_add",)
# A nickname, document, phone or e-mail shorter than this is too common a word to erase
# wherever it stands.
SHORTEST_DETAIL = 4
# One of his names alone is taken out of the free text about him from this length.
SHORTEST_WORD = 3


def person(player: Player) -> list[Player]:
    """The player and every duplicate merged into him (at any depth), locked: one person,
    whose duplicates still hold the names he gave there."""
    found = [player]
    seen = {player.pk}
    frontier = [player.pk]
    while frontier:
        duplicates = [
            p
            for p in Player.objects.select_for_update().filter(merged_into__in=frontier)
            if p.pk not in seen
        ]
        found += duplicates
        seen |= {p.pk for p in duplicates}
        frontier = [p.pk for p in duplicates]
    return found


def refuse_in_cash_room(players: Iterable[Player]) -> None:
    """Refuse while the person sits at a cash table or waits on a list: the floor takes
    him off first (his stake leaves with him, logged), then the erasure finds him gone.
    The player rows are locked: a list cannot take him in meanwhile (`cash.list_add`
    locks them too)."""
    ids = [p.pk for p in players]
    seat = CashSeat.objects.filter(player_id__in=ids).select_related("table").first()
    if seat is not None:
        raise errors.DomainError(
            _(
                "The player is seated at cash table %(table)s, seat %(seat)s: the floor "
                "takes him off the table before his data is erased."
            ),
            table=seat.table.number,
            seat=seat.number,
        )
    lists = sorted(
        {str(w.game) for w in WaitEntry.objects.filter(player_id__in=ids).select_related("game")}
    )
    if lists:
        raise errors.DomainError(
            _(
                "The player is on the waiting list for %(games)s: the floor takes him off "
                "the list before his data is erased."
            ),
            games=", ".join(lists),
        )


@dataclass(frozen=True)
class Terms:
    """What names the person: `whole` everywhere (his full names as any row wrote them,
    nickname, document, phone, e-mail); `alone` (each word of his names) only in the free
    text about him."""

    whole: frozenset[str]
    alone: frozenset[str]


def personal_terms(players: Iterable[Player]) -> Terms:
    """Every text that names the person: each player's names in both orders, the names
    the logs wrote for him before an edit, his nickname, document, phone and e-mail (read
    before the rows are cleared)."""
    players = list(players)
    ids = [p.pk for p in players]
    full: set[str] = set()
    details: set[str] = set()
    for p in players:
        full |= {str(p), f"{p.first_name} {p.last_name}"}
        details |= {p.nickname, p.document_number, p.phone, p.email}
    entry_ids = list(Entry.objects.filter(player_id__in=ids).values_list("pk", flat=True))
    logged = Event.objects.filter(action__in=NAMING_ACTIONS).filter(
        models.Q(data__player__in=ids) | models.Q(data__entry__in=entry_ids)
    )
    room_logged = RoomEvent.objects.filter(action__in=ROOM_NAMING_ACTIONS, data__player__in=ids)
    for data in [
        *logged.values_list("data", flat=True),
        *room_logged.values_list("data", flat=True),
    ]:
        if isinstance(data, dict) and isinstance(data.get("name"), str):
            full.add(data["name"])
    full |= set(
        TimeCall.objects.filter(entry_id__in=entry_ids).values_list("player_name", flat=True)
    )
    full = {" ".join(t.split()) for t in full if t.strip()}
    details = {" ".join(d.split()) for d in details if len(d.strip()) >= SHORTEST_DETAIL}
    return Terms(
        whole=frozenset(full | details),
        alone=frozenset(w for t in full for w in t.split() if len(w) >= SHORTEST_WORD),
    )


def reach(players: Iterable[Player]) -> Reach:
    """The rows an erasure of these players is about."""
    ids = tuple(p.pk for p in players)
    entries = Entry.objects.filter(player_id__in=ids)
    tournaments = {*entries.values_list("tournament_id", flat=True)}
    tournaments |= {
        *Penalty.objects.filter(player_id__in=ids).values_list("tournament_id", flat=True)
    }
    tournaments |= {
        *IdCheck.objects.filter(player_id__in=ids).values_list("tournament_id", flat=True)
    }
    return Reach(ids, tuple(entries.values_list("pk", flat=True)), tuple(sorted(tournaments)))


def sweep(terms: Terms, placeholder: str, reach: Reach) -> int:
    """Rewrite every stored text of `SWEPT` that holds one of `terms` with `placeholder`
    instead; returns how many rows changed. The database narrows the rows to those that
    hold a word of a term; the match itself is made here (whole words, case aside)."""
    whole = names.redaction_pattern(terms.whole)
    if whole is None:
        return 0
    alone = names.redaction_pattern(terms.alone) or whole
    fragments = {names.plain_fragment(t) for t in terms.whole | terms.alone}
    changed = 0
    for swept in SWEPT:
        model, field = swept.model, swept.field
        rows = model._default_manager.all()
        if None not in fragments:
            text = (
                Cast(field, models.TextField())
                if isinstance(model._meta.get_field(field), models.JSONField)
                else models.F(field)
            )
            holds = (models.Q(swept_text__icontains=f) for f in fragments)
            rows = rows.alias(swept_text=text).filter(reduce(operator.or_, holds))
        his = (
            set(rows.filter(swept.his(reach)).values_list("pk", flat=True)) if swept.his else set()
        )
        rewritten = {}
        for pk, value in rows.values_list("pk", field).iterator():
            new = names.redact(value, whole, placeholder)
            if pk in his:
                new = names.redact(new, alone, placeholder, within=swept.free_keys)
            if new != value:
                rewritten[pk] = new
        for pk, new in rewritten.items():
            model._default_manager.filter(pk=pk).update(**{field: new})
        changed += len(rewritten)
    return changed


def reservations(players: Iterable[Player], placeholder: str) -> int:
    """His reservations (those his record holds, and any other made with his e-mail or
    phone) keep their code and state, and lose his name and contact. Returns how many."""
    players = list(players)
    emails = {p.email.lower() for p in players if p.email}
    phones = {p.phone for p in players if p.phone}
    found = models.Q(player__in=players)
    if emails:
        found |= models.Q(email__in=emails)
    if phones:
        found |= models.Q(phone__in=phones)
    last, _space, first = placeholder.partition(" ")
    return Reservation.objects.filter(found).update(
        first_name=first[:60], last_name=last[:60], phone="", email=""
    )
