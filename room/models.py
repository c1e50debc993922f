"""What the room app stores (the room-wide nouns above the events and the tables)."""

from __future__ import annotations

import uuid

from django.db import models
from django.utils.translation import gettext_lazy as _


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
