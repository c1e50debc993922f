"""The room's players and the chip counts taken at the tables.

A player belongs to the room, not to one event, so his profile, merges and erasure are
logged in the room's log (`room.events`, actions "room.player_*"); a table's chip count
belongs to its event and is logged there ("chips.count").
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from room.events import room_event_log, room_event_undo
from room.events import undoes as room_undoes
from room.models import CashOut, CashSeat, RoomEvent, WaitEntry
from room.permissions import may_reach_everything_of
from room.services import erasure, optins
from tournaments import errors, realtime
from tournaments.errors import CannotUndo
from tournaments.models import (
    Entry,
    IdCheck,
    Penalty,
    Player,
    PlayerPhoto,
    Seat,
    SeatTicket,
)

PROFILE_FIELDS = (
    "first_name",
    "last_name",
    "nickname",
    "document_number",
    "nationality",
    "country",
    "phone",
    "email",
    "contact_consent",
    "notes",
    "needs_accessible_seat",
)
ANONYMOUS = "Anonymous"
KEEP = object()  # player_update: leave the photo as it is
PHOTO_TYPES = ("image/jpeg", "image/png", "image/webp")
PHOTO_MAX_BYTES = 300 * 1024


@transaction.atomic
def player_update(*, player: Player, actor, fields: dict[str, Any], now: datetime) -> Player:
    """Change a player's profile; the log names the fields changed (not their values: the
    log outlives an erasure)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.erased_at is not None:
        raise errors.DomainError(_("This player's data was erased: nothing to edit."))
    photo = fields.get("photo", KEEP)  # KEEP, None (remove) or (bytes, content type)
    values = {k: v for k, v in fields.items() if k in PROFILE_FIELDS}
    for key in ("first_name", "last_name", "nickname", "nationality", "phone", "email"):
        if key in values:
            values[key] = " ".join(str(values[key]).split())
    if "document_number" in values:
        values["document_number"] = str(values["document_number"]).strip().upper()
    if not values.get("first_name", player.first_name) or not values.get(
        "last_name", player.last_name
    ):
        raise errors.DomainError(_("Write the player's first and last name."))
    document = values.get("document_number", "")
    if document and Player.objects.filter(document_number=document).exclude(pk=player.pk).exists():
        raise errors.DomainError(
            _("Document %(document)s belongs to a player already registered: search for it."),
            document=document,
        )
    # The contact is kept only with consent (and when it was given): without it, none.
    consent = values.get("contact_consent", player.contact_consent)
    if not consent:
        values["phone"] = values["email"] = ""
    elif (
        not player.contact_consent
        or ("phone" in values or "email" in values)
        and not player.contact_consent_at
    ):
        values["contact_consent_at"] = now
    changed = sorted(k for k, v in values.items() if getattr(player, k) != v)
    for key in changed:
        setattr(player, key, values[key])
    if changed:
        player.save(update_fields=changed)
    if {"first_name", "last_name"} & set(changed):
        _board_names(player)
    if photo is None and PlayerPhoto.objects.filter(player=player).delete()[0]:
        changed.append("photo")
    elif photo is not KEEP and photo is not None:
        data, content_type = photo
        if content_type not in PHOTO_TYPES or len(data) > PHOTO_MAX_BYTES:
            raise errors.DomainError(_("The photo must be a JPEG, PNG or WebP image."))
        PlayerPhoto.objects.update_or_create(
            player=player,
            defaults={"data": data, "content_type": content_type, "uploaded_at": now},
        )
        changed.append("photo")
    if not changed:
        return player
    room_event_log(
        actor=actor,
        action="room.player_edit",
        data={"player": player.pk, "fields": changed},
        now=now,
        undoable=False,
    )
    return player


@transaction.atomic
def contact_reveal(*, player: Player, actor, now: datetime) -> Player:
    """The room's manager reads a player's phone and e-mail in full: logged, who and when
    (the log names the player, never the contact)."""
    room_event_log(
        actor=actor,
        action="room.contact_reveal",
        data={"player": player.pk},
        now=now,
        undoable=False,
    )
    return player


