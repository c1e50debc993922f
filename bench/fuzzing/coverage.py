"""What the project's views read: every named URL, and the request fields each view reads
by name (and the helpers of its module and the forms it calls), so that a field missing
from a target's spec is found (tests/fuzz/test_forms_fuzz.py).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from bench.fuzzing.spec import Target


def url_names() -> set[str]:
    """Every named URL of the project (as tests/test_permissions.py walks them)."""
    from django.urls import get_resolver

    names: set[str] = set()

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
            elif pattern.name:
                names.add(pattern.name)

    walk(get_resolver().url_patterns)
    return names


_READ = re.compile(r"\b(?:POST|GET)\.(?:get|getlist)\(\s*f?\"([^\"]*)\"")
_HELPER = re.compile(r"\b(_\w+)\(")
_SLOT = re.compile(r"\{[^}]*\}")
# A form bound to the request's data (an unbound form only renders: it reads nothing).
_FORM = re.compile(
    r"(?<![\w.])(?:(\w*forms)\.)?(\w+Form)\(\s*(?:request\.(?:POST|GET)|data\b)([^)]*)"
)
_MADE = re.compile(r"self\.fields\[\s*f?\"([^\"]*)\"\s*\]\s*=")
# The project's own apps (Django's views, login and language, read nothing of ours).
_OURS = ("tournaments.", "tables.", "room.")


def _form_fields(form_class) -> set[str]:
    """What a Django form reads: its declared fields and those its __init__ makes per
    player, seat or chip (``stack_{n}``)."""
    import inspect

    names = set(getattr(form_class, "base_fields", {}))
    if "keys" in inspect.signature(form_class.__init__).parameters or any(
        "keys" in inspect.signature(k.__init__).parameters
        for k in form_class.__mro__
        if "__init__" in k.__dict__ and k.__module__.startswith(_OURS)
    ):
        names |= set(form_class(keys=["{}"]).fields)  # one field per key: "stack_{}"
    for klass in form_class.__mro__:
        init = klass.__dict__.get("__init__")
        if init is not None and klass.__module__.startswith(_OURS):
            made = {_SLOT.sub("{}", n) for n in _MADE.findall(inspect.getsource(init))}
            names |= {n for n in made if not n.startswith("{")}  # keyed: named below
    return names


def fields_read(name: str) -> set[str]:
    """The request fields the view of URL `name` reads by name (and the helpers of its
    module that it calls), with f-string parts as "{}": a field missing from the target's
    spec would not be fuzzed."""
    import inspect

    from django.urls import get_resolver

    callbacks = {}

    def walk(patterns):
        for pattern in patterns:
            if hasattr(pattern, "url_patterns"):
                walk(pattern.url_patterns)
            elif pattern.name:
                callbacks[pattern.name] = pattern.callback

    walk(get_resolver().url_patterns)
    view = inspect.unwrap(callbacks[name])
    module = inspect.getmodule(view)
    if module is None or not module.__name__.startswith(_OURS):
        return set()  # Django's own views (login, logout, language)
    seen, todo, reads = set(), [view], set()
    while todo:
        function = todo.pop()
        if function in seen:
            continue
        seen.add(function)
        source = inspect.getsource(function)
        reads |= {_SLOT.sub("{}", field) for field in _READ.findall(source)}
        for alias, form_name, rest in _FORM.findall(source):
            holder = getattr(module, alias, None) if alias else module
            form_class = getattr(holder, form_name, None)
            if form_class is not None:
                names = _form_fields(form_class)
                # A prefixed form (one per row of a page) reads "<prefix>-<name>".
                reads |= {"{}-" + n for n in names} if "prefix=" in rest else names
        for helper in _HELPER.findall(source):
            found = getattr(module, helper, None)
            if inspect.isfunction(found) and found.__module__ == module.__name__:
                todo.append(found)
    return reads


def spec_fields(target: Target) -> set[str]:
    return {_SLOT.sub("{}", name) for name in target.fields}
