"""What the floor and the manager type about the jackpots: the rules set in advance, a
claimed bad beat, a high hand, a period to pay (bad input: a message, nothing changed)."""

from __future__ import annotations

import datetime as dt
import re
from decimal import Decimal
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from room.models import CashTable
from room.selectors.jackpots import DEFAULTS, JackpotSettings
from room.services.jackpots import Where
from tables.cash.jackpot import (
    BadBeatRule,
    ClaimedHand,
    DropRule,
    FundShares,
    HighHandRule,
    hand_rank,
)
from tables.engine.cards import parse_cards, split_concatenated
from tables.engine.errors import InvalidCards
from tables.ruling.labels import ENGINE_ERRORS
from tournaments.forms.fields import DecimalNumberField, WholeNumberField, whole_number
from tournaments.models import Table

GAMES = [("holdem", "Hold'em"), ("omaha", "Omaha")]
PERIODS = [("hour", _("every hour")), ("shift", _("every shift")), ("day", _("every day"))]
HAND_HELP = _(
    "Five ranks, e.g. AAATT for aces full of tens, KKKK2 for four kings, AKQJTs for a royal "
    "flush (s: one suit)."
)


def _euros(label: Any, **kwargs: Any) -> DecimalNumberField:
    return DecimalNumberField(
        label=label, min_value=Decimal(0), max_value=Decimal(100_000), decimal_places=2, **kwargs
    )


def _per_mille(label: Any) -> forms.IntegerField:
    return WholeNumberField(label=label, min_value=0, max_value=1000)


def _shown(field: forms.Field, value: Any) -> str:
    """A default as the manager reads it: the choice's words, yes or no, none."""
    if isinstance(field, forms.BooleanField):
        return str(_("yes") if value else _("no"))
    if value is None:
        return str(_("none"))
    choices = dict(getattr(field, "choices", ()))
    if isinstance(value, list):
        return ", ".join(str(choices.get(v, v)) for v in value)
    return str(choices.get(value, value))


def _cents(value: Decimal | None) -> int | None:
    return None if value is None else int(value * 100)


