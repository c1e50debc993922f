"""The backup's format: one JSON document holding a whole tournament, and what it holds.

The document (`FORMAT`, `VERSION`)::

    {"format": "torneo-tournament", "version": 1, "exported_at": "...",
     "tournament": {...}, "flights": [{...}], "players": [{...}],
     "structure": [...], "tables": [...], "entries": [...], "seats": [...], ...,
     "events": [...]}

Every row carries every concrete field of its model (read from the model, so a field added
later is carried without touching this module) under the field's name; "id" is the row's
primary key on the exporting instance and only links rows inside the document. Foreign keys
hold those ids; foreign keys to users hold the username. Timestamps, clock state, versions,
numbers and the event log (payloads and times included) are kept exactly.

This module lists the document's sections in creation order, the models and fields it
leaves out (each with the reason) and where ids sit inside JSON fields; `backup_export`
writes the document, `backup_checks` reads and checks an uploaded one, `backup_import`
restores it into rows.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db import models

from tournaments.events import Ref
from tournaments.models import (
    BountyAward,
    CashCorrection,
    CashRefund,
    ChipAdjustment,
    ChipCount,
    ChipDenomination,
    Deal,
    DisplayScreen,
    Entry,
    EntryTally,
    Envelope,
    Event,
    FormerAddress,
    IdCheck,
    NightClose,
    Penalty,
    Player,
    PlayerPhoto,
    Purchase,
    Reservation,
    ReservationRules,
    RoomStaff,
    Ruling,
    Seat,
    SeatBoardVersion,
    SeatTicket,
    StaffAssignment,
    StaffPin,
    StructureItem,
    Table,
    TimeCall,
    Tournament,
)

FORMAT = "torneo-tournament"
VERSION = 1


@dataclass(frozen=True)
class Section:
    """One list of the document: a model's rows and the path from a row to its tournament."""

    key: str
    model: type[models.Model]
    owner: str


# Creation order: a row only points at rows of earlier sections (events come last: their
# payloads point at everything).
SECTIONS = (
    Section("structure", StructureItem, "tournament"),
    Section("tables", Table, "tournament"),
    Section("entries", Entry, "tournament"),
    Section("seats", Seat, "table__tournament"),
    Section("purchases", Purchase, "entry__tournament"),
    Section("id_checks", IdCheck, "tournament"),
    Section("staff", StaffAssignment, "tournament"),
    Section("screens", DisplayScreen, "tournament"),
    Section("denominations", ChipDenomination, "tournament"),
    Section("chip_adjustments", ChipAdjustment, "tournament"),
    Section("deals", Deal, "tournament"),
    Section("penalties", Penalty, "tournament"),
    Section("chip_counts", ChipCount, "tournament"),
    Section("rulings", Ruling, "tournament"),
    Section("time_calls", TimeCall, "tournament"),
    Section("events", Event, "tournament"),
    Section("envelopes", Envelope, "tournament"),
    Section("bounty_awards", BountyAward, "tournament"),
)

# Models of the tournaments app that are not in the document (the room's app keeps its own
# rows: none is part of an event), with the reason
# (a test fails for a model that is neither exported nor listed here).
EXCLUDED_MODELS: dict[type[models.Model], str] = {
    RoomStaff: "a room-level role, not part of any tournament",
    SeatTicket: "a satellite's seat links two events (possibly of other instances); the "
    "satellite's results and log keep who won, and the TD issues tickets again after import",
    EntryTally: "the database keeps it from the entries themselves, as they are imported",
}

# An event's old addresses belong to the room that served them: an imported event takes a
# new address of its own, and its old one here may be another event's by then.
EXCLUDED_MODELS[FormerAddress] = "the room's redirects from old addresses, not the event"

# The books of the night: money records stay where the money moved.
EXCLUDED_MODELS.update(
    dict.fromkeys(
        (CashRefund, NightClose, CashCorrection),
        "the night's books stay on the instance where the money moved",
    )
)
EXCLUDED_MODELS[StaffPin] = "a staff account's tablet PIN (a secret), not part of any tournament"
EXCLUDED_MODELS[Reservation] = (
    "a reservation holds the contact of someone who may never play; it stays in the room "
    "that took it (privacy)"
)
EXCLUDED_MODELS[ReservationRules] = "the room's no-show rule, not part of any tournament"
EXCLUDED_MODELS[PlayerPhoto] = "a player's photo stays in the room that took it (privacy)"
EXCLUDED_MODELS[SeatBoardVersion] = (
    "the seating board's version, which the database changes itself when the import seats "
    "the players"
)

# Fields left out of the document, with the reason.
EXCLUDED_FIELDS: dict[tuple[type[models.Model], str], str] = {
    (DisplayScreen, "token"): "a screen's secret link; the importing instance makes new ones",
    (Tournament, "target_event"): "a satellite's target is another event; the TD chooses "
    "it again on the importing instance",
    (Seat, "tournament"): "the seating board's copy of the table's tournament; the import "
    "fills it from the entry",
    (Seat, "board_last_name"): "the seating board's copy of the player's name (idem)",
    (Seat, "board_first_name"): "the seating board's copy of the player's name (idem)",
    (Player, "search_name"): "the player's names folded for the search; the import folds "
    "them again",
}

# Ids inside the JSON fields of exported models; every JSONField is listed (a test checks).
JSON_REFS: dict[tuple[type[models.Model], str], tuple[Ref, ...]] = {
    (Tournament, "payouts"): (),
    (Tournament, "h4h_tables_done"): (),  # table numbers
    (Tournament, "eod_remaining"): (),  # by table number
    (Tournament, "mystery_permutation"): (),  # envelope codes
    (Event, "data"): (),  # by action: PAYLOAD_REFS
    (ChipAdjustment, "data"): (),  # denominations and a note
    (Deal, "shares"): (("[].entry", Entry),),
    (Table, "accessible_seats"): (),
    (Table, "reserved_seats"): (),
    (Table, "locked_seats"): (),
    (Ruling, "hand"): (),  # the engine's hand: seats and chips
    (Ruling, "names"): (),  # by seat
}

_TOP_LEVEL = {"format", "version", "exported_at", "flight_of", "tournament", "flights", "players"}
_TOP_LEVEL |= {s.key for s in SECTIONS}


def exported_fields(model: type[models.Model]) -> list[models.Field]:
    """The model's concrete fields in the document (all but EXCLUDED_FIELDS)."""
    return [f for f in model._meta.concrete_fields if (model, f.name) not in EXCLUDED_FIELDS]


def _is_user(model_field: models.Field) -> bool:
    return model_field.is_relation and model_field.related_model is get_user_model()
