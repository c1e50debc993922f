"""The event: tournaments, their structure, players, entries, staff and the event log."""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournaments.rules.names import search_text


class Game(models.TextChoices):
    NLHE = "nlhe", _("No-limit hold'em")
    PLO = "plo", _("Pot-limit Omaha")
    LHE = "lhe", _("Limit hold'em")


class AnteMode(models.TextChoices):
    NONE = "none", _("No ante")
    EACH_PLAYER = "each_player", _("Ante from each player")
    BIG_BLIND_ANTE = "big_blind_ante", _("Big-blind ante")


class DealInExclusion(models.TextChoices):
    BUTTON_TO_SB = "button_to_sb", _("Not between the button and the small blind (TDA)")
    BUTTON_TO_BB = "button_to_bb", _("Not between the button and the big blind (FIGP)")


class FinalTableRule(models.TextChoices):
    TDA_RP9 = "tda_rp9", _("The table size (TDA RP-9)")
    TDA2015_PLUS_ONE = "tda2015_plus_one", _("A full table plus one (TDA 2015)")
    FIGP = "figp", _("Ten, seven when six-handed (FIGP)")


def room_currency() -> str:
    """A new event's currency: the room's (settings.ROOM_CURRENCY)."""
    return settings.ROOM_CURRENCY


def room_city() -> str:
    """A new event's city: the room's (settings.ROOM_CITY)."""
    return settings.ROOM_CITY


def room_country() -> str:
    """A new event's country: the room's (settings.ROOM_COUNTRY)."""
    return settings.ROOM_COUNTRY


def validate_country(code: str) -> None:
    """An ISO 3166 alpha-2 code of a country (empty: not known)."""
    from django_countries import countries

    if code and code not in countries:
        raise ValidationError(_("Choose a country from the list."), code="invalid_country")


