"""What a fuzz target is: one route, how it is called, by whom, and what its input looks
like; and the kinds of a Django form's fields, read from the form.

The event's targets are in routes.py, the room's in room_routes.py.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from bench.fuzzing.worlds import World


@dataclass(frozen=True)
class Target:
    """One route: how it is called, by whom, and what its input looks like.

    `fields` maps a field name to a kind (see `forms._near`); a name may hold a placeholder
    expanded from the world: {entry} (entry numbers), {seat} (1-10), {i} (0-15, chip-set
    rows), {value} (chip values), {dealer} (the room's dealers, room_values.placeholders).
    `kwargs` maps URL arguments to kinds. `base` returns a valid form for the world, which
    cases then mutate. `logged`: an accepted change writes the event log (False where a
    change is by design a counter, not an action).
    """

    method: str
    roles: tuple[str, ...]
    fields: dict[str, str] = field(default_factory=dict)
    kwargs: dict[str, str] = field(default_factory=dict)
    base: Callable[[World], dict[str, Any]] | None = None
    logged: bool = True
    # The body is JSON (a page's script posts it), not a form.
    json: bool = False
    # Settings the route needs to answer at all (e-mail notices where a mail server is set).
    settings: dict[str, Any] = field(default_factory=dict)


def _form_kinds(form_class) -> dict[str, str]:
    """Field kinds of a Django form, read from its fields (a new field is fuzzed at once)."""
    from django import forms

    kinds = {}
    for name, form_field in form_class().fields.items():
        if isinstance(form_field, forms.BooleanField):
            kinds[name] = "bool"
        elif isinstance(form_field, forms.ModelChoiceField):
            # Its choices are rows (another event, say): read from the database only when
            # a case runs, so fuzz them as ids.
            kinds[name] = "int"
        elif isinstance(form_field, forms.ChoiceField):
            kinds[name] = "choice:" + "|".join(str(v) for v, _label in form_field.choices)
        elif isinstance(form_field, forms.DateField):
            kinds[name] = "date"
        elif isinstance(form_field, forms.DateTimeField):
            kinds[name] = "datetime"
        elif isinstance(form_field, forms.TimeField):
            kinds[name] = "time"
        elif isinstance(form_field, forms.DecimalField):
            kinds[name] = "decimal"
        elif isinstance(form_field, forms.IntegerField):
            kinds[name] = "int"
        elif name in {"accessible_seats", "reserved_seats"}:
            kinds[name] = "seat_list"
        else:
            kinds[name] = "text"
    return kinds
