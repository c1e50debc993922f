"""The room's reads of its people and leagues: who may be the same person, a player's
history across the events and his data export, and a league's standings and ranking
(points computed on read by `tournaments.rules.leagues`). The event's own player list is
`tournaments.selectors.people`."""

from __future__ import annotations

import base64
from collections import defaultdict
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.utils.translation import gettext as _

from room.models import League
from tournaments.models import (
    BountyAward,
    Entry,
    IdCheck,
    Penalty,
    Player,
    PlayerPhoto,
    Reservation,
    Tournament,
)
from tournaments.rules import leagues, names
from tournaments.rules.names import fold
from tournaments.selectors.people import Table, place_text
from tournaments.selectors.rankings import player_country, points_text


def duplicates(players: QuerySet[Player]) -> list[list[Player]]:
    """Groups of players who may be one person: the same name in either order (accents
    and case ignored) or the same document number."""
    rows = list(
        players.filter(erased_at__isnull=True).only(
            "id", "first_name", "last_name", "nickname", "document_number"
        )
    )
    parent = {p.pk: p.pk for p in rows}

    def find(pk: int) -> int:
        while parent[pk] != pk:
            parent[pk] = parent[parent[pk]]
            pk = parent[pk]
        return pk

    keys: dict[tuple[str, ...], int] = {}
    for p in rows:
        names = tuple(sorted((fold(p.first_name), fold(p.last_name))))
        found = [("name", *names)]
        document = "".join(p.document_number.upper().split())
        if document:
            found.append(("document", document))
        for key in found:
            if key in keys:
                parent[find(p.pk)] = find(keys[key])
            else:
                keys[key] = p.pk
    groups: dict[int, list[Player]] = defaultdict(list)
    for p in rows:
        groups[find(p.pk)].append(p)
    return sorted(
        (sorted(g, key=lambda p: p.pk) for g in groups.values() if len(g) > 1),
        key=lambda g: (g[0].last_name.casefold(), g[0].first_name.casefold()),
    )


def _within(rows: QuerySet[Any], events: QuerySet[Tournament] | None) -> QuerySet[Any]:
    """`rows` of the events `events` only (None: of every event)."""
    return rows if events is None else rows.filter(tournament__in=events)


def player_history(player: Player, events: QuerySet[Tournament] | None = None) -> dict[str, Any]:
    """Entries (with places and prizes), league points and penalties, across the events
    `events` (None: every event)."""
    entries = list(
        _within(player.entries.exclude(status=Entry.Status.VOIDED), events)
        .select_related("tournament")
        .order_by("-tournament__date", "tournament__name", "number")
    )
    penalties = list(
        _within(Penalty.objects.filter(player=player, voided=False), events)
        .select_related("tournament")
        .order_by("-issued_at")
    )
    points: dict[int, list[tuple[League, int]]] = defaultdict(list)
    event_ids = {e.tournament_id for e in entries}
    for league in League.objects.filter(events__in=event_ids).distinct():
        for row in league_standings(league):
            if row.player == player.pk:
                for event, score in row.scores.items():
                    points[event].append((league, score))
    return {
        "entries": [
            {"entry": e, "points": points.get(e.tournament_id, []), "place": place_text(e)}
            for e in entries
        ],
        "penalties": penalties,
        "prizes": sum(e.prize for e in entries),
        "events": len(event_ids),
    }


def _photo(player: Player) -> dict[str, str] | None:
    photo = PlayerPhoto.objects.filter(player=player).first()
    if photo is None:
        return None
    return {"type": photo.content_type, "base64": base64.b64encode(photo.data).decode()}


def player_export(player: Player, events: QuerySet[Tournament] | None = None) -> dict[str, Any]:
    """What the room holds about a player (a data-access request), as JSON-ready data:
    his profile, and his entries, penalties and ID checks in the events `events` (None:
    every event, the whole record)."""
    entries = (
        _within(player.entries.all(), events).select_related("tournament").order_by("created_at")
    )
    return {
        "player": {
            "id": player.pk,
            "first_name": player.first_name,
            "last_name": player.last_name,
            "nickname": player.nickname,
            "document_number": player.document_number,
            "nationality": player.nationality,
            "country": player.country,
            "phone": player.phone,
            "email": player.email,
            "contact_consent": player.contact_consent,
            "contact_consent_at": player.contact_consent_at.isoformat()
            if player.contact_consent_at
            else None,
            "no_shows_flagged_at": player.no_shows_flagged_at.isoformat()
            if player.no_shows_flagged_at
            else None,
            "notes": player.notes,
            "needs_accessible_seat": player.needs_accessible_seat,
            "created_at": player.created_at.isoformat(),
            "erased_at": player.erased_at.isoformat() if player.erased_at else None,
            "photo": _photo(player),
        },
        "entries": [
            {
                "event": e.tournament.name,
                "date": e.tournament.date.isoformat(),
                "number": e.number,
                "kind": e.kind,
                "status": e.status,
                "paid": e.paid,
                "place": e.place,
                "prize": e.prize,
                "created_at": e.created_at.isoformat(),
            }
            for e in entries
        ],
        "penalties": [
            {
                "event": p.tournament.name,
                "kind": p.kind,
                "offence": p.offence,
                "issued_at": p.issued_at.isoformat(),
            }
            for p in _within(Penalty.objects.filter(player=player), events).select_related(
                "tournament"
            )
        ],
        "reservations": [
            {
                "event": r.tournament.name,
                "code": r.code,
                "name": f"{r.first_name} {r.last_name}",
                "phone": r.phone,
                "email": r.email,
                "terms_accepted_at": r.terms_accepted_at.isoformat(),
                "status": r.status,
                "no_show": r.no_show,
                "created_at": r.created_at.isoformat(),
            }
            for r in _within(Reservation.objects.filter(player=player), events).select_related(
                "tournament"
            )
        ],
        "id_checks": [
            {"event": c.tournament.name, "day": c.day, "checked_at": c.checked_at.isoformat()}
            for c in _within(IdCheck.objects.filter(player=player), events).select_related(
                "tournament"
            )
        ],
    }