class Tournament(models.Model):
    class Status(models.TextChoices):
        PLANNED = "planned", _("Planned")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Category(models.TextChoices):
        """Who may play: the rankings tell open events from those for a selected audience."""

        OPEN = "open", pgettext_lazy("event category", "Open")
        LADIES = "ladies", pgettext_lazy("event category", "Ladies")
        SENIORS = "seniors", pgettext_lazy("event category", "Seniors")
        SATELLITE = "satellite", pgettext_lazy("event category", "Satellite")
        CHARITY = "charity", pgettext_lazy("event category", "Charity")
        TEAM = "team", pgettext_lazy("event category", "Team")
        STAFF = "staff", pgettext_lazy("event category", "Staff")

    slug = models.SlugField(_("address"), max_length=80, unique=True)
    name = models.CharField(_("name"), max_length=120)
    date = models.DateField(_("date"))
    venue = models.CharField(_("venue"), max_length=120, blank=True)
    # Where the venue is, for the rankings' results files (the room's by default).
    city = models.CharField(_("city"), max_length=80, blank=True, default=room_city)
    country = models.CharField(
        _("country"),
        max_length=2,
        blank=True,
        default=room_country,
        validators=[validate_country],
    )
    category = models.CharField(
        _("category"), max_length=10, choices=Category.choices, default=Category.OPEN
    )
    open_to_public = models.BooleanField(_("open to the public"), default=True)
    game = models.CharField(_("game"), max_length=8, choices=Game.choices, default=Game.NLHE)
    status = models.CharField(
        _("status"), max_length=10, choices=Status.choices, default=Status.PLANNED
    )
    currency = models.CharField(_("currency"), max_length=3, default=room_currency)
    buy_in_prize = models.PositiveIntegerField(_("buy-in: prize part"), default=100)
    buy_in_fee = models.PositiveIntegerField(_("buy-in: fee"), default=20)
    house_percent = models.DecimalField(
        _("house and dealer share of the prize part (%)"),
        max_digits=5,
        decimal_places=2,
        default=0,
    )
    guarantee = models.PositiveIntegerField(_("guaranteed prize pool"), default=0)
    added_money = models.PositiveIntegerField(_("added money"), default=0)
    starting_stack = models.PositiveIntegerField(_("starting stack"), default=30000)
    seats_per_table = models.PositiveSmallIntegerField(_("seats per table"), default=9)
    # The field the TD expects: the room plans the tables that seat it and draws every
    # registration over them from the first, so the field is balanced within one seat at
    # every moment and the start moves nobody (tournament.md §6.1). Empty: tables open
    # one at a time as they fill.
    expected_entries = models.PositiveIntegerField(
        _("expected players"),
        null=True,
        blank=True,
        help_text=_(
            "Empty: tables open one at a time as they fill. Given: the room plans the tables "
            "that seat them and draws every registration over those, balanced within one "
            "seat, so no seat card changes before the first hand."
        ),
    )
    late_registration_level = models.PositiveSmallIntegerField(
        _("late registration until the end of level"), null=True, blank=True
    )
    late_registration_through_break = models.BooleanField(
        _("late registration stays open through the following break"), default=False
    )
    reentry_allowed = models.BooleanField(_("re-entry allowed"), default=True)
    max_entries = models.PositiveSmallIntegerField(_("maximum entries per player"), default=2)
    reentry_forfeit_allowed = models.BooleanField(
        _("a player may forfeit his stack and re-enter"), default=False
    )
    rebuys_allowed = models.BooleanField(_("rebuys allowed"), default=False)
    rebuy_max = models.PositiveSmallIntegerField(_("rebuys per player"), default=0)
    rebuy_price = models.PositiveIntegerField(_("rebuy price"), default=0)
    rebuy_chips = models.PositiveIntegerField(_("rebuy chips"), default=0)
    rebuy_until_level = models.PositiveSmallIntegerField(
        _("rebuys until the end of level"), null=True, blank=True
    )
    rebuy_stack_threshold = models.PositiveIntegerField(
        _("rebuy only with a stack at or below"), null=True, blank=True
    )
    addon_allowed = models.BooleanField(_("add-on allowed"), default=False)
    addon_price = models.PositiveIntegerField(_("add-on price"), default=0)
    addon_chips = models.PositiveIntegerField(_("add-on chips"), default=0)
    addon_break_after_level = models.PositiveSmallIntegerField(
        _("add-on at the break after level"), null=True, blank=True
    )
    deal_in_exclusion = models.CharField(
        _("new players wait when seated"),
        max_length=16,
        choices=DealInExclusion.choices,
        default=DealInExclusion.BUTTON_TO_SB,
    )
    # Money and places (tournament.md §15-§16).
    same_hand_elimination_rule = models.CharField(
        _("several players out in one hand"),
        max_length=16,
        choices=[
            ("figp", _("FIGP: same table by starting stack, different tables share")),
            ("tda_share_all", _("TDA RP-8a: everyone out in a bubble hand shares")),
        ],
        default="figp",
    )
    tax_percent = models.DecimalField(
        _("taxes (% of the prize part)"), max_digits=5, decimal_places=2, default=0
    )
    tax_mode = models.CharField(
        _("taxes are applied"),
        max_length=20,
        choices=[
            ("after_house_share", _("after the house share")),
            ("on_gross", _("on the gross")),
        ],
        default="after_house_share",
    )
    payout_unit = models.PositiveIntegerField(_("round prizes to"), default=5)
    # The payout table, first place first (euros); empty until generated.
    payouts = models.JSONField(default=list, blank=True)
    # Multi-day events: a Day 1 flight is a tournament whose parent is the main event.
    parent = models.ForeignKey(
        "self",
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="flights",
        verbose_name=_("main event of this flight"),
    )
    day = models.PositiveSmallIntegerField(_("playing day"), default=1)
    flight_stack_rule = models.CharField(
        _("a player through several flights keeps"),
        max_length=12,
        choices=[("best", _("his biggest stack")), ("most_recent", _("his most recent stack"))],
        default="best",
    )
    redraw_rule = models.CharField(
        _("Day 2 seat draw"),
        max_length=12,
        choices=[("random", _("random")), ("spread", _("spread the big stacks"))],
        default="random",
    )
    balance_max_diff = models.PositiveSmallIntegerField(
        _("largest difference in players between tables"),
        choices=[(1, _("1 (003 Art.7.2)")), (2, _("2 (FIGP §52)"))],
        default=1,
    )
    final_table_rule = models.CharField(
        _("final table size"),
        max_length=20,
        choices=FinalTableRule.choices,
        default=FinalTableRule.TDA_RP9,
    )
    # Which table breaks next (tournament.md §9.2): by default the one that moves the
    # fewest players; the TD may follow his own list (the tables' break order).
    break_rule = models.CharField(
        _("which table breaks next"),
        max_length=8,
        choices=[
            ("fewest", _("the table with the fewest players (the fewest moves)")),
            ("list", _("my own order (the break order on the tables page)")),
        ],
        default="fewest",
    )
    auto_apply_moves = models.BooleanField(
        _("apply balancing moves and table breaks without asking the floor"), default=False
    )
    # Time calls (tournament.md §18): whose rules the floor's shot clock follows.
    time_call_profile = models.CharField(
        _("time calls follow"),
        max_length=10,
        choices=[
            (
                "tda2022",
                _("TDA 2022: 30 s, the last 5 counted; dead hand facing a bet, else check"),
            ),
            ("tda2015", _("TDA 2015: 50 s and a 10 s countdown; dead hand")),
            ("figp", _("FIGP: after 30 s, 60 s and a 10 s countdown; fold")),
            ("codice003", _("Codice 003: after 30 s, 60 s; fold")),
        ],
        default="tda2022",
    )
    # Event format (formats.md §3): bounties and satellites. Format money is integer
    # cents, because PKO halves and split bounties produce cents (formats.md §1.1).
    bounty_format = models.CharField(
        _("bounty format"),
        max_length=12,
        choices=[
            ("none", _("No bounties")),
            ("fixed", _("Knockout: a fixed bounty on every entry")),
            ("progressive", _("Progressive knockout (PKO)")),
            ("mystery", _("Mystery bounty")),
        ],
        default="none",
    )
    bounty_part_cents = models.PositiveIntegerField(_("buy-in: bounty part (cents)"), default=0)
    progressive_cash_percent = models.PositiveSmallIntegerField(
        _("PKO: share of a bounty paid in cash (%)"), default=50
    )
    bounty_unit_cents = models.PositiveIntegerField(
        _("bounties are paid in units of (cents)"), default=1
    )
    split_pot_bounty = models.CharField(
        _("a split pot's bounty"),
        max_length=16,
        choices=[
            ("split_equally", _("shared equally by the pot's winners")),
            ("largest_stack", _("all to the winner with the largest starting stack")),
        ],
        default="split_equally",
    )
    bounty_payout_timing = models.CharField(
        _("bounties are paid"),
        max_length=16,
        choices=[
            ("at_elimination", _("at the elimination")),
            ("at_end", _("with the final payout")),
        ],
        default="at_elimination",
    )
    deal_bounty_handling = models.CharField(
        _("bounties in a deal"),
        max_length=16,
        choices=[
            ("each_keeps_own", _("each player keeps his own bounty")),
            ("included", _("added to the money the deal divides")),
        ],
        default="each_keeps_own",
    )
    guarantee_scope = models.CharField(
        _("the guarantee covers"),
        max_length=12,
        choices=[
            ("total", _("prize pool and bounty pool together")),
            ("prize_pool", _("the prize pool only")),
        ],
        default="total",
    )
    stage_trigger_players = models.PositiveIntegerField(
        _("mystery bounties start at this many players"), null=True, blank=True
    )
    mystery_draw_timing = models.CharField(
        _("mystery draws"),
        max_length=10,
        choices=[("immediate", _("at each elimination")), ("batched", _("in draw sessions"))],
        default="immediate",
    )
    mystery_draw_method = models.CharField(
        _("mystery draw method"),
        max_length=10,
        choices=[
            ("physical", _("sealed envelopes drawn by hand")),
            ("electronic", _("electronic draw")),
        ],
        default="physical",
    )
    # Electronic draws (formats.md §10.8): the shuffled envelope codes and their SHA-256,
    # fixed before the first draw.
    mystery_permutation = models.JSONField(default=list, blank=True)
    mystery_fingerprint = models.CharField(max_length=64, blank=True)
    prize_type = models.CharField(
        _("prizes"),
        max_length=6,
        choices=[("cash", _("cash")), ("seats", _("seats in another event (satellite)"))],
        default="cash",
    )
    target_event = models.ForeignKey(
        "self",
        verbose_name=_("satellite to"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="satellites",
    )
    seat_value_cents = models.PositiveIntegerField(_("seat value (cents)"), null=True, blank=True)
    leftover_mode = models.CharField(
        _("the satellite leftover goes"),
        max_length=24,
        choices=[
            ("next_place", _("to the first player out after the seats")),
            ("next_places_in_units", _("in units to the next places")),
            ("split_seat_winners", _("split among the seat winners")),
        ],
        default="next_place",
    )
    leftover_unit_cents = models.PositiveIntegerField(
        _("leftover unit (cents)"), null=True, blank=True
    )
    guaranteed_seats = models.PositiveSmallIntegerField(_("guaranteed seats"), default=0)
    seat_tie_resolution = models.CharField(
        _("players tied across the last seat"),
        max_length=12,
        choices=[
            ("play_off", _("play off for the seat")),
            ("share_value", _("share the value of their places")),
            ("stack_order", _("the larger starting stack takes the seat")),
        ],
        default="play_off",
    )
    duplicate_seat_award = models.CharField(
        _("a player who already holds a seat gets"),
        max_length=6,
        choices=[("credit", _("a credit worth the seat")), ("cash", _("the seat's value in cash"))],
        default="credit",
    )
    seat_transferable = models.BooleanField(_("seats are transferable"), default=False)
    satellite_deals = models.CharField(
        _("deals in the satellite"),
        max_length=12,
        choices=[("not_allowed", _("not allowed")), ("td_approved", _("approved by the TD"))],
        default="not_allowed",
    )
    min_paid_applies_to_satellites = models.BooleanField(
        _("pay at least 10% of entrants in the satellite"), default=False
    )
    # The clock screens' sounds: the TD picks one for each moment.
    SOUNDS = [
        ("chime", _("Chime")),
        ("beep", _("Beep")),
        ("bell", _("Bell")),
        ("none", _("No sound")),
    ]
    sound_level_up = models.CharField(
        _("sound at a new level"), max_length=8, choices=SOUNDS, default="chime"
    )
    sound_one_minute = models.CharField(
        _("sound one minute before the end of a level"),
        max_length=8,
        choices=SOUNDS,
        default="beep",
    )
    sound_break_over = models.CharField(
        _("sound when a break ends"), max_length=8, choices=SOUNDS, default="bell"
    )
    # The public live-reporting feed (/api/v1/events/...) shows the event only once its TD
    # says so: the public pages show every event, but a feed is read by other sites.
    feed_public = models.BooleanField(
        _("publish the live feed"),
        default=False,
        help_text=_(
            "Live-reporting sites and streams may read the clock, counts, eliminations, "
            "payouts and featured hands at /api/v1/events/."
        ),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    # Clock state: stored, never ticked (DESIGN.md "State worth naming").
    clock_status = models.CharField(max_length=12, default="not_started")
    clock_index = models.PositiveSmallIntegerField(default=0)
    clock_started_at = models.DateTimeField(null=True, blank=True)
    clock_elapsed = models.FloatField(default=0)
    clock_scheduled_start = models.DateTimeField(null=True, blank=True)
    clock_version = models.PositiveIntegerField(default=0)
    # The last level boundary announced, claimed once per (version, item) with a
    # conditional UPDATE (STYLE.md 8): a task or a clock read that loses the race does
    # nothing.
    clock_announced_version = models.PositiveIntegerField(default=0)
    clock_announced_index = models.IntegerField(default=-1)
    # Hand-for-hand (tournament.md §14): hands started since it began, tables done with
    # the current hand.
    h4h_active = models.BooleanField(default=False)
    h4h_hands = models.PositiveIntegerField(default=0)
    h4h_tables_done = models.JSONField(default=list, blank=True)
    # End of day (tournament.md §17, FIGP §59): the card drawn and hands left per table.
    eod_card = models.CharField(max_length=3, blank=True)
    eod_remaining = models.JSONField(default=dict, blank=True)
    # Reservations from the public event page: off until the TD opens them; at most
    # `reservable_seats` held at once (the rest wait), each held until the level
    # `reservation_hold_level` begins, then released.
    reservations_open = models.BooleanField(_("players may reserve a seat"), default=False)
    reservable_seats = models.PositiveIntegerField(_("seats that may be reserved"), default=0)
    reservation_hold_level = models.PositiveSmallIntegerField(
        _("a reserved seat is held until this level starts"), default=2
    )

    class Meta:
        ordering = ["-date", "name"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    def __str__(self) -> str:
        return self.name

    @property
    def buy_in_total(self) -> int:
        return self.buy_in_prize + self.buy_in_fee


class FormerAddress(models.Model):
    """An address an event had before it moved (its slug follows its date): links to the
    old address, printed or shared, still reach it. No event takes a former address of
    another (`tournaments.services.setup`)."""

    slug = models.SlugField(_("address"), max_length=80, unique=True)
    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="former_addresses"
    )

    def __str__(self) -> str:
        return self.slug


class StructureItem(models.Model):
    """A level or a break, in play order."""

    class Kind(models.TextChoices):
        LEVEL = "level", _("Level")
        BREAK = "break", _("Break")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="items")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices, default=Kind.LEVEL)
    small_blind = models.PositiveIntegerField(default=0)
    big_blind = models.PositiveIntegerField(default=0)
    ante = models.PositiveIntegerField(default=0)
    ante_mode = models.CharField(max_length=16, choices=AnteMode.choices, default=AnteMode.NONE)
    minutes = models.PositiveSmallIntegerField(default=20)
    color_up = models.PositiveIntegerField(_("colour up this denomination"), null=True, blank=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "position"], name="item_position_unique"),
        ]

    def __str__(self) -> str:
        if self.kind == self.Kind.BREAK:
            return f"{self.position}: break {self.minutes}'"
        return f"{self.position}: {self.small_blind}/{self.big_blind} ({self.ante})"


