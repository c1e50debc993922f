"""The public structure sheet of an event (levels, breaks, colour-ups, late registration)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments import permissions
from tournaments.documents import printouts


def public_structure(request: HttpRequest, slug: str) -> HttpResponse:
    """No login: the structure sheet of an event (levels, breaks, colour-ups, late reg)."""
    tournament = permissions.get_public_tournament(slug)
    context = {"tournament": tournament, "sheet": printouts.structure_rows(tournament)}
    return render(request, "front/structure.html", context)
