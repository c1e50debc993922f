"""Forms of the room's players (profile, merge, search) and its leagues."""

from __future__ import annotations

from django import forms
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from room.models import League
from tournaments.forms.fields import WholeNumberField, country_field, whole_numbers
from tournaments.models import Player, Tournament
from tournaments.rules import leagues


class ProfileForm(forms.ModelForm):
    """The profile; the document, the phone and the e-mail are never shown in full: the
    fields start empty and what is typed replaces what is held. The contact is kept only
    with the player's consent: without it, saving clears it."""

    document_number = forms.CharField(
        label=_("New document number"),
        required=False,
        max_length=40,
        help_text=_("Leave empty to keep the document held."),
    )

    class Meta:
        formfield_callback = whole_numbers
        model = Player
        fields = [
            "first_name",
            "last_name",
            "nickname",
            "nationality",
            "country",
            "phone",
            "email",
            "contact_consent",
            "notes",
            "needs_accessible_seat",
        ]
        labels = {"phone": _("New phone"), "email": _("New e-mail")}
        help_texts = {
            "phone": _("Leave empty to keep the phone held."),
            "email": _("Leave empty to keep the e-mail held."),
            "contact_consent": _(
                "The player agreed that his phone and e-mail are kept; untick to delete them."
            ),
        }
        widgets = {"notes": forms.Textarea(attrs={"rows": 3})}

    photo = forms.FileField(
        label=_("Photo (optional)"),
        required=False,
        help_text=_("JPEG, PNG or WebP, at most 300 KB."),
    )
    remove_photo = forms.BooleanField(label=_("Remove the photo"), required=False)

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.initial["document_number"] = ""
        self.initial["phone"] = ""
        self.initial["email"] = ""
        self.fields["photo"].widget.attrs["accept"] = "image/jpeg,image/png,image/webp"
        self.fields["country"] = country_field(_("Country (for the rankings)"))

    def clean_photo(self) -> tuple[bytes, str] | None:
        upload = self.cleaned_data.get("photo")
        if not upload:
            return None
        if upload.size > PHOTO_MAX_BYTES:
            raise forms.ValidationError(_("The photo is too large: at most 300 KB."))
        data = upload.read(PHOTO_MAX_BYTES + 1)
        kind = photo_kind(data)
        if kind is None:
            raise forms.ValidationError(_("The photo must be a JPEG, PNG or WebP image."))
        return data, kind

    def profile(self) -> dict:
        """The fields to save: the document only when a new one was typed; the photo when
        one was uploaded (or removed)."""
        values = dict(self.cleaned_data)
        for key in ("document_number", "phone", "email"):
            if not str(values.get(key, "")).strip():
                values.pop(key, None)
        photo = values.pop("photo", None)
        if values.pop("remove_photo", False):
            values["photo"] = None
        elif photo is not None:
            values["photo"] = photo
        return values

    def validate_unique(self) -> None:
        """The service refuses a document already registered, with its own message."""


PHOTO_MAX_BYTES = 300 * 1024


def photo_kind(data: bytes) -> str | None:
    """The image type by its first bytes (never by the name or the browser's word)."""
    if data.startswith(b"\xff\xd8\xff"):
        return "image/jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "image/png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "image/webp"
    return None


class MergeForm(forms.Form):
    into = WholeNumberField(label=_("Keep this player"), min_value=1, max_value=2**31 - 1)


class PeopleSearchForm(forms.Form):
    q = forms.CharField(label=_("Search"), max_length=80, required=False)


class LeagueForm(forms.ModelForm):
    points = forms.CharField(
        label=_("Points by place (1st, 2nd, ...)"),
        required=False,
        max_length=600,
        help_text=_("Numbers separated by spaces or commas, e.g. 25 18 15 12 10 8 6 4 2 1"),
    )

    class Meta:
        formfield_callback = whole_numbers
        model = League
        fields = [
            "name",
            "season",
            "formula",
            "base",
            "participation_points",
            "bounty_points",
            "best_n",
            "tie_break",
            "public",
            "events",
        ]
        widgets = {"events": forms.CheckboxSelectMultiple}

    def __init__(self, *args, events=None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.fields["events"].queryset = events if events is not None else Tournament.objects.none()
        self.fields["events"].required = False
        for name in ("base", "participation_points", "bounty_points"):
            self.fields[name].max_value = 100_000
            self.fields[name].widget.attrs["max"] = 100_000
            self.fields[name].validators.append(_at_most(100_000))
        self.fields["best_n"].validators.append(_at_most(1000))
        if self.instance.pk and not self.is_bound:
            self.initial["points"] = " ".join(str(p) for p in self.instance.points_table)

    def clean_points(self) -> list[int]:
        try:
            table = leagues.parse_table(self.cleaned_data.get("points") or "")
        except ValueError:
            raise forms.ValidationError(
                _("Write the points as whole numbers of 0 or more, separated by spaces.")
            ) from None
        if len(table) > 200 or any(p > 100_000 for p in table):
            raise forms.ValidationError(_("At most 200 places, of at most 100,000 points each."))
        return list(table)

    def clean(self):
        data = super().clean()
        if data.get("formula") == League.Formula.TABLE and not data.get("points"):
            self.add_error("points", _("A fixed table needs the points of at least one place."))
        return data

    def slug_for(self) -> str:
        return slugify(self.cleaned_data["name"])[:60] or "league"


def _at_most(limit: int):
    from django.core.validators import MaxValueValidator

    return MaxValueValidator(limit)