class SearchTextField(models.CharField):
    """The player's names folded for the list's search (`names.search_text`), written
    from the names whenever the row is (also by bulk_create)."""

    def pre_save(self, model_instance: models.Model, add: bool) -> str:
        value = search_text(
            model_instance.last_name,  # type: ignore[attr-defined]
            model_instance.first_name,  # type: ignore[attr-defined]
            model_instance.nickname,  # type: ignore[attr-defined]
        )
        setattr(model_instance, self.attname, value)
        return value


class Player(models.Model):
    """A person, across tournaments."""

    first_name = models.CharField(_("first name"), max_length=60)
    last_name = models.CharField(_("last name"), max_length=60)
    document_number = models.CharField(_("document number"), max_length=40, blank=True)
    nationality = models.CharField(_("nationality"), max_length=60, blank=True)
    # The country the rankings list him under (ISO 3166 alpha-2), when known; the
    # nationality stays as the desk typed it.
    country = models.CharField(
        _("country"), max_length=2, blank=True, validators=[validate_country]
    )
    needs_accessible_seat = models.BooleanField(_("needs an accessible seat"), default=False)
    # The room's regulars: what the TD knows of a player beyond the desk.
    nickname = models.CharField(_("nickname"), max_length=60, blank=True)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    email = models.EmailField(_("email"), max_length=120, blank=True)
    # Phone and e-mail are kept only with the player's consent, and when he gave it.
    contact_consent = models.BooleanField(_("agrees to be contacted"), default=False)
    contact_consent_at = models.DateTimeField(null=True, blank=True)
    # Set when his reservations' no-shows reach the room's rule (`ReservationRules`).
    no_shows_flagged_at = models.DateTimeField(null=True, blank=True)
    notes = models.TextField(_("notes"), max_length=2000, blank=True)
    # A duplicate merged into another player keeps its row (the merge is undoable).
    merged_into = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="merged"
    )
    # Erased on request: the name is replaced and the personal data cleared.
    erased_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # Last name, first name and nickname folded (no accents, no case): the player list's
    # search reads one plain column rather than three through UPPER().
    search_name = SearchTextField(max_length=200, editable=False, default="")

    class Meta:
        ordering = ["last_name", "first_name"]
        indexes = [
            models.Index(fields=["last_name", "first_name"]),
            models.Index(fields=["document_number"]),
            # A document number as typed at the desk, case aside (`document_number__iexact`
            # compares the upper cases): found at once, not by reading every player.
            models.Index(Upper("document_number"), name="player_document_upper"),
            # The desk's duplicate check looks a new player's two names up among the whole
            # room's players, by equality or a prefix (a nickname follows): the pattern
            # operators let PostgreSQL's LIKE 'x%' use the index too.
            models.Index(
                fields=["search_name"],
                name="player_search_name",
                opclasses=["varchar_pattern_ops"],
            ),
        ]
        constraints = [
            models.UniqueConstraint(
                fields=["document_number"],
                condition=~Q(document_number=""),
                name="player_document_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.last_name} {self.first_name}".strip()

    def save(self, *args: Any, **kwargs: Any) -> None:
        fields = kwargs.get("update_fields")
        if fields is not None and {"last_name", "first_name", "nickname"} & set(fields):
            kwargs["update_fields"] = {*fields, "search_name"}
        super().save(*args, **kwargs)


class PaymentMethod(models.TextChoices):
    """How a sale was paid at the desk (the books of the night)."""

    CASH = "cash", _("Cash")
    CARD = "card", _("Card")
    VOUCHER = "voucher", _("Voucher")


class PlayerPhoto(models.Model):
    """A player's optional photo, apart from the player so that no list of
    players reads its bytes. Checked by its first bytes (JPEG, PNG or WebP) and kept small;
    no image library: it is shown as uploaded."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="photo")
    data = models.BinaryField()
    content_type = models.CharField(max_length=12)
    uploaded_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"photo of {self.player_id}"


class Entry(models.Model):
    """One buy-in of a player into a tournament (an entry or a re-entry)."""

    class Kind(models.TextChoices):
        ENTRY = "entry", _("Entry")
        REENTRY = "reentry", _("Re-entry")
        # A Day 1 flight survivor's stack brought into the main event (no money paid).
        CARRIED = "carried", _("Carried over from a flight")

    class Status(models.TextChoices):
        ACTIVE = "active", _("Playing")
        ELIMINATED = "eliminated", _("Eliminated")
        FORFEITED = "forfeited", _("Forfeited for a re-entry")
        VOIDED = "voided", _("Cancelled")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.ENTRY)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    chips = models.PositiveIntegerField(help_text="chips issued with the buy-in")
    chips_removed = models.PositiveIntegerField(default=0)
    # What the buy-in took: `paid` the prize part and fee (whole units), and the bounty
    # part in cents (formats.md §5.1), kept as sold whatever the settings become later.
    paid = models.PositiveIntegerField(default=0)
    paid_bounty_cents = models.PositiveIntegerField(default=0)
    place = models.PositiveIntegerField(null=True, blank=True)
    # A place shared with others in one hand runs from `place` to `place_last` (§15.2).
    place_last = models.PositiveIntegerField(null=True, blank=True)
    prize = models.PositiveIntegerField(default=0)
    # What a final-table deal gave him (counted in `prize` once he finishes).
    deal_amount = models.PositiveIntegerField(null=True, blank=True)
    elimination_reason = models.CharField(max_length=24, blank=True)
    disqualified = models.BooleanField(default=False)
    # The entry's bounty in cents (formats.md §4); empty: the starting bounty, untouched.
    bounty_cents = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)
    # The books: how the buy-in was paid and who sold it.
    payment_method = models.CharField(
        _("payment method"), max_length=8, choices=PaymentMethod.choices, default="cash"
    )
    clerk = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["number"]
        verbose_name_plural = "entries"
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="entry_number_unique"),
            # A player is never active twice in the same tournament.
            models.UniqueConstraint(
                fields=["tournament", "player"],
                condition=Q(status="active"),
                name="one_active_entry_per_player",
            ),
        ]
        indexes = [
            models.Index(fields=["tournament", "status"]),
            # The finished entries (results, payouts): a tenth of a field, read without
            # the nine tenths still playing.
            models.Index(
                fields=["tournament", "number"],
                condition=models.Q(place__isnull=False) | models.Q(disqualified=True),
                name="entry_finished",
            ),
            # The entries sold (`selectors.buy_ins`, the prize pool of every money page and
            # screen): counted from this index alone, not from every entry's row.
            models.Index(
                fields=["tournament"],
                condition=~models.Q(status="voided") & ~models.Q(kind="carried"),
                name="entry_bought",
            ),
            # The last busts, latest first (the eliminations page): read from the top of
            # this index, not by sorting every player out (a thousand at 10,000 entries,
            # nine thousand by the final table).
            models.Index(
                "tournament",
                models.F("ended_at").desc(),
                models.F("number").desc(),
                condition=models.Q(status="eliminated"),
                name="entry_recent_bust",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.player}"

    @property
    def paid_cents(self) -> int:
        """The whole buy-in paid, bounty part included, in cents."""
        return self.paid * 100 + self.paid_bounty_cents

    def paid_split(self) -> dict[str, int]:
        """What the buy-in paid into each part, in cents: prize pool, bounty, fee, total
        (formats.md §5.1). The fee is the event's, the prize part what is left of `paid`."""
        fee = min(self.tournament.buy_in_fee, self.paid) * 100
        return {
            "prize": self.paid * 100 - fee,
            "bounty": self.paid_bounty_cents,
            "fee": fee,
            "total": self.paid_cents,
        }


class EntryTally(models.Model):
    """A tournament's entries summed, as the screens' figures count them: kept by the
    database itself (triggers on every insert, change and delete of an entry, migration
    0017), so every write, undo, import and bulk update keeps it right. The clock screen
    and the money pages read one row here instead of summing every entry (10,000 of
    them on every figure in a big event).

    A voided entry counts nowhere; `buy_ins` leaves out the stacks carried over from a
    flight (no money paid). No row: the tournament has no entry yet (all zero)."""

    tournament = models.OneToOneField(
        Tournament, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    entries = models.IntegerField(default=0)
    active = models.IntegerField(default=0)
    chips = models.BigIntegerField(default=0)
    removed = models.BigIntegerField(default=0)
    buy_ins = models.IntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.entries} entries, {self.active} playing"


class Purchase(models.Model):
    """A rebuy or add-on bought on an entry."""

    class Kind(models.TextChoices):
        REBUY = "rebuy", _("Rebuy")
        ADDON = "addon", _("Add-on")

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="purchases")
    kind = models.CharField(max_length=5, choices=Kind.choices)
    price = models.PositiveIntegerField()
    chips = models.PositiveIntegerField()
    declared_before_hand = models.BooleanField(default=False)
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField()
    payment_method = models.CharField(
        _("payment method"), max_length=8, choices=PaymentMethod.choices, default="cash"
    )
    clerk = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # The one-time key of the desk's form that sold it: a rebuy is a deliberate repeat, so
    # only the key tells a second rebuy from the same one sent twice (a double click).
    key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["key"], condition=~models.Q(key=""), name="purchase_sold_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} {self.chips} on {self.entry_id}"


class CashRefund(models.Model):
    """Money given back at the desk: a voided sale's refund, with its reason and who."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="refunds")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="refunds")
    purchase = models.ForeignKey(
        Purchase, on_delete=models.CASCADE, null=True, blank=True, related_name="refunds"
    )
    amount = models.PositiveIntegerField(_("amount"))
    # The bounty part given back with a buy-in's refund, in cents (beside `amount`).
    bounty_cents = models.PositiveIntegerField(default=0)
    payment_method = models.CharField(
        _("payment method"), max_length=8, choices=PaymentMethod.choices, default="cash"
    )
    reason = models.CharField(_("reason"), max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField()

    class Meta:
        ordering = ["at", "pk"]
        # A sale is refunded once, whatever two tabs, a retry or a double click do: the
        # entry's own buy-in (no purchase) once, each rebuy or add-on once. Two conditions,
        # as a NULL purchase never equals another in a plain unique index.
        constraints = [
            models.UniqueConstraint(
                fields=["entry"], condition=Q(purchase__isnull=True), name="refund_entry_once"
            ),
            models.UniqueConstraint(
                fields=["purchase"],
                condition=Q(purchase__isnull=False),
                name="refund_purchase_once",
            ),
        ]

    def __str__(self) -> str:
        return f"refund {self.amount} on {self.entry_id}"


class NightClose(models.Model):
    """A closed night's books: after it, the night changes only by a recorded correction."""

    night = models.DateField(_("night"), unique=True)
    closed_at = models.DateTimeField()
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    totals = models.JSONField(default=dict)

    class Meta:
        ordering = ["-night"]

    def __str__(self) -> str:
        return f"night {self.night} closed"


class CashCorrection(models.Model):
    """A change to a closed night: money in (positive) or out (negative), why and who."""

    night = models.ForeignKey(NightClose, on_delete=models.CASCADE, related_name="corrections")
    tournament = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    amount = models.IntegerField(_("amount"))
    payment_method = models.CharField(
        _("payment method"), max_length=8, choices=PaymentMethod.choices, default="cash"
    )
    reason = models.CharField(_("reason"), max_length=200)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    at = models.DateTimeField()
    # The confirmation page's one-time key: a confirmation sent twice (a double click, two
    # tabs) records one correction.
    key = models.CharField(max_length=64, blank=True, default="")

    class Meta:
        ordering = ["at", "pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["night", "key"],
                condition=~models.Q(key=""),
                name="one_correction_per_confirmation",
            ),
        ]

    def __str__(self) -> str:
        return f"correction {self.amount} ({self.reason})"


