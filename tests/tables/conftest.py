"""Fast password hashing for the room tests: their personas are created per test."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
