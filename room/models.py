"""What the room app stores (the room-wide nouns above the events and the tables)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import LoggedAction, Player, Tournament

# The games a dealer may deal (the keys of room.rules.dealers.GAMES), in words.
GAME_CHOICES = [
    ("holdem", _("Hold'em")),
    ("omaha", _("Omaha")),
    ("blackjack", _("Blackjack")),
    ("punto_banco", _("Punto banco")),
]


class PitTable(models.Model):
    """A table of the pit (blackjack or punto banco): it needs a croupier while open."""

    class Game(models.TextChoices):
        BLACKJACK = "blackjack", _("Blackjack")
        PUNTO_BANCO = "punto_banco", _("Punto banco")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        CLOSED = "closed", _("Closed")

    name = models.CharField(_("name"), max_length=40, unique=True)
    game = models.CharField(_("game"), max_length=12, choices=Game.choices)
    status = models.CharField(max_length=6, choices=Status.choices, default=Status.CLOSED)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class DealerRoom(models.Model):
    """The dealers' settings (one row): the rotation's lengths, the tables that keep their
    dealer (a TV table), and how the night's tips pool is split."""

    class TipsSplit(models.TextChoices):
        MINUTES = "minutes", _("By minutes on the box")
        SHIFTS = "shifts", _("Equal shares per shift")

    down_minutes = models.PositiveSmallIntegerField(_("minutes of a down"), default=30)
    break_minutes = models.PositiveSmallIntegerField(_("minutes of a break"), default=20)
    max_minutes_without_break = models.PositiveSmallIntegerField(
        _("most minutes on the box without a break"), default=120
    )
    keep_tables = models.JSONField(_("tables that keep their dealer"), default=list, blank=True)
    tips_split = models.CharField(
        _("tips split"), max_length=8, choices=TipsSplit.choices, default=TipsSplit.MINUTES
    )

    def __str__(self) -> str:
        return "dealers' settings"


class DealerProfile(models.Model):
    """A dealer of the room (an account holding the room's dealer role): the games he may
    deal and his shift's planned start and end (the room's wall clock)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="dealer_profile"
    )
    games = models.JSONField(_("games"), default=list)
    shift_start = models.TimeField(_("shift starts"))
    shift_end = models.TimeField(_("shift ends"))

    def __str__(self) -> str:
        return f"dealer {self.user_id}"


class DealerShift(models.Model):
    """One shift a dealer worked: clocked in with his PIN, clocked out (or still on)."""

    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dealer_shifts"
    )
    night = models.DateField(_("night"))
    clock_in = models.DateTimeField(_("clock in"))
    clock_out = models.DateTimeField(_("clock out"), null=True, blank=True)
    late_minutes = models.PositiveIntegerField(_("minutes late"), default=0)

    class Meta:
        ordering = ["clock_in", "id"]
        constraints = [
            # Two taps on the clock at once still make one shift.
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(clock_out__isnull=True), name="one_open_shift"
            ),
        ]
        indexes = [models.Index(fields=["night"])]

    def __str__(self) -> str:
        return f"shift of {self.dealer_id} from {self.clock_in:%H:%M}"

    @property
    def late(self) -> bool:
        return self.late_minutes > 0


class DealerAssignment(models.Model):
    """Where a dealer was from one time to another: at a table (its key, as the rotation
    rules name it) or on a break (no table). The open one has no `ended_at`."""

    shift = models.ForeignKey(DealerShift, on_delete=models.CASCADE, related_name="assignments")
    dealer = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="dealer_assignments"
    )
    table_key = models.CharField(max_length=40, blank=True)  # "" = on a break
    table_label = models.CharField(max_length=120, blank=True)  # the table in words, kept
    game = models.CharField(max_length=12, blank=True)
    started_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    break_until = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["started_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["dealer"], condition=Q(ended_at__isnull=True), name="one_place_a_dealer"
            ),
            models.UniqueConstraint(
                fields=["table_key"],
                condition=Q(ended_at__isnull=True) & ~Q(table_key=""),
                name="one_dealer_a_table",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.dealer_id} at {self.table_key or 'break'}"

    @property
    def on_break(self) -> bool:
        return not self.table_key


class TipsPool(models.Model):
    """The night's tips pool (the tronc), in cents, split among the night's shifts."""

    night = models.DateField(_("night"), unique=True)
    amount = models.PositiveBigIntegerField(_("tips (cents)"))
    split = models.CharField(max_length=8, choices=DealerRoom.TipsSplit.choices)
    entered_at = models.DateTimeField()
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    def __str__(self) -> str:
        return f"tips of {self.night}"


class Kiosk(models.Model):
    """A self-service screen on a stand, reached like a display screen: by a revocable
    secret link that the manager opens once on the device. It holds no staff rights."""

    name = models.CharField(_("name"), max_length=60)
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class PushSubscription(models.Model):
    """A phone's Web Push subscription, made by the player on his phone page: his consent
    to be notified there. Gone when he unsubscribes, when the push service says the
    subscription has ended, and with the player's data (an erasure deletes it)."""

    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="push_subscriptions"
    )
    # The push service's address for this browser: one subscription a browser, so the same
    # phone opting in again replaces its row.
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    consented_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"push {self.player_id} {self.endpoint[:40]}"


