"""Forms of the pit ruling tool: what the supervisor writes, read into the pure rules'
input (`tables.games`). Bad input is a form error with a translated message, never a 500.

Cards are written rank + suit, space separated ("Th 6c 9d"; "10h" is read as "Th"), with
the suit letters of the user's language (in Italian c q f p: cuori, quadri, fiori, picche)
or suit symbols. A blackjack box's hands are separated by "/" (a split), and a doubled hand
carries "x2". In the Banco's line a card exposed by mistake before its turn is marked "*".
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from tables.games import blackjack as bj
from tables.games import punto_banco as pb
from tables.games.cards import Card, parse_card
from tables.games.errors import CardError
from tournaments.forms.fields import DecimalNumberField, WholeNumberField

MAX_BOXES = 7
DOUBLE_MARKS = {"x2", "2x", "d", "dbl"}
EXPOSED_MARK = "*"


def _language() -> str:
    return "it" if (get_language() or "").startswith("it") else "en"


def read_marked_cards(text: str) -> tuple[tuple[Card, ...], tuple[int, ...]]:
    """Cards separated by spaces or commas, read with the suit letters of the user's
    language, and the positions of those marked as exposed by mistake ("Th*" or "*Th").
    A ValidationError names the first bad card."""
    cards: list[Card] = []
    exposed: list[int] = []
    language = _language()
    for token in text.replace(",", " ").split():
        marked = token.startswith(EXPOSED_MARK) or token.endswith(EXPOSED_MARK)
        try:
            cards.append(parse_card(token.strip(EXPOSED_MARK), language))
        except CardError as exc:
            raise ValidationError(
                _("“%(card)s” is not a card: write rank and suit, e.g. Ah, Td, 9c.")
                % {"card": token[:12]}
            ) from exc
        if marked:
            exposed.append(len(cards) - 1)
    return tuple(cards), tuple(exposed)


def read_cards(text: str) -> tuple[Card, ...]:
    """Cards as `read_marked_cards` reads them, where no card may be marked exposed."""
    cards, exposed = read_marked_cards(text)
    if exposed:
        raise ValidationError(_("Only the Banco's cards can be marked * as exposed by mistake."))
    return cards


def read_hands(text: str) -> tuple[bj.Hand, ...]:
    hands = []
    for part in text.split("/"):
        tokens = part.replace(",", " ").split()
        double = any(t.lower() in DOUBLE_MARKS for t in tokens)
        cards = read_cards(" ".join(t for t in tokens if t.lower() not in DOUBLE_MARKS))
        if cards or double:
            hands.append(bj.Hand(cards, double))
    return tuple(hands)


class _Money(DecimalNumberField):
    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("min_value", Decimal(0))
        kwargs.setdefault("max_digits", 12)
        kwargs.setdefault("decimal_places", 2)
        super().__init__(**kwargs)
        self.widget.attrs.update({"inputmode": "decimal"})


# --- punto banco ------------------------------------------------------------------------

PB_KINDS = [
    ("punto", gettext_lazy("Punto")),
    ("banco", gettext_lazy("Banco")),
    ("egalite", gettext_lazy("Égalité")),
    ("winning_number", gettext_lazy("Winning Number")),
]


class PuntoBancoForm(forms.Form):
    cards = forms.CharField(
        label=gettext_lazy("Cards in the order dealt (burnt cards excluded)"),
        max_length=200,
        help_text=gettext_lazy("e.g. Ad Kc 2h 3s 4c Qd: 1st and 3rd Punto, 2nd and 4th Banco"),
    )
    max_punto = _Money(label=gettext_lazy("Maximum Punto"))
    max_banco = _Money(label=gettext_lazy("Maximum Banco"))
    max_egalite = _Money(label=gettext_lazy("Maximum Égalité"))
    max_winning_number = _Money(label=gettext_lazy("Maximum Winning Number"))
    last_coup = forms.BooleanField(
        required=False, label=gettext_lazy("Last coup, starting with the cut card")
    )
    cards_behind_cut_card = WholeNumberField(
        required=False,
        min_value=0,
        max_value=416,
        label=gettext_lazy("Cards behind the cut card"),
    )

    def clean_cards(self) -> tuple[Card, ...]:
        cards = read_cards(self.cleaned_data["cards"])
        if len(cards) < 4:
            raise ValidationError(_("Write at least the four cards dealt."))
        return cards

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("last_coup") and data.get("cards_behind_cut_card") is None:
            self.add_error(
                "cards_behind_cut_card", _("Count the cards that were behind the cut card.")
            )
        return data

    def limits(self) -> pb.PBLimits:
        d = self.cleaned_data
        return pb.PBLimits(
            maximum={k: d[f"max_{k}"] for k, _label in PB_KINDS if d.get(f"max_{k}") is not None}
        )

    def last(self) -> pb.LastCoup | None:
        d = self.cleaned_data
        if not d.get("last_coup"):
            return None
        return pb.LastCoup(True, int(d["cards_behind_cut_card"]))


class PBBetForm(forms.Form):
    on = forms.ChoiceField(choices=PB_KINDS, label=gettext_lazy("On"))
    number = forms.TypedChoiceField(
        choices=[("", "-")] + [(str(n), str(n)) for n in range(1, 10)],
        coerce=int,
        empty_value=None,
        required=False,
        label=gettext_lazy("Number"),
    )
    amount = _Money(label=gettext_lazy("Stake"))
    player = forms.CharField(required=False, max_length=40, label=gettext_lazy("Player"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        wn = data.get("on") == "winning_number"
        if data.get("amount") is not None and wn and data.get("number") is None:
            self.add_error("number", _("A Winning Number bet needs a number from 1 to 9."))
        return data


PBBetFormSet = forms.formset_factory(PBBetForm, extra=6, max_num=30, absolute_max=30)


def pb_bets(formset: Any) -> list[pb.PBBet]:
    bets = []
    for i, form in enumerate(formset.forms, start=1):
        d = form.cleaned_data
        if not d or d.get("amount") is None:
            continue
        number = d.get("number") if d["on"] == "winning_number" else None
        bets.append(pb.PBBet(f"B{i}", d.get("player") or "", d["on"], d["amount"], number))
    return bets


# --- blackjack --------------------------------------------------------------------------

OPTIONS = [
    ("", gettext_lazy("no option")),
    ("surrender", gettext_lazy("surrender")),
    ("insurance", gettext_lazy("insurance")),
    ("even_money", gettext_lazy("even money")),
]
SETTING_VS_21 = [
    ("dealer_wins", gettext_lazy("Banco's Black-Jack beats a player's 21 (default)")),
    ("push", gettext_lazy("A player's 21 ties the Banco's Black-Jack")),
]
SETTING_INSURANCE = [
    ("complete", gettext_lazy("Banco completes his hand (default)")),
    ("second_card_only", gettext_lazy("Banco draws only the card that decides insurance")),
]


class BlackjackForm(forms.Form):
    dealer = forms.CharField(
        label=gettext_lazy("Banco's cards in the order drawn, up card first"),
        max_length=200,
        help_text=gettext_lazy(
            "e.g. 6c Th* 9s 4d: a card exposed by mistake before its turn marked *, where "
            "it came out; cards drawn by mistake after the Banco had to stand may follow"
        ),
    )
    other_boxes = forms.TypedChoiceField(
        choices=[(str(n), str(n)) for n in range(MAX_BOXES)],
        coerce=int,
        empty_value=0,
        required=False,
        initial="0",
        label=gettext_lazy("Other boxes in the round"),
        help_text=gettext_lazy(
            "boxes that carried a bet but are not entered here (the round needs two, BJ Art.4.1)"
        ),
    )
    minimum = _Money(label=gettext_lazy("Box minimum"))
    maximum = _Money(label=gettext_lazy("Box maximum"))
    vs_21 = forms.ChoiceField(
        choices=SETTING_VS_21, initial="dealer_wins", label=gettext_lazy("Banco's Black-Jack")
    )
    insurance_draw = forms.ChoiceField(
        choices=SETTING_INSURANCE,
        initial="complete",
        label=gettext_lazy("Only insurance left in play"),
    )

    def clean_dealer(self) -> tuple[Card, ...]:
        cards, self._exposed = read_marked_cards(self.cleaned_data["dealer"])
        if len(cards) == len(self._exposed):
            raise ValidationError(_("Write at least the Banco's up card."))
        return cards

    def exposed(self) -> tuple[int, ...]:
        """Positions in the Banco's cards of those exposed by mistake before their turn."""
        return getattr(self, "_exposed", ())

    def limits(self) -> bj.Limits | None:
        d = self.cleaned_data
        if d.get("minimum") is None and d.get("maximum") is None:
            return None
        return bj.Limits(d.get("minimum"), d.get("maximum"))

    def settings(self) -> bj.Settings:
        d = self.cleaned_data
        return bj.Settings(
            bj_dealer_blackjack_vs_21=d.get("vs_21") or "dealer_wins",
            bj_live_insurance_dealer_draw=d.get("insurance_draw") or "complete",
        )