class IdCheck(models.Model):
    """A photo ID checked for one playing day (FIGP §50, tournament.md §5.2)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="id_checks")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="id_checks")
    day = models.PositiveSmallIntegerField(default=1)
    checked_at = models.DateTimeField()
    checked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player", "day"], name="id_check_once"),
        ]

    def __str__(self) -> str:
        return f"ID {self.player_id} day {self.day}"


class Role(models.TextChoices):
    TD = "td", _("Tournament director")
    FLOOR = "floor", _("Floor")
    DESK = "desk", _("Registration desk")


class StaffAssignment(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="staff")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="assignments"
    )
    role = models.CharField(max_length=5, choices=Role.choices)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "user"], name="one_role_per_tournament"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} @ {self.tournament_id}"


class StaffPin(models.Model):
    """A staff account's short PIN for unlocking a dealer tablet (hashed like a password;
    tries are rate-limited). Only for accounts that cannot create tournaments."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff_pin"
    )
    pin_hash = models.CharField(max_length=128)
    set_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"PIN of {self.user_id}"


class DisplayScreen(models.Model):
    """A screen in the room, reached by a revocable secret link (no login)."""

    class Kind(models.TextChoices):
        CLOCK = "clock", _("Clock")
        SEATING = "seating", _("Seating board")
        TABLE = "table", _("Table tablet")
        OVERLAY = "overlay", _("Stream overlay")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="screens")
    name = models.CharField(_("name"), max_length=60)
    kind = models.CharField(_("kind"), max_length=8, choices=Kind.choices, default=Kind.CLOCK)
    table_number = models.PositiveIntegerField(_("table"), null=True, blank=True)
    token = models.UUIDField(default=uuid.uuid4, unique=True, editable=False)
    revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.name


