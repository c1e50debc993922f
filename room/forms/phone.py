"""The room's forms: what the players' phones post, parsed and bounded once."""

from __future__ import annotations

import base64
import binascii

from django import forms
from django.utils.translation import gettext_lazy as _


def _base64url(value: str, size: int) -> str:
    """A browser's subscription key: base64url of exactly `size` bytes."""
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raise forms.ValidationError(_("This phone sent a key that is not valid.")) from None
    if len(raw) != size:
        raise forms.ValidationError(_("This phone sent a key that is not valid."))
    return value


class SubscriptionForm(forms.Form):
    """A browser's PushSubscription (its toJSON(): the endpoint and its two keys)."""

    endpoint = forms.URLField(max_length=1000, assume_scheme="https")
    p256dh = forms.CharField(max_length=200)
    auth = forms.CharField(max_length=100)

    def clean_endpoint(self) -> str:
        endpoint = self.cleaned_data["endpoint"]
        if not endpoint.startswith(("https://", "http://")):
            raise forms.ValidationError(_("This phone sent no push address."))
        return endpoint

    def clean_p256dh(self) -> str:
        return _base64url(self.cleaned_data["p256dh"], 65)  # an uncompressed P-256 point

    def clean_auth(self) -> str:
        return _base64url(self.cleaned_data["auth"], 16)


class EndpointForm(forms.Form):
    endpoint = forms.URLField(max_length=1000, assume_scheme="https")


class EmailOptInForm(forms.Form):
    email = forms.EmailField(label=_("Your e-mail"), max_length=254)
    consent = forms.BooleanField(
        label=_(
            "I agree that the room keeps this address to send me these notices, and only "
            "for that, until I unsubscribe."
        ),
        error_messages={"required": _("Tick the box to agree, or leave the address out.")},
    )


class AnswerForm(forms.Form):
    """A cash call's answer from a notification's button."""

    answer = forms.ChoiceField(
        choices=[
            ("coming", _("On my way")),
            ("more", _("Need more minutes")),
            ("cancel", _("Cancel")),
        ]
    )