@transaction.atomic
def accessible_seat_ask(*, player: Player, actor, now: datetime) -> Player:
    """The player asks for an accessible seat (the kiosk): his record says so, and every
    draw seats him where the table allows (logged; the floor can untick it)."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.erased_at is not None:
        raise errors.DomainError(_("This player's data was erased: nothing to edit."))
    if not player.needs_accessible_seat:
        player.needs_accessible_seat = True
        player.save(update_fields=["needs_accessible_seat"])
        room_event_log(
            actor=actor,
            action="room.player_edit",
            data={"player": player.pk, "fields": ["needs_accessible_seat"]},
            now=now,
            undoable=False,
        )
    return player


def _board_names(player: Player) -> None:
    """The seats of the player's entries take his name as it is now (their copies order
    the seating board, `Seat.board_last_name`)."""
    Seat.objects.filter(entry__player=player).update(
        board_last_name=player.last_name, board_first_name=player.first_name
    )


# What a merge moves from one player to the other, and the key its log row keeps the
# moved rows' ids under.
_CASH = ((CashSeat, "cash_seats"), (WaitEntry, "waiting"), (CashOut, "cash_outs"))
_MOVED = (
    (Entry, "entries"),
    (Penalty, "penalties"),
    (IdCheck, "id_checks"),
    (SeatTicket, "tickets"),
    *_CASH,
)


def _may_merge(actor, *players: Player) -> None:
    """A merge moves every record of both players: it needs every event and cash-room
    record of each of them in the actor's hands."""
    if not all(may_reach_everything_of(actor, p) for p in players):
        raise errors.DomainError(
            _(
                "These players also play in events (or the cash room) you do not run: "
                "only whoever runs all of them, or the room's manager, may merge them."
            )
        )


def _cash_clash(source: Player, target: Player) -> None:
    """Refuse a merge that would seat one person twice or list him twice for one game."""
    seats = {
        s.player_id: s
        for s in CashSeat.objects.select_for_update()
        .select_related("table")
        .filter(player__in=[source, target])
    }
    if source.pk in seats and target.pk in seats:
        raise errors.DomainError(
            _(
                "Both players sit at cash tables (%(source)s at table %(source_table)s, "
                "seat %(source_seat)s; %(target)s at table %(target_table)s, seat "
                "%(target_seat)s): one of them leaves his seat first."
            ),
            source=str(source),
            source_table=seats[source.pk].table.number,
            source_seat=seats[source.pk].number,
            target=str(target),
            target_table=seats[target.pk].table.number,
            target_seat=seats[target.pk].number,
        )
    both = (
        WaitEntry.objects.select_for_update()
        .filter(player=source, game__in=WaitEntry.objects.filter(player=target).values("game"))
        .select_related("game")
    )
    games = sorted({str(w.game) for w in both})
    if games:
        raise errors.DomainError(
            _(
                "Both players are on the waiting list for %(games)s: take one of them off "
                "the list first."
            ),
            games=", ".join(games),
        )


@transaction.atomic
def players_merge(*, source: Player, target: Player, actor, now: datetime) -> RoomEvent:
    """Merge a duplicate (`source`) into `target`: every entry, penalty, ID check and seat
    ticket, and his seat, waiting lists and cash-outs in the cash room, move to `target`;
    `source` stays, hidden, pointing at `target`, so the merge can be undone (the room's
    log keeps what moved). Only a user who reaches everything of both may merge them."""
    if source.pk == target.pk:
        raise errors.DomainError(_("Choose two different players to merge."))
    locked = {
        p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[source.pk, target.pk])
    }
    source, target = locked[source.pk], locked[target.pk]
    _may_merge(actor, source, target)
    if source.merged_into_id or target.merged_into_id:
        raise errors.DomainError(_("One of these players was already merged into another."))
    if source.erased_at or target.erased_at:
        raise errors.DomainError(_("An erased player cannot be merged."))
    _cash_clash(source, target)
    both_active = (
        Entry.objects.filter(player=source, status=Entry.Status.ACTIVE)
        .filter(
            tournament__in=Entry.objects.filter(player=target, status=Entry.Status.ACTIVE).values(
                "tournament"
            )
        )
        .exists()
    )
    if both_active:
        raise errors.DomainError(
            _("Both players are playing in the same event: eliminate or void one entry first.")
        )
    taken = set(IdCheck.objects.filter(player=target).values_list("tournament_id", "day"))
    checks = [
        pk
        for pk, t, d in IdCheck.objects.filter(player=source).values_list(
            "pk", "tournament_id", "day"
        )
        if (t, d) not in taken
    ]
    moved = {
        "entries": list(Entry.objects.filter(player=source).values_list("pk", flat=True)),
        "penalties": list(Penalty.objects.filter(player=source).values_list("pk", flat=True)),
        "id_checks": checks,
        "tickets": list(SeatTicket.objects.filter(player=source).values_list("pk", flat=True)),
        **{
            key: list(model.objects.filter(player=source).values_list("pk", flat=True))
            for model, key in _CASH
        },
    }
    for model, key in _MOVED:
        model.objects.filter(pk__in=moved[key]).update(player=target)
    _board_names(target)
    if any(moved[key] for _model, key in _CASH):
        realtime.broadcast_cash("room.player_merge")  # the cash screens name him anew
    source.merged_into = target
    source.save(update_fields=["merged_into"])
    return room_event_log(
        actor=actor,
        action="room.player_merge",
        data={"source": source.pk, "target": target.pk, **moved},
        now=now,
    )


