"""The room: tables and the seats players hold at them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entry, LoggedAction, Player, Tournament


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


def fill_board_keys(seats: Iterable[Seat]) -> None:
    """Give each seat its copies of the tournament and the player's name (the seating
    board's order, read from one index): from the entry and player the seat already
    holds, else one query for all those missing."""
    missing = []
    for seat in seats:
        if seat.tournament_id is not None:
            continue
        entry = seat._state.fields_cache.get("entry")
        player = entry._state.fields_cache.get("player") if entry is not None else None
        if entry is not None and player is not None:
            seat.tournament_id = entry.tournament_id
            seat.board_last_name, seat.board_first_name = player.last_name, player.first_name
        else:
            missing.append(seat)
    if not missing:
        return
    found = {
        pk: rest
        for pk, *rest in Entry.objects.filter(pk__in={s.entry_id for s in missing}).values_list(
            "pk", "tournament_id", "player__last_name", "player__first_name"
        )
    }
    for seat in missing:
        if seat.entry_id in found:
            seat.tournament_id, seat.board_last_name, seat.board_first_name = found[seat.entry_id]


class SeatQuerySet(models.QuerySet["Seat"]):
    def bulk_create(self, objs: Iterable[Seat], *args: Any, **kwargs: Any) -> list[Seat]:  # type: ignore[override]
        objs = list(objs)
        fill_board_keys(objs)
        return super().bulk_create(objs, *args, **kwargs)


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
    # Copies for the seating board (its pages and A-Z index read one index in its order,
    # whatever the field): the table's tournament, and the player's last and first name,
    # filled when the seat is written (`fill_board_keys`) and kept by the player's
    # rename, erasure and merge (services.people).
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="+", editable=False, db_index=False
    )
    board_last_name = models.CharField(max_length=60, editable=False)
    board_first_name = models.CharField(max_length=60, editable=False)

    objects = SeatQuerySet.as_manager()

    class Meta:
        ordering = ["table__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="one_player_per_seat"),
        ]
        indexes = [
            models.Index(
                fields=["tournament", "board_last_name", "board_first_name", "entry"],
                name="seat_board_order",
            )
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.number}"

    def save(self, *args: Any, **kwargs: Any) -> None:
        fill_board_keys([self])
        super().save(*args, **kwargs)


class SeatBoardVersion(models.Model):
    """A token the database changes whenever a tournament's seating board order may have
    changed: a seat taken or freed, or the copies of its player's name (or its entry)
    rewritten, by any write at all (triggers, migration 0008; a move to another table or
    seat keeps the order and the token). The board's page index is kept per token
    (`tournaments.selectors.seating_board`): a token is random, so one never comes back.

    On PostgreSQL the token is changed when the writing transaction commits (a deferred
    trigger: no lock on it meanwhile, so no desk waits on another's); a reader whose own
    transaction has written does not trust it. No row: the board is read whole."""

    tournament_id = models.BigIntegerField(primary_key=True)
    token = models.CharField(max_length=40)

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.token}"


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
    # Published by the floor as a featured hand: in the event's live feed from then on.
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"ruling {self.pk} table {self.table_number}"


class RoomRole(models.TextChoices):
    """The room's own roles, beside each event's (TD, floor, desk). A role over the room is
    not a role in any event, and an event's TD holds none of these by being one."""

    MANAGER = "manager", _("Room manager")
    BOOKS = "books", _("Cashier (books)")
    CASH = "cash", _("Cash-room floor")
    PIT = "pit", _("Pit supervisor")
    DEALER = "dealer", _("Dealer")


class RoomStaff(models.Model):
    """One room role held by one person (a person may hold several). A superuser holds
    every role but the dealer's; `is_staff` holds none."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="room_roles"
    )
    role = models.CharField(_("role"), max_length=8, choices=RoomRole.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "role"], name="one_room_role_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} @ room"


class RoomEvent(LoggedAction):
    """One room-level action (cash room, pit): the room's counterpart of
    `tournaments.models.Event`."""

    class Meta(LoggedAction.Meta):
        indexes = [models.Index(fields=["-at"])]


# --- the cash room (cash-room.md §14) ---------------------------------------------------


class CashRoom(models.Model):
    """The cash room's settings (one row): cash-room.md §3, defaults in tables.cash.settings.

    `overrides` holds any other setting of `CashSettings` by name (e.g. `sit_out_minutes`).
    """

    class NameFormat(models.TextChoices):
        FIRST_NAME = "first_name", _("First name and initial")
        INITIALS = "initials", _("Initials")

    public_name_format = models.CharField(
        _("names on the public board"),
        max_length=10,
        choices=NameFormat.choices,
        default=NameFormat.FIRST_NAME,
    )
    answer_minutes = models.PositiveSmallIntegerField(_("minutes to answer a call"), default=15)
    overrides = models.JSONField(_("other settings"), default=dict, blank=True)
    # The jackpots' rules (tables/cash/jackpots.md), by name: only what differs from the
    # spec's defaults, as `overrides` keeps the rest of the room's settings.
    jackpot_rules = models.JSONField(_("jackpot rules"), default=dict, blank=True)

    def __str__(self) -> str:
        return "cash room"


class CashGame(models.Model):
    """One catalogue entry: variant, structure, stakes, buy-ins and rake (§5)."""

    class Structure(models.TextChoices):
        NO_LIMIT = "no_limit", _("No-limit")
        POT_LIMIT = "pot_limit", _("Pot-limit")
        LIMIT = "limit", _("Limit")

    variant = models.CharField(_("variant"), max_length=20, default="Hold'em")
    structure = models.CharField(
        _("structure"), max_length=10, choices=Structure.choices, default=Structure.NO_LIMIT
    )
    sb = models.PositiveIntegerField(_("small blind"))
    bb = models.PositiveIntegerField(_("big blind"))
    min_buy_in = models.PositiveIntegerField(_("minimum buy-in"))
    max_buy_in = models.PositiveIntegerField(_("maximum buy-in"), null=True, blank=True)
    max_seats = models.PositiveSmallIntegerField(_("seats per table"), default=9)
    rake_percent = models.DecimalField(_("rake %"), max_digits=4, decimal_places=2, default=5)
    rake_cap = models.PositiveIntegerField(_("rake cap"), null=True, blank=True)
    active = models.BooleanField(_("in the catalogue"), default=True)

    class Meta:
        ordering = ["bb", "variant", "id"]

    def __str__(self) -> str:
        short = {"no_limit": "NL", "pot_limit": "PL", "limit": "L"}[self.structure]
        return f"{short} {self.variant} {self.sb}/{self.bb}"


class CashTable(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    game = models.ForeignKey(CashGame, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveIntegerField(_("table"))
    max_seats = models.PositiveSmallIntegerField(_("seats"), default=9)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    button = models.PositiveSmallIntegerField(null=True, blank=True)
    sb = models.PositiveSmallIntegerField(null=True, blank=True)
    bb = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(
                fields=["number"],
                condition=models.Q(status="open"),
                name="cash_open_table_number_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"T{self.number}"


class CashSeat(models.Model):
    """A player at a seat of a cash table (a "sitting", §14)."""

    class Status(models.TextChoices):
        NEW_PLAYER = "new_player", _("New player")
        SEAT_CHANGE = "seat_change", _("Seat change")
        MOVED_BY_HOUSE = "moved_by_house", _("Moved by the house")
        FROM_CLOSED_TABLE = "from_closed_table", _("From a closed table")

    class Request(models.TextChoices):
        NONE = "", _("No request")
        SEAT_CHANGE = "seat_change", _("Another seat at this table")
        MAIN_TABLE = "main_table", _("The main table")

    table = models.ForeignKey(CashTable, on_delete=models.CASCADE, related_name="seats")
    number = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="cash_seats")
    seated_at = models.DateTimeField()
    seated_order = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.NEW_PLAYER)
    buy_in = models.PositiveIntegerField(_("buy-in"), default=0)
    sit_out_until = models.DateTimeField(null=True, blank=True)
    sit_outs_today = models.PositiveSmallIntegerField(default=0)
    markers = models.PositiveSmallIntegerField(_("missed-blind markers"), default=0)
    short_buy_ins = models.PositiveSmallIntegerField(default=0)  # this session (§10.2)
    request = models.CharField(max_length=12, choices=Request.choices, default="", blank=True)

    class Meta:
        ordering = ["table__number", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="cash_one_player_per_seat"),
            models.UniqueConstraint(fields=["player"], name="cash_one_seat_per_player"),
        ]

    def __str__(self) -> str:
        return f"T{self.table_id}/{self.number}"


class PhoneLink(models.Model):
    """The key of a player's cash-room phone link: every link carries the version it was
    made with, so a new version (the floor's "new phone link") turns the earlier links off
    at once. No row: version 0."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="cash_phone_link")
    version = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"phone link {self.player_id} v{self.version}"


class WaitEntry(models.Model):
    """A name on a game's waiting list (§6). Lower `position` is nearer the top."""

    game = models.ForeignKey(CashGame, on_delete=models.CASCADE, related_name="waiting")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="cash_lists")
    position = models.IntegerField()
    joined_at = models.DateTimeField()
    called_at = models.DateTimeField(null=True, blank=True)
    called_table = models.PositiveIntegerField(null=True, blank=True)
    called_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    coming = models.BooleanField(default=False)  # answered: the seat is locked up (§6.4)
    # When his arrival window starts (§6.4 lock-up): when he answered "coming", or that
    # many minutes later when he answered he needs more (`waitlist.arrival_put_off`).
    coming_at = models.DateTimeField(null=True, blank=True)
    locked_out_until = models.DateTimeField(null=True, blank=True)
    from_closed_table = models.BooleanField(default=False)
    # A remote join (the room's `remote_joins`): not yet in the room; he must arrive by
    # then or he loses the place. None: present.
    arrive_by = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="cash_once_per_list"),
        ]

    def __str__(self) -> str:
        return f"{self.game_id}#{self.position} {self.player_id}"