class JackpotSettingsForm(forms.Form):
    """The jackpot rules (tables/cash/jackpots.md), each starting at the spec's default."""

    drop_kind = forms.ChoiceField(
        label=_("Drop"),
        choices=[("fixed", _("a fixed amount per pot")), ("share", _("a share of the pot"))],
    )
    drop_fixed = _euros(_("Fixed drop (€)"))
    drop_share = _per_mille(_("Share of the pot (‰)"))
    drop_min_pot = _euros(_("Smallest pot that drops (€)"))
    drop_cap = _euros(_("Largest drop of a hand (€; empty: no cap)"), required=False)
    drop_flop_required = forms.BooleanField(label=_("Only when a flop is dealt"), required=False)
    drop_games = forms.MultipleChoiceField(
        label=_("Games that drop"), choices=GAMES, widget=forms.CheckboxSelectMultiple
    )
    fund_main = _per_mille(_("To the jackpot on offer (‰)"))
    fund_backup = _per_mille(_("To the backup: the next jackpot's start (‰)"))
    fund_next = _per_mille(_("Set aside for the jackpot after (‰)"))
    bad_min_hand = forms.CharField(
        label=_("Weakest losing hand of a bad beat"), max_length=6, help_text=HAND_HELP
    )
    bad_both_cards = forms.BooleanField(
        label=_("Both of the loser's hole cards must play"), required=False
    )
    bad_min_players = WholeNumberField(
        label=_("Fewest players dealt in"), min_value=2, max_value=10
    )
    bad_winner_qualifies = forms.BooleanField(
        label=_("The winning hand must qualify too"), required=False
    )
    bad_loser = _per_mille(_("Share of the loser (‰)"))
    bad_winner = _per_mille(_("Share of the winner (‰)"))
    bad_table = _per_mille(_("Share of the rest of the table (‰)"))
    bad_room = _per_mille(_("Share of the room (‰)"))
    tournament_claims = forms.BooleanField(
        label=_("Bad beats at tournament tables may be claimed"), required=False
    )
    high_period = forms.ChoiceField(label=_("High hand paid"), choices=PERIODS)
    high_min_hand = forms.CharField(label=_("Weakest high hand"), max_length=6, help_text=HAND_HELP)
    high_both_cards = forms.BooleanField(label=_("Both hole cards must play"), required=False)
    high_prize = _euros(_("High-hand prize (€; empty: the whole jackpot on offer)"), required=False)

    SECTIONS = (
        (_("The drop"), ("drop_kind", "drop_fixed", "drop_share", "drop_min_pot", "drop_cap")),
        (None, ("drop_flop_required", "drop_games")),
        (_("The funds"), ("fund_main", "fund_backup", "fund_next")),
        (
            _("Bad beat"),
            ("bad_min_hand", "bad_both_cards", "bad_min_players", "bad_winner_qualifies"),
        ),
        (None, ("bad_loser", "bad_winner", "bad_table", "bad_room", "tournament_claims")),
        (_("High hand"), ("high_period", "high_min_hand", "high_both_cards", "high_prize")),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name, value in self.initial_from(DEFAULTS).items():
            shown = _shown(self.fields[name], value)
            spec = _("Spec: %(value)s") % {"value": shown}
            field = self.fields[name]
            field.help_text = f"{field.help_text} {spec}" if field.help_text else spec

    def sections(self) -> list[tuple[Any, list[forms.BoundField]]]:
        out: list[tuple[Any, list[forms.BoundField]]] = []
        for title, names in self.SECTIONS:
            if title is None and out:
                out[-1][1].extend(self[n] for n in names)
            else:
                out.append((title, [self[n] for n in names]))
        return out

    @staticmethod
    def initial_from(settings: JackpotSettings) -> dict[str, Any]:
        drop, funds = settings.drop, settings.shares
        bad, high = settings.bad_beat, settings.high_hand

        def euros(cents: int | None) -> Decimal | None:
            return None if cents is None else Decimal(cents) / 100

        return {
            "drop_kind": drop.kind,
            "drop_fixed": euros(drop.fixed_cents),
            "drop_share": drop.share_per_mille,
            "drop_min_pot": euros(drop.min_pot_cents),
            "drop_cap": euros(drop.cap_cents),
            "drop_flop_required": drop.flop_required,
            "drop_games": sorted(drop.games),
            "fund_main": funds.main,
            "fund_backup": funds.backup,
            "fund_next": funds.next,
            "bad_min_hand": bad.min_losing_hand,
            "bad_both_cards": bad.both_hole_cards_play,
            "bad_min_players": bad.min_players_dealt,
            "bad_winner_qualifies": bad.winner_must_qualify,
            "bad_loser": bad.share_loser,
            "bad_winner": bad.share_winner,
            "bad_table": bad.share_table,
            "bad_room": bad.share_room,
            "tournament_claims": settings.tournament_claims,
            "high_period": high.period,
            "high_min_hand": high.min_hand,
            "high_both_cards": high.both_hole_cards_play,
            "high_prize": euros(high.prize_cents),
        }

    def _hand(self, name: str) -> str:
        value = self.cleaned_data[name].strip()
        try:
            hand_rank(value)
        except ValueError:
            raise forms.ValidationError(
                _("Write a hand as five ranks, e.g. AAATT or KKKK2.")
            ) from None
        return value.upper() if len(value) == 5 else value[:5].upper() + "s"

    def clean_bad_min_hand(self) -> str:
        return self._hand("bad_min_hand")

    def clean_high_min_hand(self) -> str:
        return self._hand("high_min_hand")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        funds = (data["fund_main"], data["fund_backup"], data["fund_next"])
        if sum(funds) != 1000:
            raise forms.ValidationError(_("The funds' shares must add up to 1000 ‰."))
        bad = (data["bad_loser"], data["bad_winner"], data["bad_table"], data["bad_room"])
        if sum(bad) != 1000:
            raise forms.ValidationError(_("The bad beat's shares must add up to 1000 ‰."))
        self.settings = JackpotSettings(
            drop=DropRule(
                data["drop_kind"],
                fixed_cents=_cents(data["drop_fixed"]) or 0,
                share_per_mille=data["drop_share"],
                min_pot_cents=_cents(data["drop_min_pot"]) or 0,
                cap_cents=_cents(data["drop_cap"]),
                flop_required=data["drop_flop_required"],
                games=frozenset(data["drop_games"]),
            ),
            shares=FundShares(*funds),
            bad_beat=BadBeatRule(
                min_losing_hand=data["bad_min_hand"],
                both_hole_cards_play=data["bad_both_cards"],
                min_players_dealt=data["bad_min_players"],
                winner_must_qualify=data["bad_winner_qualifies"],
                share_loser=bad[0],
                share_winner=bad[1],
                share_table=bad[2],
                share_room=bad[3],
            ),
            high_hand=HighHandRule(
                period=data["high_period"],
                min_hand=data["high_min_hand"],
                both_hole_cards_play=data["high_both_cards"],
                prize_cents=_cents(data["high_prize"]),
            ),
            tournament_claims=data["tournament_claims"],
        )
        return data


# --- a claimed hand -------------------------------------------------------------------------

CARDS_WORDS = ENGINE_ERRORS[InvalidCards]


def read_cards(text: str) -> tuple[str, ...]:
    """Cards as the floor types them: "Ah Kd", "AhKd", "ah,kd"; canonical, each once."""
    tokens: list[str] = []
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        tokens.extend(split_concatenated(token) if len(token) > 3 else (token,))
    return parse_cards(tokens)


def _cards_field(label: Any, placeholder: str) -> forms.CharField:
    return forms.CharField(
        label=label, max_length=40, widget=forms.TextInput(attrs={"placeholder": placeholder})
    )


def _seat_field(label: Any) -> forms.IntegerField:
    return WholeNumberField(label=label, min_value=1, max_value=10)


def table_choices(tournament_claims: bool) -> list[tuple[str, str]]:
    """The open cash tables, and the open tournament tables of today when the room takes
    claims there."""
    choices = [
        (f"c{t.pk}", str(_("Cash table %(n)s · %(game)s") % {"n": t.number, "game": t.game}))
        for t in CashTable.objects.filter(status=CashTable.Status.OPEN).select_related("game")
    ]
    if tournament_claims:
        today = timezone.localdate()
        choices += [
            (f"t{t.pk}", f"{t.tournament.name} · " + str(_("table %(n)s") % {"n": t.number}))
            for t in Table.objects.filter(
                status=Table.Status.OPEN, tournament__date=today
            ).select_related("tournament")
        ]
    return choices


class _ClaimForm(forms.Form):
    table = forms.ChoiceField(label=_("Table"))
    board = _cards_field(_("Board"), "As Kh Ks 7c 2d")

    def __init__(self, *args: Any, tournament_claims: bool = False, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["table"].choices = table_choices(tournament_claims)

    def clean_table(self) -> Where:
        value = self.cleaned_data["table"]
        kind, pk = value[:1], int(value[1:])
        if kind == "c":
            found = CashTable.objects.filter(pk=pk, status=CashTable.Status.OPEN).first()
            if found is not None:
                return Where(cash_table=found)
        else:
            table = Table.objects.filter(pk=pk).select_related("tournament").first()
            if table is not None:
                return Where(table=table)
        raise forms.ValidationError(_("Choose a table."))

    def _cards(self, name: str) -> tuple[str, ...]:
        try:
            return read_cards(self.cleaned_data[name])
        except InvalidCards:
            raise forms.ValidationError(CARDS_WORDS) from None

    def clean_board(self) -> tuple[str, ...]:
        return self._cards("board")


class BadBeatForm(_ClaimForm):
    loser_seat = _seat_field(_("Seat of the losing hand"))
    loser_cards = _cards_field(_("Its hole cards"), "Ah Ad")
    winner_seat = _seat_field(_("Seat of the winning hand"))
    winner_cards = _cards_field(_("Its hole cards"), "Kc Kd")
    dealt = forms.CharField(
        label=_("Seats dealt in"),
        max_length=60,
        widget=forms.TextInput(attrs={"placeholder": "1 2 3 5 7"}),
    )

    def clean_loser_cards(self) -> tuple[str, ...]:
        return self._cards("loser_cards")

    def clean_winner_cards(self) -> tuple[str, ...]:
        return self._cards("winner_cards")

    def clean_dealt(self) -> list[int]:
        parts = [p for p in re.split(r"[\s,;]+", self.cleaned_data["dealt"].strip()) if p]
        seats = [whole_number(p, low=1, high=10) for p in parts]
        if None in seats:
            raise forms.ValidationError(_("Write the seats dealt in as numbers, e.g. 1 2 3 5 7."))
        return sorted(set(seats))

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if self.errors:
            return data
        if data["loser_seat"] == data["winner_seat"]:
            raise forms.ValidationError(_("The losing and the winning hand are at two seats."))
        self.loser = ClaimedHand(data["loser_seat"], data["loser_cards"])
        self.winner = ClaimedHand(data["winner_seat"], data["winner_cards"])
        return data


class HighHandForm(_ClaimForm):
    seat = _seat_field(_("Seat"))
    cards = _cards_field(_("Hole cards"), "9c 9d")
    time = forms.TimeField(
        label=_("Time of the hand (empty: now)"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}),
    )

    def clean_cards(self) -> tuple[str, ...]:
        return self._cards("cards")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if not self.errors:
            self.hand = ClaimedHand(data["seat"], data["cards"])
        return data


class PeriodForm(forms.Form):
    start = forms.DateTimeField()

    def clean_start(self) -> dt.datetime:
        value = self.cleaned_data["start"]
        return value if timezone.is_aware(value) else timezone.make_aware(value)
