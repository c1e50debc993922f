"""Entries: new players, registration, re-entry, rebuys and add-ons, eliminations, ID checks."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from config.speedups import prepared
from config.speedups.prepared import NO_ID, Prepared
from tournaments import errors, realtime, selectors
from tournaments.events import event_log, logged_id, scoped, undoes
from tournaments.models import (
    Entry,
    Event,
    IdCheck,
    Player,
    Purchase,
    Seat,
    SeatTicket,
    Table,
    Tournament,
)
from tournaments.rules import entry_rules, placements
from tournaments.selectors import books as book_reads
from tournaments.selectors import draw as draw_reads
from tournaments.selectors import formats as format_selectors
from tournaments.selectors import tables as room_reads
from tournaments.services import books, locks, results
from tournaments.services import satellites as satellites_services
from tournaments.services import seats as seat_services

# --- Tournaments ----------------------------------------------------------------------


@transaction.atomic
def player_create(*, tournament: Tournament, actor, now: datetime, **fields: Any) -> Player:
    """Record a new player (names are trimmed; a document number may be registered once).
    `fields`: those of `_player_new`, which does the work inside the caller's transaction
    (a registration of a new player calls it directly: no savepoint)."""
    return _player_new(tournament=tournament, actor=actor, now=now, **fields)


def _player_new(
    *,
    tournament: Tournament,
    actor,
    first_name: str,
    last_name: str,
    document_number: str = "",
    nationality: str = "",
    needs_accessible_seat: bool = False,
    now: datetime,
) -> Player:
    """`player_create`, inside the caller's transaction."""
    first_name, last_name = first_name.strip(), last_name.strip()
    document_number = document_number.strip().upper()
    if not first_name or not last_name:
        raise errors.DomainError(_("Write the player's first and last name."))
    if document_number and Player.objects.filter(document_number=document_number).exists():
        raise errors.DomainError(
            _("Document %(document)s belongs to a player already registered: search for it."),
            document=document_number,
        )
    player = Player.objects.create(
        first_name=first_name,
        last_name=last_name,
        document_number=document_number,
        nationality=nationality.strip(),
        needs_accessible_seat=needs_accessible_seat,
    )
    event_log(
        tournament=tournament,
        actor=actor,
        action="player.create",
        data={"player": player.pk, "name": str(player)},
        now=now,
        undoable=False,
    )
    return player


@dataclass(frozen=True)
class Registration:
    entry: Entry
    table: int
    seat: int
    dealt_in: str
    opened_table: bool
    forfeited: Entry | None
    # The satellite seat ticket that paid the buy-in, when the desk asked to use one.
    ticket: SeatTicket | None = None


@transaction.atomic
def player_create_and_register(
    *,
    tournament: Tournament,
    actor,
    now: datetime,
    payment_method: str = "cash",
    **player_fields,
) -> Registration:
    """A new player and his entry, as one action: when the entry is refused (registration
    closed, the room full...), the player is not kept either, so a retry does not leave a
    second one behind. A player new this instant has no entry and no
    seat ticket yet: neither is looked for."""
    player = _player_new(tournament=tournament, actor=actor, now=now, **player_fields)
    return _register(
        tournament=tournament,
        player=player,
        actor=actor,
        now=now,
        forfeit=False,
        payment_method=payment_method,
        new_player=True,
        redeem_ticket=False,
    )


@transaction.atomic
def entry_register(
    *,
    tournament: Tournament,
    player: Player,
    actor,
    now: datetime,
    forfeit: bool = False,
    payment_method: str = "cash",
    redeem_ticket: bool = False,
) -> Registration:
    """Sell an entry (or a re-entry) and draw its seat at once (tournament.md §5, §6.1);
    with `redeem_ticket`, the player's satellite seat ticket for this event, if he holds
    one, is used for it in the same transaction (formats.md §11.9).

    Refused with a DomainError, changing nothing, when registration is closed, the player
    is already playing (unless `forfeit` and the event allows forfeit-and-re-enter), the
    entry limit is reached, or the room is full.
    """
    return _register(
        tournament=tournament,
        player=player,
        actor=actor,
        now=now,
        forfeit=forfeit,
        payment_method=payment_method,
        new_player=False,
        redeem_ticket=redeem_ticket,
    )