def league_formula(league: League) -> leagues.Formula:
    return leagues.Formula(
        kind=league.formula,
        table=tuple(int(p) for p in league.points_table if isinstance(p, int) and p >= 0),
        base=league.base,
        participation=league.participation_points,
        bounty=league.bounty_points,
        best_n=league.best_n or None,
    )


def league_results(league: League) -> list[leagues.Result]:
    """Every player's results in the league's events, as they stand now (a place appears
    when it is recorded: the standings follow the results)."""
    tops = list(league.events.values_list("pk", flat=True))
    # A multi-day event counts once: its Day 1 flights' entries are its field.
    family = Tournament.objects.filter(Q(pk__in=tops) | Q(parent_id__in=tops))
    top_of = {pk: parent or pk for pk, parent in family.values_list("pk", "parent_id")}
    counted = (
        Entry.objects.filter(tournament__in=list(top_of))
        .exclude(status=Entry.Status.VOIDED)
        .exclude(kind=Entry.Kind.CARRIED)
    )
    sizes: dict[int, int] = defaultdict(int)
    for event, n in (
        counted.order_by()
        .values("tournament")
        .annotate(n=Count("pk"))
        .values_list("tournament", "n")
    ):
        sizes[top_of[event]] += n
    bounties: dict[tuple[int, int], int] = defaultdict(int)
    for player, event, n in (
        BountyAward.objects.filter(tournament__in=list(top_of), voided=False, own_bounty=False)
        .order_by()
        .values("winner__player", "tournament")
        .annotate(n=Count("eliminated", distinct=True))
        .values_list("winner__player", "tournament", "n")
    ):
        bounties[(player, top_of[event])] += n
    # Places are the main event's (a survivor's carried entry holds his final place).
    placed = Entry.objects.filter(tournament__in=list(top_of)).exclude(status=Entry.Status.VOIDED)
    return [
        leagues.Result(
            player=player,
            event=top_of[event],
            place=place,
            entries=sizes.get(top_of[event], 0),
            bounties=bounties.get((player, top_of[event]), 0),
            cashed=bool(prize or deal),
        )
        for player, event, place, prize, deal in placed.values_list(
            "player", "tournament", "place", "prize", "deal_amount"
        )
    ]


def league_standings(league: League) -> list[leagues.Standing]:
    return leagues.standings(
        league_formula(league), league_results(league), tie_break=league.tie_break
    )


def standings_rows(league: League) -> list[dict[str, Any]]:
    """The standings with the players' names (one query for the names)."""
    rows = league_standings(league)
    names = {p.pk: p for p in Player.objects.filter(pk__in=[r.player for r in rows])}
    return [
        {
            "rank": f"{r.rank}=" if r.shared else str(r.rank),
            "name": str(names[r.player]) if r.player in names else "?",
            "points": r.points,  # hundredths: the page and the CSV each write them
            "events": r.events,
            "wins": r.wins,
            "cashes": r.cashes,
            "best": r.best,
        }
        for r in rows
    ]


def standings_table(league: League) -> Table:
    head = [_("Rank"), _("Player"), _("Points"), _("Events"), _("Wins"), _("Cashes")]
    return head, [
        [
            r["rank"],
            r["name"],
            leagues.hundredths(r["points"]),
            r["events"],
            r["wins"],
            r["cashes"],
        ]
        for r in standings_rows(league)
    ]


def league_ranking_table(league: League) -> Table:
    """The league's standings as a federation's ranking lists them: rank, the player's
    names and country, his points in each event of the league (blank where he did not
    play) and his total (the best N results when the league counts only those). Players
    carry no federation card number: there is none on record to give."""
    standings = league_standings(league)
    events = list(league.events.order_by("date", "name", "pk"))
    players = Player.objects.in_bulk([s.player for s in standings])
    head = [
        _("Rank"),
        _("Last name"),
        _("First name"),
        _("Player's country"),
        *(f"{e.name} ({e.date.isoformat()})" for e in events),
        _("Total points"),
        _("Events"),
        _("Wins"),
        _("Cashes"),
    ]
    rows = []
    for s in standings:
        player = players.get(s.player)
        first, last = names.name_parts(player.first_name, player.last_name) if player else ("", "")
        rows.append(
            [
                f"{s.rank}=" if s.shared else s.rank,
                last,
                first,
                player_country(player) if player else "",
                *(points_text(s.scores[e.pk]) if e.pk in s.scores else None for e in events),
                points_text(s.points),
                s.events,
                s.wins,
                s.cashes,
            ]
        )
    return head, rows
