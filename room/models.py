"""What the room app stores (the room-wide nouns above the events and the tables)."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

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
