"""What the console, a table tablet and a socket may ask of the clock, parsed once.

The console's POST view, the tablet's POST and the socket's `control`, `hand` and
`timecall` messages all call `control_action`, so every edge obeys the same rules: which
role may do what, and how a message's fields become a service's keyword arguments.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.errors import DomainError
from tournaments.forms.fields import whole_number
from tournaments.models import Tournament
from tournaments.services import clock as clock_services
from tournaments.services import endofday as endofday_services
from tournaments.services import handforhand as handforhand_services
from tournaments.services import timecalls as timecall_services


def control_action(
    *, tournament: Tournament, role: str | None, actor, message: dict[str, Any]
) -> Any:
    """Run one console action for `role` and return what its service returns; raise
    DomainError when refused.

    Shared by the console's POST view and the socket, so both obey the same rules.
    """
    action = message.get("action")
    spec = CONTROLS.get(action) if isinstance(action, str) else None
    if spec is None:
        raise DomainError(_("Unknown clock action."))
    roles, service, arguments = spec
    if role not in roles:
        raise DomainError(_("Your role may not do this."))
    kwargs = arguments(message)
    now = timezone.now()
    if action.startswith("timecall_"):
        # A write is expected: record a call whose time ran out with nobody to say so.
        timecall_services.timecall_catch_up(tournament=tournament, now=now)
    return service(tournament=tournament, actor=actor, now=now, **kwargs)


def _int(message: dict[str, Any], key: str) -> int:
    number = whole_number(message.get(key), low=-(10**9), high=10**9)
    if number is None:
        raise DomainError(_("Give a whole number."))
    return number


def _start(message: dict[str, Any]) -> dict[str, Any]:
    at = clock_services.parse_start_time(str(message.get("at") or ""), now=timezone.now())
    return {"at": at}


def _eod(message: dict[str, Any]) -> dict[str, Any]:
    last = message.get("last_level_of_day")
    return {
        "card": str(message.get("card") or ""),
        "last_level_of_day": last not in (None, "", False, "0", "false"),
    }


def _flag(value: Any) -> bool:
    return value not in (None, "", False, 0, "0", "false", "off")


def _small_int(message: dict[str, Any], key: str) -> int:
    value = _int(message, key)
    if not 0 <= value < 100_000:
        raise DomainError(_("Give a whole number."))
    return value


def _timecall_start(message: dict[str, Any]) -> dict[str, Any]:
    used = message.get("seconds_used")
    return {
        "table_number": _small_int(message, "table"),
        "seat_number": _small_int(message, "seat"),
        "facing_bet": _flag(message.get("facing_bet")),
        "seconds_used": 0 if used in (None, "") else _small_int(message, "seconds_used"),
    }


def _timecall(message: dict[str, Any]) -> dict[str, Any]:
    table = message.get("table")
    return {
        "call_id": _int(message, "call"),
        "table_number": None if table in (None, "") else _small_int(message, "table"),
    }


_NONE = lambda message: {}  # noqa: E731
TD = permissions.TD
FLOOR = permissions.FLOOR

# action -> (roles, service, how the message's fields become keyword arguments)
CONTROLS: dict[str, tuple[frozenset[str], Any, Any]] = {
    "start": (TD, clock_services.clock_start, _start),
    "pause": (TD, clock_services.clock_pause, _NONE),
    "resume": (TD, clock_services.clock_resume, _NONE),
    "toggle": (TD, clock_services.clock_toggle, _NONE),
    "adjust": (TD, clock_services.clock_adjust, lambda m: {"seconds": _int(m, "seconds")}),
    "next": (TD, clock_services.clock_next_level, _NONE),
    "previous": (TD, clock_services.clock_previous_level, _NONE),
    "jump": (TD, clock_services.clock_jump, lambda m: {"index": _int(m, "index")}),
    "h4h_start": (TD, handforhand_services.h4h_start, _NONE),
    "h4h_stop": (TD, handforhand_services.h4h_stop, _NONE),
    "h4h_next_hand": (TD, handforhand_services.h4h_next_hand, _NONE),
    "h4h_table_done": (
        FLOOR,
        handforhand_services.h4h_table_done,
        lambda m: {"table_number": _int(m, "table")},
    ),
    "eod_start": (TD, endofday_services.eod_start, _eod),
    "eod_hand": (FLOOR, endofday_services.eod_hand, lambda m: {"table_number": _int(m, "table")}),
    "eod_stop": (TD, endofday_services.eod_stop, _NONE),
    "timecall_start": (FLOOR, timecall_services.timecall_start, _timecall_start),
    "timecall_acted": (FLOOR, timecall_services.timecall_acted, _timecall),
    "timecall_cancel": (FLOOR, timecall_services.timecall_cancel, _timecall),
    "timecall_expire": (FLOOR, timecall_services.timecall_expire, _timecall),
}
TIMECALL_ACTIONS = ("start", "acted", "cancel", "expire")