class LoggedAction(models.Model):
    """One logged action: who, when, what, and enough to undo it (the tournament's log,
    `Event`, and the room's, `room.models.RoomEvent`)."""

    at = models.DateTimeField()
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    action = models.CharField(max_length=40)
    data = models.JSONField(default=dict)
    undoable = models.BooleanField(default=True)
    undone_at = models.DateTimeField(null=True, blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    undo_of = models.ForeignKey(
        "self", on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )

    class Meta:
        abstract = True
        ordering = ["-at", "-id"]

    def __str__(self) -> str:
        return f"{self.at:%H:%M:%S} {self.action}"


# The clock console's "recent" list: the clock's own actions among the log's (filter with
# exactly this condition, so that PostgreSQL reads the partial index below).
CONSOLE_ACTIONS = (
    models.Q(action__startswith="clock.")
    | models.Q(action__startswith="h4h.")
    | models.Q(action__startswith="eod.")
    | models.Q(action__startswith="timecall.")
)


class Event(LoggedAction):
    """One floor action of a tournament."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="events")

    class Meta(LoggedAction.Meta):
        # The log's own order (newest first, ties by id): a page of 50 out of 100,000 rows
        # reads 50 index entries, with no sort. The console's clock actions, in the same
        # order, have their own (partial) index: found among 100,000 registrations
        # without reading them.
        indexes = [
            models.Index(fields=["tournament", "-at", "-id"], name="event_log_order"),
            # The players added at an event's desk (the desk's search finds them there
            # before their first entry), among a season's hundred thousand rows.
            models.Index(
                fields=["tournament"],
                condition=Q(action="player.create"),
                name="event_player_created",
            ),
            models.Index(
                fields=["tournament", "-at", "-id"],
                condition=CONSOLE_ACTIONS,
                name="event_console_order",
            ),
        ]


class ChipDenomination(models.Model):
    """One chip of the tournament's chip set."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="denominations"
    )
    value = models.PositiveIntegerField(_("value"))
    colour = models.CharField(_("colour"), max_length=30, blank=True)
    in_starting_stack = models.PositiveIntegerField(_("chips in the starting stack"), default=0)
    retired = models.BooleanField(_("coloured up"), default=False)

    class Meta:
        ordering = ["value"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "value"], name="denomination_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.value} {self.colour}".strip()


