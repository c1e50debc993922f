"""WebSocket close codes, defined once: the server closes with them and the screens read
the same numbers (`{% socket_codes %}` puts them in the page for `static/js/screen.js`)."""

from __future__ import annotations

REVOKED = 4403  # the screen was revoked: do not come back
NOT_FOUND = 4404  # no such screen or tournament: do not come back
SERVICE_RESTART = 1012  # the channel layer failed: come back in a moment, resync
TRY_AGAIN_LATER = 1013  # this socket fell too far behind: come back, resync
RIGHTS_CHANGED = 4001  # the person's role changed or they logged out: come back, re-authorise

# What a screen does on each: codes listed in FINAL mean "stop knocking".
FINAL = (REVOKED, NOT_FOUND)


def for_screens() -> dict[str, object]:
    """The codes as the screens' script reads them."""
    return {
        "revoked": REVOKED,
        "notFound": NOT_FOUND,
        "serviceRestart": SERVICE_RESTART,
        "tryAgainLater": TRY_AGAIN_LATER,
        "final": list(FINAL),
    }
