"""Template filters that turn codes into words (tournaments.labels)."""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from tables.ruling.citations import citations
from tournaments import labels, permissions

register = template.Library()


@register.filter
def penalty_kind(code: str) -> Any:
    return labels.penalty_kind(code)


@register.filter
def clock_status(code: str) -> Any:
    return labels.clock_status(code)


@register.filter
def elimination_reason(code: str) -> Any:
    return labels.elimination_reason(code)


@register.filter
def deal_method(code: str) -> Any:
    return labels.DEAL_METHODS.get(code, code)


@register.filter
def violation(v: Any) -> str:
    return labels.violation(v.code, v.table_id, v.detail)


@register.filter
def cite(codes: Any) -> SafeString:
    """Render rule codes (a list, or a comma-separated string) as their short titles, each
    with the rule's text shown on hover or on a tap (the span takes the focus)."""
    if not codes:
        return SafeString("")
    return format_html_join(
        ", ",
        '<span class="cite" tabindex="0" data-rule="{}"><span class="cite-title">{}</span>'
        '<span class="cite-text" role="tooltip">{}</span></span>',
        ((c.code, c.title, c.hint) for c in citations(codes)),
    )


# The staff navigation: the same links on every staff page for a role,
# the page you are on marked with aria-current. (url name, label, roles, pages it covers)
_TD, _FLOOR, _DESK = "td", "floor", "desk"
_SETUP_PAGES = (
    "tournament_edit",
    "structure_edit",
    "tables_edit",
    "staff_edit",
    "tournament_clone",
)
NAV = (
    # The overview also leads to the player list, the printouts and the books (one nav row
    # at 1366 px in both languages).
    (
        "tournament_home",
        _("Overview"),
        None,
        (
            "player_list",
            "player_list_export",
            "table_counts",
            "printout",
            "event_books",
            "sale_void",
        ),
    ),
    ("desk", _("Desk"), (_TD, _DESK), ("purchase", "seat_card")),
    ("room", _("Room"), (_TD, _FLOOR), ("room_table",)),
    ("clock_console", _("Clock"), (_TD, _FLOOR), ()),
    ("ruling_tool", _("Ruling"), (_TD, _FLOOR), ("ruling_detail", "dealer_tablet")),
    ("eliminations", _("Eliminations"), None, ()),
    ("penalties", _("Penalties"), None, ()),
    ("money", _("Payouts"), None, ()),
    ("chips", _("Chips"), None, ()),
    ("days", _("Days"), None, ()),
    ("event_log", _("Log"), None, ()),
    ("screens", _("Screens"), (_TD,), ()),
    ("tournament_edit", _("Setup"), (_TD,), _SETUP_PAGES),
)
SETUP_NAV = (
    ("tournament_edit", _("Settings")),
    ("structure_edit", _("Structure")),
    ("tables_edit", _("Tables")),
    ("staff_edit", _("Staff")),
)


def _current(context) -> str:
    request = context.get("request")
    match = getattr(request, "resolver_match", None)
    return match.url_name if match is not None else ""


@register.inclusion_tag("partials/_staff_nav.html", takes_context=True)
def staff_nav(context) -> dict[str, Any]:
    """The staff navigation for the user's role in this tournament."""
    tournament = context["tournament"]
    request = context.get("request")
    role = permissions.role_for(getattr(request, "user", None), tournament)
    here = _current(context)
    links = [
        {
            "name": name,
            "url": reverse(name, args=[tournament.slug]),
            "label": label,
            "current": here == name or here in covers,
        }
        for name, label, roles, covers in NAV
        if roles is None or role in roles
    ]
    if tournament.bounty_format != "none" or tournament.prize_type == "seats":
        # The event format's own page, beside the eliminations it follows (formats.md).
        label = _("Seats") if tournament.prize_type == "seats" else _("Bounties")
        at = next(i for i, link in enumerate(links) if link["name"] == "eliminations") + 1
        links.insert(
            at,
            {
                "name": "bounties",
                "url": reverse("bounties", args=[tournament.slug]),
                "label": label,
                "current": here.startswith(
                    ("bounty", "bounties", "envelope", "seat_award", "mystery")
                ),
            },
        )
    return {"links": links}


@register.inclusion_tag("partials/_setup_nav.html", takes_context=True)
def setup_nav(context) -> dict[str, Any]:
    """The setup pages' own row (settings, structure, tables, staff)."""
    from django.urls import reverse

    tournament = context["tournament"]
    here = _current(context)
    return {
        "links": [
            {"url": reverse(name, args=[tournament.slug]), "label": label, "current": here == name}
            for name, label in SETUP_NAV
        ]
    }