def _ids(event: RoomEvent, key: str) -> list[int]:
    if isinstance(event.data, dict) and key not in event.data and key in dict(_CASH).values():
        return []  # a merge logged before the cash room's records moved with it
    values = event.data.get(key) if isinstance(event.data, dict) else None
    if not isinstance(values, list) or any(type(v) is not int for v in values):
        raise CannotUndo(reason=_("its log row is damaged"))
    return values


def _id(event: RoomEvent, key: str) -> int:
    value = event.data.get(key) if isinstance(event.data, dict) else None
    if type(value) is not int:
        raise CannotUndo(reason=_("its log row is damaged"))
    return value


@room_undoes("room.player_merge")
def _undo_merge(event: RoomEvent, actor, now: datetime) -> None:
    source = Player.objects.select_for_update().filter(pk=_id(event, "source")).first()
    target_id = _id(event, "target")
    if source is None or source.merged_into_id != target_id:
        raise CannotUndo(reason=_("the players changed since"))
    if source.erased_at is not None:
        raise CannotUndo(reason=_("the player's data was erased since"))
    target = Player.objects.select_for_update().filter(pk=target_id).first()
    if target is None:
        raise CannotUndo(reason=_("the players changed since"))
    _may_merge(actor, target, source)
    try:
        with transaction.atomic():
            for model, key in _MOVED:
                model.objects.filter(pk__in=_ids(event, key), player_id=target_id).update(
                    player=source
                )
    except IntegrityError as exc:
        raise CannotUndo(reason=_("the players changed since")) from exc
    if any(_ids(event, key) for _model, key in _CASH):
        realtime.broadcast_cash("undo")
    _board_names(source)
    source.merged_into = None
    source.save(update_fields=["merged_into"])


@transaction.atomic
def undo_merge(*, event_id: int, actor, now: datetime) -> RoomEvent:
    """Undo a merge from the room's log (only merges: other room actions have their own
    pages)."""
    if not RoomEvent.objects.filter(pk=event_id, action="room.player_merge").exists():
        raise errors.DomainError(_("No such merge in the room's log."))
    return room_event_undo(event_id=event_id, actor=actor, now=now)  # CannotUndo: a refusal


@transaction.atomic
def player_erase(*, player: Player, actor, now: datetime) -> Player:
    """Erase a player's personal data on request: the name becomes "Anonymous #<id>", the
    document, contact and notes are cleared; his entries, places and prizes stay (the
    events' results must still add up), under the anonymous name. The duplicates merged
    into him are the same person and are erased with him, and every copy of his names in
    the logs and records is rewritten (`erasure`), and his phones' and e-mail notices are
    forgotten. Refused while he plays an event or sits
    or waits in the cash room."""
    player = Player.objects.select_for_update().get(pk=player.pk)
    if player.erased_at is not None:
        raise errors.DomainError(_("This player's data was already erased."))
    players = erasure.person(player)
    if Entry.objects.filter(player__in=players, status=Entry.Status.ACTIVE).exists():
        raise errors.DomainError(_("The player is still playing: erase his data after the event."))
    erasure.refuse_in_cash_room(players)
    terms = erasure.personal_terms(p for p in players if p.erased_at is None)
    erasure.reservations(players, placeholder=f"{ANONYMOUS} #{player.pk}")
    for p in players:
        if p.erased_at is None:
            _anonymize(p, now)
    erasure.sweep(terms, placeholder=str(player), reach=erasure.reach(players))
    optins.opt_ins_erase(p.pk for p in players)
    data: dict[str, Any] = {"player": player.pk}
    if len(players) > 1:
        data["duplicates"] = [p.pk for p in players[1:]]
    room_event_log(
        actor=actor,
        action="room.player_erase",
        data=data,
        now=now,
        undoable=False,
    )
    return player


def _anonymize(player: Player, now: datetime) -> None:
    player.last_name = ANONYMOUS  # shown "Anonymous #12" (last name first)
    player.first_name = f"#{player.pk}"
    erased = ("nickname", "document_number", "nationality", "country", "phone", "email", "notes")
    for key in erased:
        setattr(player, key, "")
    player.contact_consent, player.contact_consent_at = False, None
    player.no_shows_flagged_at = None
    PlayerPhoto.objects.filter(player=player).delete()
    player.needs_accessible_seat = False
    player.erased_at = now
    player.save()
    _board_names(player)


# --- Chip counts at the tables -----------------------------------------------