class ChipAdjustment(models.Model):
    """A change to the chips in play that is not a buy-in (tournament.md §12.4 ledger)."""

    class Reason(models.TextChoices):
        CHIP_RACE = "chip_race", _("Chip race")
        COLOR_UP = "color_up", _("Colour-up remainder removed")
        DISQUALIFICATION = "disqualification", _("Disqualification")
        PENALTY_ELIMINATION = "penalty_elimination", _("Eliminated as a penalty")
        CONFISCATION = "confiscation", _("Chips confiscated")
        LOST_AND_FOUND = "lost_and_found", _("Lost and found")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="chip_adjustments"
    )
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, null=True, blank=True)
    amount = models.IntegerField(help_text="chips added (positive) or removed (negative)")
    reason = models.CharField(max_length=24, choices=Reason.choices)
    table = models.PositiveIntegerField(null=True, blank=True)
    data = models.JSONField(default=dict, blank=True)
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField()

    def __str__(self) -> str:
        return f"{self.reason} {self.amount:+d}"


class Deal(models.Model):
    """A deal among the last players: what each takes now and what is left to play for."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="deals")
    method = models.CharField(max_length=10)
    # [{"entry": pk, "stack": chips, "amount": euros}, ...]
    shares = models.JSONField(default=list)
    left_to_play_for = models.PositiveIntegerField(default=0)
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField()

    class Meta:
        # The same deal (the same players, stacks and amounts) is recorded once.
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "shares"], condition=Q(voided=False), name="deal_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} deal @ {self.tournament_id}"


class Penalty(models.Model):
    """A penalty on a player: independent of his seat, it follows him across tables and
    days (tournament.md §19.3)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="penalties")
    kind = models.CharField(max_length=20)
    offence = models.CharField(max_length=120, blank=True)
    rounds = models.PositiveSmallIntegerField(default=0)
    total_hands = models.PositiveIntegerField(default=0)
    served = models.PositiveIntegerField(default=0)
    day_given = models.PositiveSmallIntegerField(default=1)
    table_at_issue = models.PositiveIntegerField(null=True, blank=True)
    chips_removed = models.PositiveIntegerField(default=0)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    issued_at = models.DateTimeField()
    voided = models.BooleanField(default=False)

    class Meta:
        ordering = ["issued_at", "id"]

    def __str__(self) -> str:
        return f"{self.kind} {self.player_id}"

    @property
    def remaining(self) -> int:
        return max(0, self.total_hands - self.served)


