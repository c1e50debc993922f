"""The desk's reads of players: search, duplicates, a document's holder."""

from __future__ import annotations

from django.db.models import (
    BigIntegerField,
    Exists,
    OuterRef,
    Q,
    Value,
)
from django.db.models.fields.json import KeyTextTransform
from django.db.models.functions import Cast

from config.speedups.prepared import Prepared
from tournaments import permissions
from tournaments.models import (
    Entry,
    Event,
    Player,
    Role,
    SeatTicket,
    Tournament,
)
from tournaments.rules.names import fold

# The players whose folded name (`search_name`: last, first, nickname) is one of two, or
# begins with one of them and a space (a nickname follows): read for every new player the
# desk adds, compiled once, found through the column's index. The prefixes are values (not
# `startswith` strings), so the statement keeps their places: the database escapes them
# for LIKE itself.
_SAME_NAME = Prepared(
    lambda one, one_prefix, other, other_prefix: (
        Player.objects.filter(merged_into__isnull=True, erased_at__isnull=True)
        .filter(
            Q(search_name=one)
            | Q(search_name__startswith=Value(one_prefix))
            | Q(search_name=other)
            | Q(search_name__startswith=Value(other_prefix))
        )
        .order_by()
        .values_list("id", "first_name", "last_name")
    ),
    one="-prepared one-",
    one_prefix="-prepared one prefix-",
    other="-prepared other-",
    other_prefix="-prepared other prefix-",
)


def _desk_reach(user, tournament: Tournament, candidates: list[int]) -> set[int]:
    """Which of `candidates` the user's desk may be shown by name: players of his own
    events (entered there, added at their desks, or holding a seat ticket to one of them,
    as his search finds them) and the players of this event's leagues, whose names the
    standings show; every one for the room's manager."""
    if not candidates or permissions.is_manager(user):
        return set(candidates)
    mine = set(permissions.events_for(user, STAFF_ROLES).values_list("pk", flat=True))
    mine.add(tournament.pk)
    mine |= set(Tournament.objects.filter(leagues__events=tournament).values_list("pk", flat=True))
    entered = Entry.objects.filter(player_id__in=candidates, tournament_id__in=mine)
    added = Event.objects.filter(tournament_id__in=mine, action="player.create").annotate(
        player_id=Cast(KeyTextTransform("player", "data"), BigIntegerField())
    )
    ticketed = SeatTicket.objects.filter(player_id__in=candidates, target_id__in=mine, voided=False)
    return {
        *entered.values_list("player_id", flat=True),
        *added.filter(player_id__in=candidates).values_list("player_id", flat=True),
        *ticketed.values_list("player_id", flat=True),
    }


def player_duplicates(
    tournament: Tournament,
    *,
    user,
    first_name: str,
    last_name: str,
    document_number: str = "",
) -> list[Player]:
    """Players a new one may be, the rule of the room's duplicates (`selectors.people.duplicates`):
    whoever holds the same document number (the desk finds him by it anyway), and the
    players the user's desk reaches (`_desk_reach`) with the same two names in either
    order, case, accents and spacing aside, playing, out or never entered."""
    first, last = fold(first_name), fold(last_name)
    wanted = {(first, last), (last, first)}
    found: dict[int, Player] = {}
    document = document_number.strip()
    if document:
        for player in Player.objects.select_related("merged_into").filter(
            document_number__iexact=document
        )[:10]:
            # A merged-away record keeps its document: the desk is shown whom it became.
            kept = player.merged_into or player
            found[kept.pk] = kept
    if first and last:
        one, other = f"{last} {first}", f"{first} {last}"
        rows = _SAME_NAME.rows(one=one, one_prefix=one + " ", other=other, other_prefix=other + " ")
        same = [pk for pk, named, surname in rows if (fold(named), fold(surname)) in wanted]
        reached = _desk_reach(user, tournament, same)
        # A common name's namesakes are many: the first few say enough to ask.
        same = [pk for pk in same if pk in reached and pk not in found][:10]
        if same:
            found.update(
                (player.pk, player)
                for player in Player.objects.filter(pk__in=same).only(
                    "id", "first_name", "last_name", "document_number"
                )
            )
    return list(found.values())


# Every event role: a desk clerk, the floor and the TD search among their events' players.
STAFF_ROLES = frozenset(Role.values)


def player_search(query: str, *, user, limit: int = 20) -> list[Player]:
    """Players for the desk: those of the user's own events (entered there, added at
    their desks, or holding a satellite's seat ticket to one of them) whose name or
    document number matches every word typed, and whoever holds exactly the document
    number or seat ticket code typed (a returning player from another event shows his
    document). Every player for the room's manager; never a merged-away record."""
    exact = document_match(query)
    matching = Player.objects.filter(merged_into__isnull=True)  # a merged-away record: never
    for word in query.split()[:5]:
        matching = matching.filter(
            Q(last_name__icontains=word)
            | Q(first_name__icontains=word)
            | Q(document_number__iexact=word)
        )
    matching = matching.order_by("last_name", "first_name")
    if permissions.is_manager(user):  # the TD of every event: every player
        found = list(matching[:limit])
    else:
        # Entered in one of the user's events, or added at one of their desks: two
        # searches, each walking the names in order and stopping at `limit`. As one
        # (`entered OR added`) the database gathered every entry of the user's events
        # first: a 10,000-entry field read at every keystroke.
        # The user's events named by their ids, not joined: the database then knows how
        # many entries they hold (its statistics per event). Joined, it guessed an
        # average event's few hundred and gathered a 10,000-entry field at every
        # keystroke, in name order only after.
        mine = list(permissions.events_for(user, STAFF_ROLES).values_list("pk", flat=True))
        entered = Entry.objects.filter(player_id=OuterRef("pk"), tournament_id__in=mine)
        added = (
            Event.objects.filter(tournament_id__in=mine, action="player.create")
            .annotate(player_id=Cast(KeyTextTransform("player", "data"), BigIntegerField()))
            .values("player_id")
        )
        # A satellite's winner is a player of the event his ticket is for, whoever ran
        # the satellite.
        ticketed = SeatTicket.objects.filter(
            player_id=OuterRef("pk"), target_id__in=mine, voided=False
        )
        # The first `limit` of each, then the first `limit` of all in the database's
        # own order of names (its collation, not Python's).
        keys = [
            *matching.filter(Exists(entered)).values_list("pk", flat=True)[:limit],
            *matching.filter(pk__in=added).values_list("pk", flat=True)[:limit],
            *matching.filter(Exists(ticketed)).values_list("pk", flat=True)[:limit],
        ]
        found = list(matching.filter(pk__in=keys)[:limit]) if keys else []
    if exact is not None and exact.pk not in {p.pk for p in found}:
        found.insert(0, exact)
    return found


def document_match(query: str) -> Player | None:
    """The player whose document number, or seat ticket code, is exactly what was typed
    (case aside), if any."""
    number = query.strip()
    if not number:
        return None
    players = Player.objects.filter(merged_into__isnull=True)
    found = players.filter(document_number__iexact=number).first()
    if found is None and len(number.split()) == 1:
        # Ticket codes are stored in capitals: the code's own unique index answers.
        holder = SeatTicket.objects.filter(code=number.upper()).values("player_id")
        found = players.filter(pk__in=holder).first()
    return found
