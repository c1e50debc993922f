"""The room's own addresses, under /room/ (cash games, the pit); tournaments live under /t/."""

from __future__ import annotations

from django.urls import path  # noqa: F401  (each topic adds its paths below)

urlpatterns: list = []
