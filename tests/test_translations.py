"""Every string marked for translation has its Italian text (the interface ships in both)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[1]
SOURCES = (
    "config",
    "tournaments",
    "tables",
    "room",
    "bench",
    "templates",
    "static",
    "locale",
    "manage.py",
)


@pytest.mark.skipif(
    not shutil.which("xgettext"), reason="needs GNU gettext (apt-get install gettext)"
)
def test_every_marked_string_has_an_italian_translation(tmp_path):
    """Extract the strings afresh into a copy of the tree and look for any left untranslated."""
    for name in SOURCES:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, tmp_path / name, ignore=shutil.ignore_patterns("__pycache__"))
        elif src.exists():
            shutil.copy(src, tmp_path / name)
    result = subprocess.run(
        [sys.executable, "manage.py", "makemessages", "-l", "it", "--no-obsolete", "-v0"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    catalogue = polib.pofile(str(tmp_path / "locale/it/LC_MESSAGES/django.po"))
    missing = [e.msgid for e in catalogue.untranslated_entries()]
    fuzzy = [e.msgid for e in catalogue.fuzzy_entries()]
    assert missing == [], f"{len(missing)} strings have no Italian translation: {missing[:20]}"
    assert fuzzy == [], f"{len(fuzzy)} Italian translations are marked fuzzy: {fuzzy[:20]}"


def test_djangos_password_messages_we_show_read_in_italian():
    """The staff accounts page shows Django's password checks: Django 6 changed their
    wording and its own Italian catalogue has not caught up, so ours carries it."""
    from django.contrib.auth.password_validation import validate_password
    from django.core.exceptions import ValidationError
    from django.utils import translation

    with translation.override("it"), pytest.raises(ValidationError) as refused:
        validate_password("")
    assert refused.value.messages == [
        "Questa password è troppo corta. Deve contenere almeno 8 caratteri."
    ]