class BoxForm(forms.Form):
    hands = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Cards"),
        help_text=gettext_lazy("split hands separated by /, a doubled hand marked x2"),
    )
    amount = _Money(label=gettext_lazy("Stake"))
    option = forms.ChoiceField(choices=OPTIONS, required=False, label=gettext_lazy("Option"))
    player = forms.CharField(required=False, max_length=40, label=gettext_lazy("Player"))

    def clean_hands(self) -> tuple[bj.Hand, ...]:
        return read_hands(self.cleaned_data.get("hands") or "")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("amount") is not None and not data.get("hands") and "hands" in data:
            self.add_error("hands", _("Write the cards of this box."))
        return data


class BehindForm(forms.Form):
    box = forms.TypedChoiceField(
        choices=[("", "-")] + [(str(n), str(n)) for n in range(1, MAX_BOXES + 1)],
        coerce=int,
        empty_value=None,
        required=False,
        label=gettext_lazy("Box"),
    )
    amount = _Money(label=gettext_lazy("Stake"))
    option = forms.ChoiceField(choices=OPTIONS, required=False, label=gettext_lazy("Option"))
    follow_split = forms.BooleanField(required=False, label=gettext_lazy("follows the split"))
    follow_double = forms.BooleanField(required=False, label=gettext_lazy("follows the double"))
    player = forms.CharField(required=False, max_length=40, label=gettext_lazy("Player"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("amount") is not None and data.get("box") is None:
            self.add_error("box", _("Which box is this bet behind?"))
        return data


NIWIN_SCORES = [("", "-")] + [(s, s) for s in bj.NIWIN_ODDS]


class NiwinForm(forms.Form):
    score = forms.ChoiceField(choices=NIWIN_SCORES, required=False, label=gettext_lazy("Score"))
    amount = _Money(label=gettext_lazy("Stake"))
    player = forms.CharField(required=False, max_length=40, label=gettext_lazy("Player"))

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("amount") is not None and not data.get("score"):
            self.add_error("score", _("Which score is the niWin bet on?"))
        return data


BoxFormSet = forms.formset_factory(
    BoxForm, extra=MAX_BOXES, max_num=MAX_BOXES, absolute_max=MAX_BOXES
)
BehindFormSet = forms.formset_factory(BehindForm, extra=4, max_num=14, absolute_max=14)
NiwinFormSet = forms.formset_factory(NiwinForm, extra=3, max_num=20, absolute_max=20)


def _bet(bet_id: str, d: dict[str, Any], **follow: bool) -> bj.Bet:
    option = d.get("option") or ""
    return bj.Bet(
        bet_id,
        d.get("player") or "",
        d["amount"],
        surrender=option == "surrender",
        insurance=option == "insurance",
        even_money=option == "even_money",
        **follow,
    )


def bj_boxes(boxes: Any, behind: Any) -> list[bj.Box]:
    """The boxes with a stake, in dealing order; bets behind after the titolare's."""
    extra: dict[int, list[bj.Bet]] = {}
    for i, form in enumerate(behind.forms, start=1):
        d = form.cleaned_data
        if d and d.get("amount") is not None:
            extra.setdefault(d["box"], []).append(
                _bet(
                    f"B{d['box']}.{i}",
                    d,
                    follow_split=bool(d.get("follow_split")),
                    follow_double=bool(d.get("follow_double")),
                )
            )
    out = []
    for n, form in enumerate(boxes.forms, start=1):
        d = form.cleaned_data
        if not d or d.get("amount") is None:
            continue
        out.append(bj.Box(n, (_bet(f"B{n}", d), *extra.get(n, [])), d["hands"]))
    return out


def bj_orphans(boxes: Any, behind: Any) -> list[int]:
    """Boxes that have bets behind but no titolare's stake."""
    played = {n for n, f in enumerate(boxes.forms, 1) if f.cleaned_data.get("amount") is not None}
    return sorted(
        {
            f.cleaned_data["box"]
            for f in behind.forms
            if f.cleaned_data.get("amount") is not None and f.cleaned_data["box"] not in played
        }
    )


def niwin_bets(formset: Any) -> list[bj.NiwinBet]:
    out = []
    for i, form in enumerate(formset.forms, start=1):
        d = form.cleaned_data
        if d and d.get("amount") is not None:
            out.append(bj.NiwinBet(f"N{i}", d.get("player") or "", d["score"], d["amount"]))
    return out


class SaveForm(forms.Form):
    note = forms.CharField(
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
        label=gettext_lazy("Note for the log (table, players, what was disputed)"),
    )
