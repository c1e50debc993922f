"""What the cash room's staff type, read through Django forms (bad input: a message, no change)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.cash.rake import Contribution
from tables.models import CashGame, CashRoom, CashSeat, CashTable, RoomRole
from tables.services.cash import GAME_FIELDS
from tournaments.models import Player

MAX_CHIPS = 10**9


class CashGameForm(forms.ModelForm):
    class Meta:
        model = CashGame
        fields = list(GAME_FIELDS)  # the fields the service saves and its undo restores

    def clean_max_seats(self) -> int:
        seats = self.cleaned_data["max_seats"]
        if not 2 <= seats <= 10:
            raise forms.ValidationError(_("A cash table has 2 to 10 seats."))
        return seats

    def clean_bb(self) -> int:
        bb = self.cleaned_data["bb"]
        if bb < 1:
            raise forms.ValidationError(_("The big blind must be at least 1."))
        return bb


class ListAddForm(forms.Form):
    """A name at the list: a player the search found (`player`, among those `find` finds),
    or, only when asked (`create`), a new record with a name and an optional card."""

    find = forms.CharField(
        label=_("Name, card or document"),
        max_length=100,
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "type": "search"}),
    )
    player = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)
    games = forms.ModelMultipleChoiceField(
        label=_("Lists"),
        queryset=CashGame.objects.filter(active=True),
        widget=forms.CheckboxSelectMultiple,
    )
    present = forms.BooleanField(label=_("The player is here in person"), required=False)
    create = forms.BooleanField(label=_("New player: create his record"), required=False)
    first_name = forms.CharField(label=_("First name"), max_length=60, required=False)
    last_name = forms.CharField(label=_("Last name"), max_length=60, required=False)
    card = forms.CharField(label=_("Player card"), max_length=40, required=False)

    def clean(self) -> dict:
        data = super().clean() or {}
        for name in ("find", "first_name", "last_name", "card"):
            data[name] = (data.get(name) or "").strip()
        if data.get("create"):
            if not data["first_name"]:
                raise forms.ValidationError(_("Give the new player's first name."))
        elif not data.get("player") and not data["find"]:
            raise forms.ValidationError(
                _("Type a name, card or document, or tick New player to create a record.")
            )
        return data


class SeatNumberForm(forms.Form):
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10)


class SeatFromListForm(forms.Form):
    table = forms.ModelChoiceField(
        label=_("Table"), queryset=CashTable.objects.filter(status=CashTable.Status.OPEN)
    )
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10)
    buy_in = forms.IntegerField(label=_("Buy-in"), min_value=0, max_value=MAX_CHIPS)
    reason = forms.CharField(
        label=_("Reason to seat out of list order"), max_length=200, required=False
    )
    leaving_stack = forms.IntegerField(
        label=_("Stake he leaves his other table with"),
        min_value=0,
        max_value=MAX_CHIPS,
        required=False,
    )


class MoveForm(forms.Form):
    table = forms.ModelChoiceField(
        label=_("To table"), queryset=CashTable.objects.filter(status=CashTable.Status.OPEN)
    )
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=10)
    by_house = forms.BooleanField(label=_("Moved by the house"), required=False)


class RequestForm(forms.Form):
    request = forms.ChoiceField(
        label=_("Request"), choices=CashSeat.Request.choices, required=False
    )


class AnswerForm(forms.Form):
    takes_seat = forms.TypedChoiceField(
        choices=[("yes", _("Coming")), ("no", _("Declines"))], coerce=lambda v: v == "yes"
    )


class OpenTableForm(forms.Form):
    number = forms.IntegerField(label=_("Table number"), min_value=1, max_value=999)
    present = forms.ModelMultipleChoiceField(
        label=_("Here in the cash area"),
        queryset=Player.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args, game: CashGame, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["present"].queryset = Player.objects.filter(cash_lists__game=game)


class RakeForm(forms.Form):
    """A hand's rake from its total pot, or from what each seat put in (then the pots, the
    uncalled bet and the rake by pot are worked out as in cash-room.md §12.5)."""

    pot = forms.IntegerField(label=_("Pot"), min_value=0, max_value=MAX_CHIPS, required=False)
    contributions = forms.CharField(
        label=_("Or each seat's chips, one per line: seat amount [fold] [allin]"),
        widget=forms.Textarea(attrs={"rows": 3}),
        max_length=2000,
        required=False,
    )
    flop_dealt = forms.BooleanField(label=_("Flop dealt"), required=False)
    dealer = forms.CharField(label=_("Dealer"), max_length=60, required=False)
    shift = forms.CharField(label=_("Shift"), max_length=20, required=False)
    # The hand the form was drawn for: the same form sent twice rakes the hand once.
    hand = forms.IntegerField(
        widget=forms.HiddenInput, min_value=1, max_value=MAX_CHIPS, required=False
    )

    def clean_contributions(self) -> list[Contribution]:
        found: list[Contribution] = []
        for number, line in enumerate(self.cleaned_data["contributions"].splitlines(), start=1):
            words = line.lower().split()
            if not words:
                continue
            flags = set(words[2:])
            if (
                len(words) < 2
                or not (words[0].isascii() and words[0].isdigit())
                or not (words[1].isascii() and words[1].isdigit())
                or not flags <= {"fold", "allin"}
            ):
                raise forms.ValidationError(
                    _("Line %(line)s: write the seat, the amount, then fold or allin if so."),
                    params={"line": number},
                )
            if any(c.player == words[0] for c in found):
                raise forms.ValidationError(
                    _("Seat %(seat)s is written twice."), params={"seat": words[0]}
                )
            found.append(Contribution(words[0], int(words[1]), "fold" in flags, "allin" in flags))
        if len(found) == 1:
            raise forms.ValidationError(_("A pot needs at least two seats."))
        return found

    def clean(self) -> dict:
        data = super().clean() or {}
        if not self.errors and data.get("pot") is None and not data.get("contributions"):
            raise forms.ValidationError(_("Give the pot or each seat's chips."))
        return data


class ShiftReportForm(forms.Form):
    shift = forms.CharField(label=_("Shift"), max_length=20, required=False)
    day = forms.DateField(label=_("Day"), required=False)


class CashRoomForm(forms.ModelForm):
    class Meta:
        model = CashRoom
        fields = ["public_name_format", "answer_minutes"]

    def clean_answer_minutes(self) -> int:
        minutes = self.cleaned_data["answer_minutes"]
        if not 1 <= minutes <= 120:
            raise forms.ValidationError(_("Between 1 and 120 minutes."))
        return minutes


class KeepApartForm(forms.Form):
    card_a = forms.CharField(label=_("Player card"), max_length=40)
    card_b = forms.CharField(label=_("Other player's card"), max_length=40)
    reason = forms.CharField(label=_("Reason (private)"), max_length=200, required=False)

    def _player(self, field: str) -> Player:
        card = self.cleaned_data[field].strip()
        player = Player.objects.filter(document_number=card).first()
        if player is None:
            raise forms.ValidationError(
                _("No player has the card %(card)s."), params={"card": card}
            )
        return player

    def clean_card_a(self) -> Player:
        return self._player("card_a")

    def clean_card_b(self) -> Player:
        return self._player("card_b")


class LeaveForm(forms.Form):
    stack = forms.IntegerField(
        label=_("Stake he leaves with"), min_value=0, max_value=MAX_CHIPS, required=False
    )


class BuyForm(forms.Form):
    stack = forms.IntegerField(label=_("Stack now"), min_value=0, max_value=MAX_CHIPS)
    amount = forms.IntegerField(label=_("Buys"), min_value=1, max_value=MAX_CHIPS)
    # What the seat had bought when the form was drawn: the same form sent twice sells
    # the chips once.
    bought = forms.IntegerField(
        widget=forms.HiddenInput, min_value=0, max_value=2**31 - 1, required=False
    )


class RoomStaffForm(forms.Form):
    """Give a person a room role, or take it away."""

    username = forms.CharField(label=_("Username"), max_length=150)
    role = forms.ChoiceField(label=_("Room role"), choices=RoomRole.choices)
    # Posted by the button pressed (give or take away), never rendered as a field.
    action = forms.ChoiceField(choices=[("give", _("Give")), ("take", _("Take away"))])