class ChipCount(models.Model):
    """A stack counted: bagged at the end of a playing day, or counted at its table during
    play (`table` set: the floor's or the tablet's count). The day's last
    count is the one kept."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="chip_counts")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="chip_counts")
    day = models.PositiveSmallIntegerField(default=1)
    chips = models.PositiveIntegerField()
    bag = models.CharField(max_length=20, blank=True)
    table = models.PositiveIntegerField(null=True, blank=True)
    counted_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "day"], name="one_count_per_entry_day"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id} day {self.day}: {self.chips}"


class TimeCall(models.Model):
    """The floor called the clock on a seat (tournament.md §18): the grant runs from
    `called_at`; when it runs out with no action, the profile's ruling is recorded."""

    class Outcome(models.TextChoices):
        RUNNING = "running", _("Running")
        ACTED = "acted", _("Acted in time")
        CANCELLED = "cancelled", _("Cancelled")
        EXPIRED = "expired", _("Time ran out")

    class Ruling(models.TextChoices):
        DEAD_HAND = "dead_hand", _("Dead hand")
        CHECK = "check", _("Check")
        FOLD = "fold", _("Fold")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="time_calls")
    table_number = models.PositiveIntegerField(_("table"))
    seat_number = models.PositiveSmallIntegerField(_("seat"))
    entry = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="time_calls"
    )
    player_name = models.CharField(max_length=120, blank=True)
    called_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, related_name="+"
    )
    from_tablet = models.BooleanField(default=False)
    called_at = models.DateTimeField()
    profile = models.CharField(max_length=10)
    # The grant: seconds before the countdown plus the countdown, fixed when called.
    grant_seconds = models.PositiveSmallIntegerField()
    countdown_seconds = models.PositiveSmallIntegerField()
    facing_bet = models.BooleanField(_("facing a bet"), default=False)
    on_expiry = models.CharField(max_length=10, choices=Ruling.choices)
    rules = models.CharField(max_length=60, blank=True)
    outcome = models.CharField(max_length=10, choices=Outcome.choices, default=Outcome.RUNNING)
    # Filled when the time ran out: the profile's ruling (`on_expiry`).
    ruling = models.CharField(max_length=10, choices=Ruling.choices, blank=True)
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-called_at", "-id"]
        constraints = [
            # One clock at a time per table: only one player is to act.
            models.UniqueConstraint(
                fields=["tournament", "table_number"],
                condition=Q(outcome="running"),
                name="one_running_time_call_per_table",
            ),
        ]

    def __str__(self) -> str:
        return f"time call table {self.table_number} seat {self.seat_number}"

    @property
    def expires_at(self) -> datetime:
        return self.called_at + timedelta(seconds=self.grant_seconds)