# A player's entries in the event, but voided ones (a registration reads them under the
# event's lock, in its trip).
_PLAYER_ENTRIES = Prepared(
    lambda tournament_id, player_id: (
        Entry.objects.filter(tournament_id=tournament_id, player_id=player_id)
        .exclude(status=Entry.Status.VOIDED)
        .order_by("number")
    ),
    tournament_id=NO_ID,
    player_id=NO_ID - 1,
)


def _register(
    *,
    tournament: Tournament,
    player: Player,
    actor,
    now: datetime,
    forfeit: bool,
    payment_method: str,
    new_player: bool,
    redeem_ticket: bool,
) -> Registration:
    """Check, write, log and publish one registration, under the event's lock."""
    with prepared.ahead(_registration_reads(tournament, player, new_player, forfeit)):
        tournament = locks.tournament_for_update(tournament)
        entries = (
            []
            if new_player
            else _PLAYER_ENTRIES.instances(tournament_id=tournament.pk, player_id=player.pk)
        )
        active = _check_registration(tournament, player, entries, forfeit=forfeit, now=now)
        forfeited_seat = _forfeit(active, now) if active is not None else None
        entry = Entry.objects.create(
            tournament=tournament,
            player=player,
            number=selectors.last_entry_number(tournament) + 1,
            kind=Entry.Kind.REENTRY if entries else Entry.Kind.ENTRY,
            chips=tournament.starting_stack,
            paid=tournament.buy_in_total,
            paid_bounty_cents=format_selectors.buy_in_split(tournament)["bounty"],
            created_at=now,
            payment_method=payment_method,
            clerk=books.clerk(actor),
        )
        # The new entry finishes above everyone already out: their places move down one, so
        # two busts from different hands never share a place.
        shifted = results.places_make_room(tournament=tournament, by=1)
        seat = seat_services.seat_assign(
            tournament=tournament, entry=entry, now=now, dealt_in=_dealt_in(tournament)
        )
        if seat.dealt_in == Seat.DealtIn.ASK_DEALER:
            seat = _deal_in_known(tournament, entry, seat)
        data = {
            "entry": entry.pk,
            "number": entry.number,
            "player": player.pk,
            "name": str(player),
            "kind": entry.kind,
            "table": seat.table,
            "seat": seat.seat,
            "dealt_in": seat.dealt_in,
            "opened_table": seat.opened_table,
            "forfeited_entry": active.pk if active else None,
            "forfeited_seat": list(forfeited_seat) if forfeited_seat else None,
            "chips_removed": active.chips if active else 0,
            "places_shifted": shifted,
        }
        event_log(tournament=tournament, actor=actor, action="entry.register", data=data, now=now)
        realtime.broadcast(
            tournament.pk,
            seat_push(data, bounty=selectors.entry_bounty(tournament, entry)),
            tables=(seat.table,),
        )
        ticket = (
            satellites_services.ticket_redeem(
                tournament=tournament, entry=entry, actor=actor, now=now
            )
            if redeem_ticket
            else None
        )
        return Registration(
            entry, seat.table, seat.seat, seat.dealt_in, seat.opened_table, active, ticket
        )


