"""The room: tables and the seats players hold at them."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, LoggedAction, Role, Tournament


class Table(models.Model):
    class Status(models.TextChoices):
        RESERVE = "reserve", _("Not open yet")
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveIntegerField(_("number"))
    max_seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.RESERVE)
    opening_order = models.PositiveIntegerField(_("opening order"), default=0)
    break_order = models.PositiveIntegerField(_("break order"), default=0)
    accessible_seats = models.JSONField(_("accessible seats"), default=list, blank=True)
    reserved_seats = models.JSONField(_("reserved seats"), default=list, blank=True)
    # Seats the floor has taken out of play (broken chair, TD hold): never filled by a move.
    locked_seats = models.JSONField(_("locked seats"), default=list, blank=True)
    # The current (last dealt) hand's positions, as the tablet or the floor reported them;
    # None until someone tells us: the planner then asks rather than guesses (§8.3).
    button = models.PositiveSmallIntegerField(null=True, blank=True)
    sb = models.PositiveSmallIntegerField(null=True, blank=True)
    bb = models.PositiveSmallIntegerField(null=True, blank=True)
    button_dead = models.BooleanField(default=False)
    sb_dead = models.BooleanField(default=False)
    heads_up = models.BooleanField(default=False)
    hands = models.PositiveIntegerField(_("hands played"), default=0)
    hand_started_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_number_unique"),
        ]

    def __str__(self) -> str:
        return str(self.number)

    @property
    def positions_known(self) -> bool:
        return self.bb is not None and self.sb is not None and self.button is not None


class Seat(models.Model):
    """A player's seat. The constraints make a double booking impossible."""

    class DealtIn(models.TextChoices):
        NEXT_HAND = "next_hand", _("Dealt in at once")
        HAND_AFTER_NEXT = "hand_after_next", _("Waits for the button to pass")
        ASK_DEALER = (
            "ask_dealer",
            _("Dealt in at once unless the seat is between the button and the small blind"),
        )

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField()
    entry = models.OneToOneField(Entry, on_delete=models.CASCADE, related_name="seat")
    dealt_in = models.CharField(max_length=16, choices=DealtIn.choices, default=DealtIn.NEXT_HAND)
    assigned_at = models.DateTimeField()
    # A moved player holds the seat from the moment the move is applied; he has "arrived"
    # when the floor or the tablet confirms he sat down (tournament.md §8.6, §9.5).
    moved_from = models.CharField(max_length=16, blank=True)
    arrived = models.BooleanField(default=True)
    chips_carried_by = models.CharField(max_length=60, blank=True)

    class Meta:
        ordering = ["table__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_player_per_seat"),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.number}"


class Ruling(models.Model):
    """A floor ruling on one hand: the hand as the engine judged it, and the floor's note.

    `hand` is `tables.engine.Hand.to_dict()` (setup, settings, event log): replaying it
    gives back every step and the engine's answer to it.
    """

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rulings")
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    hand = models.JSONField()
    names = models.JSONField(_("players' names by seat"), default=dict, blank=True)
    note = models.TextField(_("decision"), blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"ruling {self.pk} table {self.table_number}"


class RoomStaff(models.Model):
    """A person's role in the room itself, outside any tournament: the cash games, the
    pit (blackjack, punto banco) and the room's ruling tools. Same names as the
    per-tournament roles (TD, floor, desk); a superuser is the room's TD."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="room_role"
    )
    role = models.CharField(_("role"), max_length=5, choices=Role.choices)

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} @ room"


class RoomEvent(LoggedAction):
    """One room-level action (cash room, pit): the room's counterpart of
    `tournaments.models.Event`."""

    class Meta(LoggedAction.Meta):
        indexes = [models.Index(fields=["-at"])]
