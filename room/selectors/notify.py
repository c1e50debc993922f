"""What a notice needs read: whom it reaches, where he opted in, and the facts to word it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from room.models import EmailOptIn, PushSubscription
from room.rules.notices import Notice
from tables.models import WaitEntry
from tournaments.models import Entry, Player, Tournament


@dataclass(frozen=True)
class Recipient:
    """One player a notice reaches, with what his message says beside the notice's facts."""

    player: Player
    entry: Entry | None = None
    call: WaitEntry | None = None


def tournament_recipients(tournament: Tournament, notices: Iterable[Notice]) -> list[tuple]:
    """(notice, recipient) for each notice of a tournament's log row: its entries are read
    through the tournament (a payload names ids, never reaches another event's players)."""
    notices = list(notices)
    entry_ids = {n.who for n in notices if n.whom == "entry"}
    entries = {
        e.pk: e
        for e in Entry.objects.filter(tournament=tournament, pk__in=entry_ids).select_related(
            "player"
        )
    }
    out = []
    for notice in notices:
        if notice.whom == "entry" and notice.who in entries:
            entry = entries[notice.who]
            out.append((notice, Recipient(entry.player, entry=entry)))
        elif notice.whom == "field":
            still_in = Entry.objects.filter(
                tournament=tournament, status=Entry.Status.ACTIVE
            ).select_related("player")
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
