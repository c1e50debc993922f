"""Reads for the results files the rankings take: the event's facts (field size, buy-in,
venue, category), its finishers with their names split and their countries, and the
tables of the three exports (Hendon Mob-style results, the GPI summary, a league's
FIGP-style ranking). The columns are documented in tournaments/README.md ("Results for
the rankings"); headers and words are in the reader's language. Read only."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from tournaments import selectors
from tournaments.models import Entry, Player, Tournament
from tournaments.rules import names, rankings
from tournaments.selectors.people import Table


def country_name(code: str) -> str:
    """A country's name in the active language, from its ISO code ("" for none)."""
    from django_countries import countries  # its names are read when an export is made

    return str(countries.name(code)) if code else ""


def _money(cents: int) -> Decimal:
    return (Decimal(cents) / 100).quantize(Decimal("0.01"))


def points_text(hundredths: int) -> Decimal:
    """League points, kept in hundredths (`tournaments.rules.leagues`), with their two decimals."""
    return (Decimal(hundredths) / 100).quantize(Decimal("0.01"))


def _yes_no(value: bool) -> str:
    return _("yes") if value else _("no")


def _family(tournament: Tournament) -> list[Tournament]:
    """The tournaments whose entries make this one's field: a main event and its Day 1
    flights, or a flight alone (as its prize pool counts them)."""
    if tournament.parent_id is not None:
        return [tournament]
    return selectors.tournament_family(tournament)


def field_size(tournament: Tournament) -> rankings.FieldSize:
    """Entries (re-entries count), the players behind them and the re-entries, across the
    event's flights; voided entries never count."""
    sold = (
        Entry.objects.filter(tournament__in=_family(tournament))
        .exclude(status=Entry.Status.VOIDED)
        .order_by()
        .values_list("player_id", "kind")
    )
    return rankings.field_size(sold)


@dataclass(frozen=True)
class EventFacts:
    name: str
    date: dt.date
    venue: str
    city: str
    country: str  # ISO code
    currency: str
    buy_in_cents: int  # what goes to the players: the prize part and any bounty part
    fee_cents: int
    field: rankings.FieldSize
    prize_pool_cents: int
    game: str  # in words
    category: str  # code
    open_to_public: bool
    gpi_qualifies: bool

    @property
    def buy_in_with_fee_cents(self) -> int:
        return self.buy_in_cents + self.fee_cents


def event_facts(tournament: Tournament) -> EventFacts:
    field = field_size(tournament)
    buy_in = tournament.buy_in_prize * 100 + tournament.bounty_part_cents
    fee = tournament.buy_in_fee * 100
    return EventFacts(
        name=tournament.name,
        date=tournament.date,
        venue=tournament.venue,
        city=tournament.city,
        country=tournament.country,
        currency=tournament.currency,
        buy_in_cents=buy_in,
        fee_cents=fee,
        field=field,
        prize_pool_cents=selectors.prize_pool(tournament).prize_pool * 100,
        game=str(tournament.get_game_display()),
        category=tournament.category,
        open_to_public=tournament.open_to_public,
        gpi_qualifies=rankings.gpi_qualifies(
            entries=field.entries,
            buy_in_cents=buy_in + fee,
            open_to_public=tournament.open_to_public,
            category=tournament.category,
            awards_seats=tournament.prize_type == "seats",
        ),
    )


@dataclass(frozen=True)
class Finisher:
    place: int | str  # "3-4" for a place shared in one hand
    first_name: str
    last_name: str
    country: str  # in words: the country's name, or the nationality as typed
    prize_cents: int
    deal: bool  # the prize was settled by a deal


def player_country(player: Player) -> str:
    """The player's country in words: his country's name when it is recorded, else his
    nationality as the desk typed it."""
    return country_name(player.country) or player.nationality


def finishers(tournament: Tournament) -> list[Finisher]:
    """Each player once, by his best finish (a re-entry's earlier busts are not listed),
    best place first; the disqualified are not listed (they have no place)."""
    keys = selectors.finished_keys(tournament, one_per_player=True)
    rows = []
    for entry in selectors.finished_entries(tournament, keys):
        first, last = names.name_parts(entry.player.first_name, entry.player.last_name)
        place: int | str = entry.place or ""
        if entry.place_last:
            place = f"{entry.place}-{entry.place_last}"
        rows.append(
            Finisher(
                place=place,
                first_name=first,
                last_name=last,
                country=player_country(entry.player),
                prize_cents=entry.prize * 100,
                deal=entry.deal_amount is not None,
            )
        )
    return rows


def category_label(code: str) -> str:
    return str(dict(Tournament.Category.choices).get(code, code))


# --- The exports ---------------------------------------------------------------------


def hendon_mob_table(tournament: Tournament) -> Table:
    """One row per place paid (the results its event pages list are the cashes), each
    carrying the event's fields too, so that the file reads alone (and the CSV and the
    spreadsheet hold the same rows)."""
    facts = event_facts(tournament)
    head = [
        _("Event"),
        _("Date"),
        _("Venue"),
        _("City"),
        _("Country"),
        _("Buy-in"),
        _("Fee"),
        _("Currency"),
        _("Entries"),
        _("Unique players"),
        _("Prize pool"),
        _("Game"),
        _("Place"),
        _("First name"),
        _("Last name"),
        _("Player's country"),
        _("Prize"),
        pgettext("results column", "Deal"),
    ]
    event: list[Any] = [
        facts.name,
        facts.date,
        facts.venue,
        facts.city,
        country_name(facts.country),
        _money(facts.buy_in_cents),
        _money(facts.fee_cents),
        facts.currency,
        facts.field.entries,
        facts.field.players,
        _money(facts.prize_pool_cents),
        facts.game,
    ]
    rows = [
        [
            *event,
            f.place,
            f.first_name,
            f.last_name,
            f.country,
            _money(f.prize_cents),
            _yes_no(f.deal),
        ]
        for f in finishers(tournament)
        if f.prize_cents > 0
    ]
    return head, rows


def gpi_table(tournament: Tournament) -> Table:
    """What the GPI's formula reads of each finish: the buy-in with its fee, the field, the
    place and the date, and whether the event counts at all (`rankings.gpi_qualifies`)."""
    facts = event_facts(tournament)
    head = [
        _("Event"),
        _("Date"),
        _("Category"),
        _("Open to the public"),
        _("Buy-in including fee"),
        _("Currency"),
        _("Field size"),
        _("Place"),
        _("First name"),
        _("Last name"),
        _("Player's country"),
        _("Prize"),
        _("Counts for the GPI"),
    ]
    rows = [
        [
            facts.name,
            facts.date,
            category_label(facts.category),
            _yes_no(facts.open_to_public),
            _money(facts.buy_in_with_fee_cents),
            facts.currency,
            facts.field.entries,
            f.place,
            f.first_name,
            f.last_name,
            f.country,
            _money(f.prize_cents) if f.prize_cents else None,  # a zero reads as owed
            _yes_no(facts.gpi_qualifies),
        ]
        for f in finishers(tournament)
    ]
    return head, rows


EXPORTS = {"hendon-mob": hendon_mob_table, "gpi": gpi_table}
