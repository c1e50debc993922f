"""Request guards shared by every view."""

from __future__ import annotations

from collections.abc import Callable

from django.core.exceptions import BadRequest
from django.http import HttpRequest, HttpResponse

from tournaments import prepared


def reject_nul_bytes(get_response: Callable[[HttpRequest], HttpResponse]):
    """A NUL byte in a field or a query is refused with the 400 page (in the user's
    language): no browser sends one, and PostgreSQL cannot store it in text or JSON, so it
    would otherwise be a 500 at whichever view saves or searches that field."""

    def middleware(request: HttpRequest) -> HttpResponse:
        for data in (request.GET, request.POST):
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    raise BadRequest("NUL byte in the request")
        return get_response(request)

    return middleware


def reads_ahead(get_response: Callable[[HttpRequest], HttpResponse]):
    """The span in which a request's reads made ahead for its view are answered
    (prepared.request_reads): the login's read brings the page's tournament and entry in
    its trip (config/auth.py), and the request forgets what its view did not read."""

    def middleware(request: HttpRequest) -> HttpResponse:
        with prepared.request_reads():
            return get_response(request)

    return middleware
