"""The room app's addresses, under /room/ beside the cash room's and the pit's."""

from __future__ import annotations

urlpatterns: list = []