class EmailOptIn(models.Model):
    """A player's consent to be notified by e-mail at an address he gave for it (only where
    the room configures a mail server). Kept only while he wants it: every e-mail carries a
    one-tap unsubscribe link, and an erasure deletes it."""

    player = models.ForeignKey(
        "tournaments.Player", on_delete=models.CASCADE, related_name="email_opt_ins"
    )
    email = models.EmailField(_("e-mail"))
    # The address he opted in at: the e-mails' links lead back to it.
    base_url = models.URLField(max_length=300)
    language = models.CharField(max_length=8, choices=settings.LANGUAGES)
    consented_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["player", "email"], name="email_opt_in_once"),
        ]

    def __str__(self) -> str:
        return f"e-mail {self.player_id}"


# --- the leagues: a season's events and their points ----------------------------------


class League(models.Model):
    """A season's series of events and how their results make points;
    the formula's math is `tournaments.rules.leagues` (pure)."""

    class Formula(models.TextChoices):
        TABLE = "table", _("Fixed points by place")
        FIELD_SIZE = "field_size", _("Field size: base x sqrt(entries / place)")

    class TieBreak(models.TextChoices):
        BEST_RESULT = "best_result", _("Best single result, then more wins, then fewer events")
        MORE_WINS = "more_wins", _("More wins, then more cashes, then fewer events")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    season = models.CharField(_("season"), max_length=40, blank=True)
    formula = models.CharField(
        _("points formula"), max_length=12, choices=Formula.choices, default=Formula.TABLE
    )
    # Points for places 1, 2, 3, ... (the fixed table).
    points_table = models.JSONField(_("points by place"), default=list, blank=True)
    base = models.PositiveIntegerField(_("base points (field-size formula)"), default=10)
    participation_points = models.PositiveIntegerField(_("points for playing"), default=0)
    bounty_points = models.PositiveIntegerField(_("points per bounty won"), default=0)
    best_n = models.PositiveSmallIntegerField(
        _("count only the best N results (empty: all)"), null=True, blank=True
    )
    tie_break = models.CharField(
        _("ties broken by"), max_length=12, choices=TieBreak.choices, default=TieBreak.BEST_RESULT
    )
    public = models.BooleanField(_("standings are public"), default=True)
    events = models.ManyToManyField(
        Tournament, related_name="leagues", blank=True, verbose_name=_("events")
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    created_at = models.DateTimeField()

    class Meta:
        db_table = "tournaments_league"
        ordering = ["-created_at", "name"]

    def __str__(self) -> str:
        return self.name


# --- the room's log ----------------------------------------------------------------


class RoomEvent(LoggedAction):
    """One room-level action (cash room, pit): the room's counterpart of
    `tournaments.models.Event`."""

    class Meta(LoggedAction.Meta):
        db_table = "tables_roomevent"
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

    class Meta:
        db_table = "tables_cashroom"

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
        db_table = "tables_cashgame"
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
        db_table = "tables_cashtable"
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
        db_table = "tables_cashseat"
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

    class Meta:
        db_table = "tables_phonelink"

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
        db_table = "tables_waitentry"
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
        db_table = "tables_rakerecord"
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
        db_table = "tables_keepapart"
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
        db_table = "tables_cashout"
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
        db_table = "tables_jackpotfund"
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
        db_table = "tables_jackpotdrop"
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
        db_table = "tables_jackpotclaim"
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
        db_table = "tables_jackpotpayment"
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