class RakeRecord(models.Model):
    """One hand's rake at a cash table (§12.8), from the tablet or the floor."""

    table = models.ForeignKey(CashTable, on_delete=models.PROTECT, related_name="rake")
    game = models.ForeignKey(CashGame, on_delete=models.PROTECT, related_name="rake")
    at = models.DateTimeField()
    hand = models.PositiveIntegerField(_("hand"), default=0)
    # The dealer's account, and his name as it was then (kept if the account goes).
    dealer_account = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("dealer"),
    )
    dealer = models.CharField(_("dealer"), max_length=60, blank=True)
    shift = models.CharField(_("shift"), max_length=20, blank=True)
    flop_dealt = models.BooleanField(_("flop dealt"), default=True)
    pot = models.PositiveIntegerField(_("pot"))
    rake = models.PositiveIntegerField(_("rake"))
    rake_by_pot = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        # A hand of a table is raked once, whatever a double tap or two tablets do.
        constraints = [
            models.UniqueConstraint(
                fields=["table", "hand"], condition=models.Q(hand__gt=0), name="rake_once_per_hand"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table} {self.at:%H:%M} {self.rake}"


class KeepApart(models.Model):
    """Two players the house keeps at different tables (§6.7). Private: never on a screen."""

    player_a = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    player_b = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    reason = models.CharField(_("reason"), max_length=200, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player_a", "player_b"], name="cash_keep_apart_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player_a_id} / {self.player_b_id}"


class CashOut(models.Model):
    """A player's table stake when he left a game (§10.3: not back with less the same day)."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="cash_outs")
    game = models.ForeignKey(CashGame, on_delete=models.CASCADE, related_name="cash_outs")
    stack = models.PositiveIntegerField(_("stack"))
    at = models.DateTimeField()

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.player_id} {self.stack} @ {self.game_id}"


# --- the jackpots (tables/cash/jackpots.md) ----------------------------------------------


class JackpotKind(models.TextChoices):
    BAD_BEAT = "bad_beat", _("Bad-beat jackpot")
    HIGH_HAND = "high_hand", _("High hand")


class JackpotFund(models.Model):
    """The jackpots' money held for the players, in cents (one row): the prize on offer
    (`main`, from which the bad beat and the high hands are paid), the backup that becomes
    the prize when the main is emptied, and the share put aside for the jackpot after that
    (`next`). Changed only under its row lock (room.services.jackpots). `payments` counts
    every payment ever made from it, so a drop or a payment knows whether a later payment
    has used its money."""

    main_cents = models.BigIntegerField(default=0)
    backup_cents = models.BigIntegerField(default=0)
    next_cents = models.BigIntegerField(default=0)
    payments = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(main_cents__gte=0, backup_cents__gte=0, next_cents__gte=0),
                name="jackpot_fund_never_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"jackpot {self.main_cents}/{self.backup_cents}/{self.next_cents}"

    def parts(self) -> dict[str, int]:
        return {"main": self.main_cents, "backup": self.backup_cents, "next": self.next_cents}


class JackpotDrop(models.Model):
    """One raked hand's drop, in cents, taken from the pot besides the rake and held for
    the players, split into the fund's parts. One per hand: it belongs to the hand's rake
    record (itself one per hand), and goes with it."""

    rake = models.OneToOneField(RakeRecord, on_delete=models.CASCADE, related_name="jackpot_drop")
    at = models.DateTimeField()
    cents = models.PositiveIntegerField()
    main_cents = models.PositiveIntegerField(default=0)
    backup_cents = models.PositiveIntegerField(default=0)
    next_cents = models.PositiveIntegerField(default=0)
    # The fund's payment counter when the drop went in (JackpotFund.payments).
    seq = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"drop {self.cents} @ {self.rake_id}"


class JackpotClaim(models.Model):
    """A hand claimed for a jackpot, as the floor entered it, with the engine's judgement:
    a bad beat (the loser's and the winner's hole cards) or a high hand of a period. A bad
    beat is paid after two staff confirm it (the floor, then a manager); a period's high
    hand when the period is paid."""

    class Status(models.TextChoices):
        REFUSED = "refused", _("Refused")
        JUDGED = "judged", _("Qualifies: to confirm")
        CONFIRMED = "confirmed", _("Confirmed by the floor")
        PAID = "paid", _("Paid")

    kind = models.CharField(max_length=10, choices=JackpotKind.choices)
    at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    # Where it was played: a cash table, or a tournament's table when the room allows it.
    cash_table = models.ForeignKey(
        CashTable, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    table_number = models.PositiveIntegerField(_("table"))
    game = models.CharField(max_length=10)  # the rules' game: "holdem" | "omaha"
    board = models.JSONField(default=list)
    # Bad beat: {"loser": {"seat", "hole"}, "winner": {...}}; high hand: {"hand": {...}}.
    hands = models.JSONField(default=dict)
    players_dealt = models.PositiveSmallIntegerField(default=0)
    # The other seats dealt in (the table's share of a bad beat), and each seat's player
    # as the table had him when the claim was entered.
    other_seats = models.JSONField(default=list, blank=True)
    names = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices)
    reasons = models.JSONField(default=list, blank=True)
    loser_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    winner_rank = models.PositiveSmallIntegerField(null=True, blank=True)
    # A high hand's period, as the rules cut the day.
    period_start = models.DateTimeField(null=True, blank=True)
    period_end = models.DateTimeField(null=True, blank=True)
    floor_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    floor_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["kind", "period_start"])]

    def __str__(self) -> str:
        return f"{self.kind} T{self.table_number} {self.status}"


class JackpotPayment(models.Model):
    """A jackpot paid: a confirmed bad beat, or a period's high hand (ties split). Paid
    once: one payment per claim, one per high-hand period (database constraints). Its
    shares are the slips; `before` and `after` are the fund's parts around it, so its
    undo gives the fund back to the cent."""

    kind = models.CharField(max_length=10, choices=JackpotKind.choices)
    claim = models.OneToOneField(
        JackpotClaim, on_delete=models.PROTECT, null=True, blank=True, related_name="payment"
    )
    period_start = models.DateTimeField(null=True, blank=True)
    period_end = models.DateTimeField(null=True, blank=True)
    at = models.DateTimeField()
    paid_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    cents = models.PositiveBigIntegerField()
    # [{"role": "loser" | "winner" | "table" | "room" | "high_hand", "seat", "name",
    #   "table", "cents"}]: what each is handed (the room's share stays in the house).
    shares = models.JSONField(default=list)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    seq = models.PositiveIntegerField()  # the fund's payment counter this payment took

    class Meta:
        ordering = ["-at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["kind", "period_start"],
                condition=models.Q(period_start__isnull=False),
                name="jackpot_period_paid_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} paid {self.cents}"
