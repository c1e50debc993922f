"""Words for the codes the rules and the models use, in the user's language.

Staff and players read words, never internal codes: every code a
screen or a report shows goes through one of these maps. Unknown codes come back as
they are, so a new code shows up (and is caught by the tests) rather than vanishing.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

from django.utils.formats import number_format
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext, pgettext_lazy

PENALTY_KINDS = {
    "warning": _("Warning"),
    "missed_hands": _("Missed hands"),
    "missed_rounds": _("Missed rounds"),
    "hand_annulled": _("Hand annulled"),
    "chip_loss": _("Chip loss"),
    "elimination": _("Elimination"),
    "disqualification": _("Disqualification"),
}

CLOCK_STATUSES = {
    "not_started": pgettext_lazy("clock status", "Not started"),
    "scheduled": pgettext_lazy("clock status", "Scheduled"),
    "running": pgettext_lazy("clock status", "Running"),
    "paused": pgettext_lazy("clock status", "Paused"),
    "finished": pgettext_lazy("clock status", "Finished"),
    "no_structure": _("No structure yet."),
}

ELIMINATION_REASONS = {
    "lost_in_play": _("Lost in play"),
    "penalty_elimination": _("Eliminated by penalty"),
    "disqualification": _("Disqualification"),
    "blinded_out_while_absent": _("Blinded out while absent"),
}

TABLE_EVENTS = {
    "hand": _("Hand"),
    "misdeal": _("Misdeal"),
    "redeal": _("Redeal"),
    "end_of_day": _("End of day"),
    "table_broken": _("Table broken"),
}

DEAL_METHODS = {
    "icm": _("ICM"),
    "chip_chop": _("Chip chop"),
}

_NUMBERS = re.compile(r"\d+")


def penalty_kind(code: str) -> Any:
    return PENALTY_KINDS.get(code, code)


def clock_status(code: str) -> Any:
    return CLOCK_STATUSES.get(code, code)


def elimination_reason(code: str) -> Any:
    return ELIMINATION_REASONS.get(code, code)


def violation(code: str, table: str | None, detail: str) -> str:
    """A sentence for a breach of the room policy (tables.rules.balancing.check_room)."""
    numbers = _NUMBERS.findall(detail)
    if code == "unbalanced" and len(numbers) >= 2:
        return str(
            _(
                "Out of balance: the fullest table has %(gap)s more players than the "
                "shortest (at most %(limit)s allowed)."
            )
            % {"gap": numbers[0], "limit": numbers[1]}
        )
    if code == "over_capacity" and len(numbers) >= 2:
        return str(
            _("Table %(table)s has %(players)s players for %(seats)s seats.")
            % {"table": table, "players": numbers[0], "seats": numbers[1]}
        )
    seat = numbers[0] if numbers else "?"
    sentences = {
        "seat_out_of_range": _("Table %(table)s has no seat %(seat)s."),
        "locked_seat_occupied": _("Someone sits in locked seat %(seat)s at table %(table)s."),
        "seat_double_booked": _("Seat %(seat)s at table %(table)s is given to two players."),
        "player_seated_twice": _("A player holds two seats (table %(table)s)."),
    }
    if code in sentences:
        return str(sentences[code] % {"table": table, "seat": seat})
    return f"{code}: {detail}"


def _seat(pair: Any) -> str:
    if isinstance(pair, list | tuple) and len(pair) == 2:
        return str(_("Table %(table)s · Seat %(seat)s") % {"table": pair[0], "seat": pair[1]})
    return ""


def event_details(
    event: Any, names: dict[int, str], currency: str = "", sizes: Mapping[str, int] | None = None
) -> str:
    """What a log row is about, in words: the player(s), seats, and every amount.

    `names` maps entry ids to player names for rows that logged only the entry. `sizes`:
    the full length of each list that `event.data` holds cut short (the log's list reads
    a few moves of a balance of hundreds); the words say how many more there are."""
    data = event.data or {}
    parts: list[str] = []
    who = data.get("name") or ", ".join(data.get("names") or [])
    if not who and isinstance(data.get("entry"), int):
        who = names.get(data["entry"], "")
    if who:
        parts.append(who)
    if data.get("from") and data.get("to"):
        parts.append(f"{_seat(data['from'])} → {_seat(data['to'])}")
    elif data.get("table") and data.get("seat"):
        parts.append(_seat([data["table"], data["seat"]]))
    moves = data.get("moves") or []
    for move in moves:
        parts.append(f"{move.get('name', '')}: {_seat(move.get('from'))} → {_seat(move.get('to'))}")
    _more(parts, moves, sizes, "moves")
    action = event.action
    if action in {"entry.rebuy", "entry.addon"}:
        parts.append(
            str(
                _("%(chips)s chips for %(price)s %(currency)s")
                % {"chips": data.get("chips"), "price": data.get("price"), "currency": currency}
            )
        )
    elif action == "penalty.give":
        parts.append(str(penalty_kind(data.get("kind", ""))))
        if data.get("hands"):
            hands = data["hands"]
            parts.append(ngettext("%(n)s hand", "%(n)s hands", hands) % {"n": hands})
        if data.get("offence"):
            parts.append(data["offence"])
    elif action == "chips.remove":
        parts.append(str(_("%(n)s chips removed from play") % {"n": data.get("amount")}))
    elif action == "chips.race":
        parts.append(
            str(
                _("%(n)s chips raced off, %(added)s added")
                % {"n": data.get("chips_raced"), "added": data.get("chips_added")}
            )
        )
    elif action == "chips.leftovers":
        parts.append(str(_("%(n)s chips removed from play") % {"n": data.get("removed_value")}))
    elif action == "clock.adjust":
        seconds = data.get("seconds") or 0
        parts.append(ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds})
    elif action == "entry.eliminate":
        places = data.get("places") or {}
        shown = [
            str(p[0]) + (f"–{p[1]}" if p[1] else "")
            for p in places.values()
            if isinstance(p, list) and p and p[0]
        ]
        if shown:
            parts.append(str(_("place %(places)s") % {"places": ", ".join(shown)}))
        prizes = [v for v in (data.get("prizes") or {}).values() if v]
        if prizes:
            parts.append(
                str(
                    _("prize %(amount)s %(currency)s")
                    % {"amount": ", ".join(map(str, prizes)), "currency": currency}
                )
            )
    elif action == "deal.record":
        total = sum(int(s.get("amount", 0)) for s in data.get("shares") or [])
        parts.append(
            str(_("%(total)s %(currency)s dealt") % {"total": total, "currency": currency})
        )
    elif action == "payouts.set" and data.get("after"):
        parts.append(", ".join(map(str, data["after"])))
        _more(parts, data["after"], sizes, "after")
    return " · ".join(p for p in parts if p)


def _more(parts: list[str], shown: Any, sizes: Mapping[str, int] | None, key: str) -> None:
    hidden = (sizes or {}).get(key, 0) - len(shown)
    if hidden > 0:
        parts.append(ngettext("and %(n)s more", "and %(n)s more", hidden) % {"n": hidden})


def cents_text(value: object) -> str:
    """An amount kept in integer cents as money in the user's number format: 123456 ->
    "1,234.56" ("1.234,56" in Italian); anything else is shown as it is. Grouped whatever
    USE_THOUSAND_SEPARATOR says: that setting would also group the plain numbers the
    templates write into form fields and data attributes."""
    if isinstance(value, bool) or not isinstance(value, int):
        return "" if value is None else str(value)
    return number_format(Decimal(value) / 100, 2, use_l10n=True, force_grouping=True)
