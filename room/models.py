"""What the room app stores (the room-wide nouns above the events and the tables)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


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
