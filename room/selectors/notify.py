"""What a notice needs read: whom it reaches, where he opted in, and the facts to word it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q

from room.models import EmailOptIn, PushSubscription, WaitEntry
from room.rules.notices import Notice
from tournaments.models import Entry, Player, Tournament

# Only players who opted in somewhere are read further: a floor action whose players
# never opted in costs one read.
OPTED_IN = Q(player__push_subscriptions__isnull=False) | Q(player__email_opt_ins__isnull=False)


@dataclass(frozen=True)
class Recipient:
    """One player a notice reaches, with what his message says beside the notice's facts."""

    player: Player
    entry: Entry | None = None
    call: WaitEntry | None = None


def tournament_recipients(tournament_id: int, notices: Iterable[Notice]) -> list[tuple]:
    """(notice, recipient) for each notice of a tournament's log row, among the players
    who opted in: its entries are read through the tournament (a payload names ids, never
    reaches another event's players). One read."""
    notices = list(notices)
    entry_ids = {n.who for n in notices if n.whom == "entry"}
    field = any(n.whom == "field" for n in notices)
    if not entry_ids and not field:
        return []
    whom = Q(status=Entry.Status.ACTIVE) if field else Q(pk__in=entry_ids)
    if field and entry_ids:
        whom |= Q(pk__in=entry_ids)
    entries = (
        Entry.objects.filter(whom, OPTED_IN, tournament_id=tournament_id)
        .select_related("player", "tournament")
        .distinct()
    )
    by_id = {e.pk: e for e in entries}
    out = []
    for notice in notices:
        if notice.whom == "entry" and notice.who in by_id:
            entry = by_id[notice.who]
            out.append((notice, Recipient(entry.player, entry=entry)))
        elif notice.whom == "field":
            still_in = [e for e in by_id.values() if e.status == Entry.Status.ACTIVE]
            out += [(notice, Recipient(e.player, entry=e)) for e in still_in]
    return out


def cash_recipients(notices: Iterable[Notice]) -> list[tuple]:
    """(notice, recipient) for the cash list's calls: the player and his call, as it stands
    now (a call already answered or taken back by the time this runs is not told)."""
    out = []
    for notice in notices:
        call = (
            WaitEntry.objects.filter(
                player_id=notice.who,
                called_table=notice.facts["table"],
                called_seat=notice.facts["seat"],
                coming=False,
            )
            .filter(OPTED_IN)
            .select_related("player", "game")
            .first()
        )
        if call is not None:
            out.append((notice, Recipient(call.player, call=call)))
    return out


def subscriptions(player_ids: Iterable[int]) -> list[PushSubscription]:
    return list(PushSubscription.objects.filter(player_id__in=set(player_ids)).order_by("pk"))


def email_opt_ins(player_ids: Iterable[int]) -> list[EmailOptIn]:
    return list(EmailOptIn.objects.filter(player_id__in=set(player_ids)).order_by("pk"))


def opt_ins_of(player: Player) -> tuple[list[PushSubscription], list[EmailOptIn]]:
    return (
        list(PushSubscription.objects.filter(player=player).order_by("pk")),
        list(EmailOptIn.objects.filter(player=player).order_by("pk")),
    )


def seats_of(player: Player) -> list[tuple]:
    """(seat notice, recipient) for every event the player sits in now: what a phone that
    opts in after the draw is told at once. One read."""
    entries = (
        Entry.objects.filter(player=player, status=Entry.Status.ACTIVE, seat__isnull=False)
        .exclude(tournament__status=Tournament.Status.FINISHED)
        .select_related("player", "tournament", "seat__table")
    )
    return [
        (
            Notice(
                "seat_drawn", "entry", e.pk, {"table": e.seat.table.number, "seat": e.seat.number}
            ),
            Recipient(e.player, entry=e),
        )
        for e in entries
    ]
