"""What every app's views share: a service called from a view, its refusal shown."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.http import HttpRequest
from django.utils import timezone

from tournaments.errors import DomainError


def run(request: HttpRequest, service: Callable[..., Any], **kwargs: Any) -> tuple[bool, Any]:
    """Call one service; a refusal becomes a message in the user's language (never a 500)."""
    try:
        return True, service(now=timezone.now(), **kwargs)
    except DomainError as exc:
        messages.error(request, str(exc))
        return False, None


def form_errors(request: HttpRequest, form: Any) -> None:
    """Every complaint of a refused form, one message each."""
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)
