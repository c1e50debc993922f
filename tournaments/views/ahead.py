"""Reads made ahead for a staff page: what the page is about to read, brought in the
login's trip (config/auth.py) by a view marked with `entry_read_ahead`. An edge: it knows
the addresses, the posted forms and the reads the views make."""

from __future__ import annotations

from typing import Any

from config.speedups.prepared import Prepared
from tournaments import selectors
from tournaments.forms.fields import whole_number
from tournaments.permissions import _PK_OF, _STAFF_TOURNAMENT


def page_reads(request, user_id: Any) -> list[tuple[Prepared[Any], dict[str, Any]]]:
    """What a staff page of a tournament is about to read, to be read with the login's
    session and user, in their trip (config/auth.py): the tournament by the address's
    slug with the user's role in it (`get_tournament_for`), and the entry the address
    numbers or the posted form names (`entry_read_ahead`), as `selectors.entry_by_number`
    reads it, when this process knows the tournament's key.
    `user_id`: the user the session is guessed to hold. A page that reads neither leaves
    them unread; its request forgets them."""
    match = getattr(request, "resolver_match", None)
    kwargs = match.kwargs if match is not None else {}
    slug = kwargs.get("slug")
    if not isinstance(slug, str) or not isinstance(user_id, int):
        return []
    reads: list[tuple[Prepared[Any], dict[str, Any]]] = [
        (_STAFF_TOURNAMENT, {"slug": slug, "user_id": user_id})
    ]
    number, pk = kwargs.get("number"), _PK_OF.get(slug)
    entry = getattr(match.func, "entry_ahead", None) if match is not None else None
    field = getattr(match.func, "entry_ahead_field", None) if match is not None else None
    if field is not None:
        number = _posted_number(request, field)
    if entry is not None and isinstance(number, int) and pk is not None:
        reads.extend(selectors.entry_by_number_read(pk, number, seat=entry == "seat"))
    return reads


def _posted_number(request, field: str) -> int | None:
    """The entry number a posted form names in `field`, read as its form reads it; None
    when there is none (the view then reads nothing ahead: its form says what is wrong)."""
    if request.method != "POST":
        return None
    return whole_number(request.POST.get(field), low=1, high=10**9)


def entry_read_ahead(*, seat: bool = False, field: str | None = None):
    """Mark a staff view that reads the entry its address numbers first thing
    (`selectors.entry_by_number`, with `seat` as it passes it): the login's trip brings
    that read (`page_reads`). `field`: the entry is named by that field of the posted
    form instead (the floor's move form). Innermost, under the view's other decorators
    (they copy it up)."""

    def mark(view):
        view.entry_ahead = "seat" if seat else "plain"
        if field is not None:
            view.entry_ahead_field = field
        return view

    return mark