def _registration_reads(
    tournament: Tournament, player: Player, new_player: bool, forfeit: bool
) -> list:
    """The row lock and what a registration reads under it that depends on nothing read
    before (the night's books, the player's entries, the last number, the places out, the
    tables' loads for the draw): they go to the database in one trip (prepared.ahead), in
    that order, so each is read under the lock as it was one after another. Every desk of
    the event queues on this lock, and each trip held under it is a trip every other desk
    waits for. A forfeit frees a seat before the draw: then the loads are read after it; a
    player who needs an accessible seat is drawn from another read (`seat_assign`)."""
    reads = [
        locks.read_of(tournament),
        book_reads.open_read(tournament),
        selectors.last_entry_number_read(tournament),
        results.placed_out_read(tournament),
    ]
    if not new_player:
        reads.append((_PLAYER_ENTRIES, {"tournament_id": tournament.pk, "player_id": player.pk}))
    if not forfeit and not player.needs_accessible_seat:
        reads.append(draw_reads.loads_read(tournament))
    return reads


def _check_registration(
    tournament: Tournament, player: Player, entries: list[Entry], *, forfeit: bool, now: datetime
) -> Entry | None:
    """Refuse, changing nothing, a registration the event does not take; return the
    player's entry still playing that a forfeit surrenders, if any."""
    if tournament.status == Tournament.Status.FINISHED:
        raise errors.TournamentFinished
    books.assert_open(tournament)
    if player.merged_into_id is not None:  # a duplicate the TD merged
        raise errors.DomainError(
            _("%(player)s was merged into another player: register the player kept."),
            player=str(player),
        )
    if not selectors.registration_open(tournament, now):
        raise errors.LateRegistrationClosed
    active = next((e for e in entries if e.status == Entry.Status.ACTIVE), None)
    if entries and not tournament.reentry_allowed:
        if active is not None:
            raise _already_active(active)
        raise errors.ReentryNotAllowed
    if active is not None and not forfeit:
        raise _already_active(active)
    if active is not None and not tournament.reentry_forfeit_allowed:
        raise errors.ForfeitNotAllowed
    limit = tournament.max_entries if tournament.reentry_allowed else 1
    if len(entries) >= limit:
        raise errors.EntryLimitReached(player=str(player), limit=limit)
    return active


def _forfeit(active: Entry, now: datetime) -> tuple[int, int] | None:
    """Surrender the entry still playing (TDA-8b: its chips leave play; they go to nobody);
    return the seat it held."""
    seat = seat_services.seat_free(entry=active)
    active.status = Entry.Status.FORFEITED
    active.chips_removed = active.chips
    active.ended_at = now
    active.save(update_fields=["status", "chips_removed", "ended_at"])
    return seat


def seat_push(data: dict[str, Any], *, bounty: Any) -> dict[str, Any]:
    """What the screens are told of a logged registration (its log row's data): the seat
    drawn, and the entry's bounty, so a phone that followed his last entry follows this one
    (same player)."""
    return {
        "type": "seat",
        "entry": data["entry"],
        "name": data["name"],
        "table": data["table"],
        "seat": data["seat"],
        "dealt_in": data["dealt_in"],
        "bounty": bounty,
    }


def _already_active(entry: Entry) -> errors.PlayerAlreadyActive:
    seat = Seat.objects.select_related("table").filter(entry=entry).first()
    return errors.PlayerAlreadyActive(
        player=str(entry.player),
        table=seat.table.number if seat else "-",
        seat=seat.number if seat else "-",
    )


def _dealt_in(tournament: Tournament) -> str:
    """Before the first hand everyone is dealt in; once play runs, the seat decides
    (§7.4) and the table tablet reports the button: until then the desk is told the rule."""
    if tournament.clock_status in {"not_started", "scheduled"}:
        return Seat.DealtIn.NEXT_HAND
    return Seat.DealtIn.ASK_DEALER


def _deal_in_known(tournament: Tournament, entry: Entry, seat):
    """Answer "dealt in now?" from the table's last-hand positions when the tablet or the
    floor has reported them (tournament.md §7.4, setting deal_in_exclusion)."""

    table = Table.objects.get(tournament=tournament, number=seat.table)
    occupied = table.seats.values_list("number", flat=True)
    answer = room_reads.dealt_in_for(table, seat.seat, occupied, tournament.deal_in_exclusion)
    if answer != seat.dealt_in:
        Seat.objects.filter(entry=entry).update(dealt_in=answer)
    return replace(seat, dealt_in=answer)