class BountyAward(models.Model):
    """One winner's part of one eliminated entry's bounty (formats.md §4); append-only."""

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="bounty_awards"
    )
    event = models.ForeignKey(
        Event, on_delete=models.CASCADE, related_name="bounty_awards", null=True
    )
    eliminated = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    winner = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="bounty_awards")
    pot = models.PositiveSmallIntegerField(default=0)
    envelope = models.CharField(max_length=20, blank=True)  # mystery: the envelope drawn
    cash_cents = models.PositiveIntegerField(default=0)
    head_cents = models.PositiveIntegerField(default=0)  # PKO: added to his own bounty
    own_bounty = models.BooleanField(default=False)  # the winner's own bounty at the end
    # Nobody won his last chips (disqualified, eliminated as a sanction, stack forfeited):
    # the bounty goes to the prize pool (formats.md §6.6); `cash_cents` is that amount.
    to_prize_pool = models.BooleanField(default=False)
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["pk"]
        # An eliminated player's bounty pays each winner once (a forfeit and the winner's
        # own bounty are rows of the player himself: once as well).
        constraints = [
            models.UniqueConstraint(
                fields=["eliminated", "winner"],
                condition=Q(voided=False),
                name="bounty_paid_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.eliminated_id} -> {self.winner_id}: {self.cash_cents}"


class Envelope(models.Model):
    """A published mystery bounty (formats.md §10.2) and, once drawn, its draw."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="envelopes")
    code = models.CharField(_("envelope"), max_length=20)
    value_cents = models.PositiveIntegerField()
    drawn_for = models.ForeignKey(
        Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="+"
    )
    drawn_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["code"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "code"], name="envelope_code_unique")
        ]

    def __str__(self) -> str:
        return self.code


class SeatTicket(models.Model):
    """A satellite prize: a seat (or its value) for one player (formats.md §11.9-§11.10)."""

    class Kind(models.TextChoices):
        SEAT = "seat", _("seat")
        CREDIT = "credit", _("credit")
        CASH = "cash", _("cash")

    satellite = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="tickets")
    target = models.ForeignKey(
        Tournament, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seat_tickets")
    place = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=6, choices=Kind.choices, default=Kind.SEAT)
    amount_cents = models.PositiveIntegerField(default=0)
    code = models.CharField(max_length=12, unique=True)
    redeemed_entry = models.ForeignKey(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="+"
    )
    transferable = models.BooleanField(default=False)
    voided = models.BooleanField(default=False)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["place", "pk"]
        # A satellite awards a player's place once, a seat and its cash each (a tie across
        # the last seat may give one player both); an undone award's tickets are voided.
        constraints = [
            models.UniqueConstraint(
                fields=["satellite", "player", "place", "kind"],
                condition=Q(voided=False),
                name="satellite_ticket_once",
            ),
        ]

    def __str__(self) -> str:
        return self.code


class Reservation(models.Model):
    """A seat reserved from the public event page, the kiosk or the phone: held (within the
    event's `reservable_seats`), waiting (the list when they are full, promoted in order
    when a held one cancels), then arrived (the desk made it an entry), cancelled, or
    released when the hold level began (a no-show when it was held)."""

    class Status(models.TextChoices):
        HELD = "held", _("Seat held")
        WAITING = "waiting", _("Waiting list")
        ARRIVED = "arrived", _("Arrived")
        CANCELLED = "cancelled", _("Cancelled")
        RELEASED = "released", _("Released")

    tournament = models.ForeignKey(
        Tournament, on_delete=models.CASCADE, related_name="reservations"
    )
    # Known when reserved at the kiosk, found or created when he arrives or fails to.
    player = models.ForeignKey(
        Player, on_delete=models.SET_NULL, null=True, blank=True, related_name="reservations"
    )
    code = models.CharField(max_length=12, unique=True)
    first_name = models.CharField(_("first name"), max_length=60)
    last_name = models.CharField(_("last name"), max_length=60)
    phone = models.CharField(_("phone"), max_length=40, blank=True)
    email = models.EmailField(_("email"), max_length=120, blank=True)
    terms_accepted_at = models.DateTimeField()
    language = models.CharField(max_length=8, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.HELD)
    no_show = models.BooleanField(default=False)
    entry = models.OneToOneField(
        Entry, on_delete=models.SET_NULL, null=True, blank=True, related_name="reservation"
    )
    created_at = models.DateTimeField()
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["tournament", "status"])]

    def __str__(self) -> str:
        return f"{self.last_name} {self.first_name} ({self.code})"


class ReservationRules(models.Model):
    """The room's rule for no-shows (one row; the defaults until the manager saves it): a
    player whose held reservations lapsed `no_show_limit` times within `no_show_days` is
    flagged on his record."""

    no_show_limit = models.PositiveSmallIntegerField(_("no-shows that flag a player"), default=3)
    no_show_days = models.PositiveSmallIntegerField(_("within this many days"), default=60)

    def __str__(self) -> str:
        return f"{self.no_show_limit} in {self.no_show_days} days"


# --- the event's tables and seats, its rulings; the room's roles ------------------


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
        db_table = "tables_table"
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
        db_table = "tables_seat"
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
    rewritten, by any write at all (triggers, the tables app's migration 0008; a move to another table or
    seat keeps the order and the token). The board's page index is kept per token
    (`tournaments.selectors.seating_board`): a token is random, so one never comes back.

    On PostgreSQL the token is changed when the writing transaction commits (a deferred
    trigger: no lock on it meanwhile, so no desk waits on another's); a reader whose own
    transaction has written does not trust it. No row: the board is read whole."""

    tournament_id = models.BigIntegerField(primary_key=True)
    token = models.CharField(max_length=40)

    class Meta:
        db_table = "tables_seatboardversion"

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
        db_table = "tables_ruling"
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
        db_table = "tables_roomstaff"
        constraints = [
            models.UniqueConstraint(fields=["user", "role"], name="one_room_role_once"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} {self.role} @ room"
