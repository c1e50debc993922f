"""Forms of the books, the printouts and the staff accounts."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy

from tournaments.documents.pdf import SIZES
from tournaments.documents.printouts import DOCUMENTS
from tournaments.forms.fields import NightField, WholeNumberField
from tournaments.models import PaymentMethod, Role
from tournaments.rules.cashbook import CORRECTION_MAX

SLIPS = ("receipt", "payout")


class PaymentForm(forms.Form):
    """How a sale is paid; cash when not said."""

    payment_method = forms.ChoiceField(
        label=gettext_lazy("Paid by"), choices=PaymentMethod.choices, required=False
    )

    def method(self) -> str:
        if self.is_valid():
            return self.cleaned_data["payment_method"] or PaymentMethod.CASH
        return PaymentMethod.CASH


class VoidForm(forms.Form):
    entry = WholeNumberField(label=gettext_lazy("Entry number"), min_value=1)
    purchase = WholeNumberField(label=gettext_lazy("Rebuy or add-on"), min_value=1, required=False)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)


class NightForm(forms.Form):
    night = NightField(label=gettext_lazy("Night"), required=False)
    format = forms.ChoiceField(
        choices=[("", "HTML"), ("pdf", "PDF")], required=False, label=gettext_lazy("Format")
    )
    size = forms.ChoiceField(
        choices=[(s, s) for s in SIZES], required=False, label=gettext_lazy("Paper")
    )


class CloseForm(forms.Form):
    night = NightField(label=gettext_lazy("Night"))


class CorrectionForm(forms.Form):
    """A correction to a closed night. Without `confirm` the view asks first, restating the
    amount and its direction; only the confirmed form is recorded."""

    night = NightField(label=gettext_lazy("Night"))
    amount = WholeNumberField(label=gettext_lazy("Amount (negative: money out)"))
    payment_method = forms.ChoiceField(label=gettext_lazy("Paid by"), choices=PaymentMethod.choices)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=200)
    confirm = forms.BooleanField(required=False)
    key = forms.CharField(required=False, max_length=64)

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if not amount:
            raise forms.ValidationError(
                gettext_lazy("A correction needs an amount other than zero.")
            )
        if abs(amount) > CORRECTION_MAX:
            raise forms.ValidationError(
                gettext_lazy("A correction is at most %(limit)s, in or out."),
                params={"limit": CORRECTION_MAX},
            )
        return amount


class PrintForm(forms.Form):
    doc = forms.ChoiceField(
        label=gettext_lazy("Printout"), choices=[(d, d) for d in (*DOCUMENTS, *SLIPS)]
    )
    size = forms.ChoiceField(
        label=gettext_lazy("Paper"), choices=[(s, s) for s in SIZES], required=False
    )
    entry = WholeNumberField(label=gettext_lazy("Entry number"), min_value=1, required=False)


class AccountForm(forms.Form):
    """The TD's staff account page: one action on one account."""

    action = forms.ChoiceField(
        choices=[(a, a) for a in ("create", "disable", "enable", "reset", "assign", "pin")]
    )
    username = forms.RegexField(
        label=gettext_lazy("Username"), regex=r"^[\w.@+-]{1,150}$", max_length=150
    )
    password = forms.CharField(
        label=gettext_lazy("New password"), required=False, min_length=8, max_length=128
    )
    slug = forms.SlugField(label=gettext_lazy("Tournament"), required=False, max_length=80)
    role = forms.ChoiceField(
        label=gettext_lazy("Role"), choices=[("", "—"), *Role.choices], required=False
    )
    pin = forms.RegexField(label=gettext_lazy("PIN"), regex=r"^\d{4,8}$", required=False)


class PinForm(forms.Form):
    """A dealer unlocks a table's tablet: his username and his PIN."""

    username = forms.RegexField(
        label=gettext_lazy("Username"), regex=r"^[\w.@+-]{1,150}$", max_length=150
    )
    pin = forms.RegexField(label=gettext_lazy("PIN"), regex=r"^\d{4,8}$")


class ShareForm(forms.Form):
    """Open a table another event freed (tables shared over an evening)."""

    source = forms.SlugField(max_length=80)
    target = forms.SlugField(max_length=80)
    number = WholeNumberField(label=gettext_lazy("Table"), min_value=1, max_value=10_000)