@undoes("entry.register")
def _undo_entry_register(event: Event, actor, now: datetime) -> None:
    books.assert_open(event.tournament)  # a closed night changes by a correction only
    entry = scoped(Entry, event).select_for_update().get(pk=logged_id(event, "entry"))
    if entry.status != Entry.Status.ACTIVE:
        raise errors.CannotUndo(reason=_("the entry is no longer playing"))
    if entry.purchases.filter(voided=False).exists():
        raise errors.CannotUndo(reason=_("undo its rebuys and add-ons first"))
    shifted = event.data.get("places_shifted") or []
    if (
        shifted
        and Entry.objects.filter(
            tournament_id=event.tournament_id, status=Entry.Status.ELIMINATED, ended_at__gt=event.at
        ).exists()
    ):
        raise errors.CannotUndo(reason=_("players went out after it: undo their bust-outs first"))
    seat_services.seat_free(entry=entry)
    entry.status = Entry.Status.VOIDED
    entry.ended_at = now
    entry.save(update_fields=["status", "ended_at"])
    if shifted:
        results.places_make_room(tournament=entry.tournament, by=-1, entries=shifted)
    if event.data.get("forfeited_entry"):
        old = scoped(Entry, event).get(pk=logged_id(event, "forfeited_entry"))
        old.status = Entry.Status.ACTIVE
        old.chips_removed = 0
        old.ended_at = None
        old.save(update_fields=["status", "chips_removed", "ended_at"])
        table_number, seat_number = event.data["forfeited_seat"] or (event.data["table"], None)
        table = Table.objects.get(tournament_id=event.tournament_id, number=table_number)
        seat_services.seat_place(
            entry=old, table=table, seat=seat_number or event.data["seat"], now=now
        )


def entry_eliminate(
    *, tournament: Tournament, entry: Entry, actor, now: datetime, start_stack: int = 0
) -> placements.Settlement:
    """Record a lone bust-out: the entry takes its finishing place and prize (§15.1).

    Returns the settlement (places, prizes), not the entry read again: the floor's page
    answers at once, while its push is still reaching the screens."""

    return results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=start_stack)],
        actor=actor,
        now=now,
    )


def entries_eliminate(
    *, tournament: Tournament, entries: list[Entry], actor, now: datetime
) -> list[Entry]:
    """Record the bust-outs of one hand, at one table or many, in one settlement."""

    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=0) for entry in entries],
        actor=actor,
        now=now,
    )
    return list(Entry.objects.filter(pk__in=[e.pk for e in entries]))


def _purchase_window_reason(tournament: Tournament, kind: str, now: datetime) -> str | None:
    spot = selectors.clock_spot(tournament, now)
    if kind == Purchase.Kind.REBUY:
        if not entry_rules.rebuy_window_open(spot, until_level=tournament.rebuy_until_level):
            return _("the rebuy period ended with level %(level)s") % {
                "level": tournament.rebuy_until_level
            }
        return None
    if not entry_rules.addon_window_open(
        spot, break_after_level=tournament.addon_break_after_level
    ):
        return _("add-ons are sold at the break after level %(level)s") % {
            "level": tournament.addon_break_after_level
        }
    return None


@transaction.atomic
def entry_purchase(
    *,
    tournament: Tournament,
    entry: Entry,
    kind: str,
    actor,
    now: datetime,
    stack: int | None = None,
    declared_before_hand: bool = False,
    payment_method: str = "cash",
    key: str = "",
) -> Purchase:
    """Sell a rebuy or an add-on on an active entry (tournament.md §5.5, §5.6).

    A rebuy declared before the hand (§5.5) is charged at once and cannot be refused by
    the hand's outcome: the chips count as in play for that hand. `key` is the one-time
    key of the desk's form: the same form sent twice sells once.
    """
    tournament = locks.tournament_for_update(tournament)
    key = (key or "").strip()[:64]
    sold = errors.DomainError(_("This sale is already recorded."))
    # Under the tournament's lock: a second sending of the same form waits here, then
    # finds the first (the constraint backs this up).
    if key and Purchase.objects.filter(key=key).exists():
        raise sold
    entry = Entry.objects.select_for_update().get(pk=entry.pk, tournament=tournament)
    if entry.status != Entry.Status.ACTIVE:
        raise errors.NotPlaying(player=str(entry.player))
    books.assert_open(tournament)
    bought = entry.purchases.filter(kind=kind, voided=False).count()
    if kind == Purchase.Kind.REBUY:
        reason = None
        if not tournament.rebuys_allowed:
            reason = _("this tournament has no rebuys")
        elif bought >= tournament.rebuy_max:
            reason = _("%(player)s has had all %(limit)s rebuys") % {
                "player": entry.player,
                "limit": tournament.rebuy_max,
            }
        elif (
            tournament.rebuy_stack_threshold is not None
            and not declared_before_hand
            and (stack is None or stack > tournament.rebuy_stack_threshold)
        ):
            reason = _("the stack must be %(limit)s or less (write the current stack)") % {
                "limit": tournament.rebuy_stack_threshold
            }
        reason = reason or _purchase_window_reason(tournament, kind, now)
        if reason:
            raise errors.RebuyNotAllowed(reason=reason)
        price, chips = tournament.rebuy_price, tournament.rebuy_chips
    else:
        reason = None
        if not tournament.addon_allowed:
            reason = _("this tournament has no add-on")
        elif bought >= 1:
            reason = _("%(player)s has already had the add-on") % {"player": entry.player}
        reason = reason or _purchase_window_reason(tournament, kind, now)
        if reason:
            raise errors.AddonNotAllowed(reason=reason)
        price, chips = tournament.addon_price, tournament.addon_chips
    with locks.once(sold):
        purchase = Purchase.objects.create(
            entry=entry,
            kind=kind,
            price=price,
            chips=chips,
            declared_before_hand=declared_before_hand,
            created_at=now,
            payment_method=payment_method,
            clerk=books.clerk(actor),
            key=key,
        )
    event_log(
        tournament=tournament,
        actor=actor,
        action=f"entry.{kind}",
        data={
            "purchase": purchase.pk,
            "entry": entry.pk,
            "name": str(entry.player),
            "chips": chips,
            "price": price,
            "declared_before_hand": declared_before_hand,
        },
        now=now,
    )
    realtime.broadcast(tournament.pk, {"type": "figures"})
    return purchase


def _undo_purchase(event: Event, actor, now: datetime) -> None:
    books.assert_open(event.tournament)
    purchase = scoped(Purchase, event).select_for_update().get(pk=logged_id(event, "purchase"))
    purchase.voided = True
    purchase.save(update_fields=["voided"])


undoes("entry.rebuy")(_undo_purchase)


undoes("entry.addon")(_undo_purchase)


@transaction.atomic
def id_check(
    *, tournament: Tournament, player: Player, actor, now: datetime, day: int = 1
) -> IdCheck:
    """Record that the player's photo ID was checked for this playing day (FIGP §50)."""
    check, created = IdCheck.objects.get_or_create(
        tournament=tournament,
        player=player,
        day=day,
        defaults={"checked_at": now, "checked_by": actor},
    )
    if created:
        event_log(
            tournament=tournament,
            actor=actor,
            action="id.check",
            data={"check": check.pk, "player": player.pk, "name": str(player), "day": day},
            now=now,
        )
    return check


@undoes("id.check")
def _undo_id_check(event: Event, actor, now: datetime) -> None:
    if not scoped(IdCheck, event).filter(pk=logged_id(event, "check")).delete()[0]:
        raise errors.CannotUndo(reason=_("its log row does not match this tournament"))
