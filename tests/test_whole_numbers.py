"""Every number typed into a form is read one way: ASCII digits only ("²", "٣" and "1_000"
are no numbers, whatever Python's int() and Decimal() say), in every app's forms, model
forms included."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest
from django import forms

from tournaments.forms.fields import DecimalNumberField, WholeNumberField

FORM_PACKAGES = ("tournaments.forms", "room.forms")
FORM_MODULES = ("tournaments.forms.ruling",)


def _form_classes():
    modules = [importlib.import_module(name) for name in FORM_MODULES]
    for package in FORM_PACKAGES:
        root = importlib.import_module(package)
        modules += [
            importlib.import_module(f"{package}.{info.name}")
            for info in pkgutil.iter_modules(root.__path__)
        ]
    for module in modules:
        for _name, klass in inspect.getmembers(module, inspect.isclass):
            if issubclass(klass, forms.BaseForm) and klass.__module__ == module.__name__:
                yield klass


def _built(klass):
    """The form with the fields its page shows (keyed forms: one key)."""
    if "keys" in inspect.signature(klass.__init__).parameters:
        return klass(keys=["1"])
    try:
        return klass()
    except TypeError:
        return None  # a form built around a row or a hand: its declared fields are checked


@pytest.mark.django_db
def test_every_number_field_of_every_form_reads_ascii_digits_only():
    checked, plain = 0, []
    for klass in _form_classes():
        form = _built(klass)
        fields = form.fields if form is not None else klass.base_fields
        for name, field in fields.items():
            # A DecimalField is an IntegerField to Django: an amount has its own reader.
            if isinstance(field, forms.DecimalField):
                reader = DecimalNumberField
            elif isinstance(field, forms.IntegerField):
                reader = WholeNumberField
            else:
                continue
            checked += 1
            if not isinstance(field, reader):
                plain.append(f"{klass.__module__}.{klass.__name__}.{name}")
    assert plain == []
    assert checked > 60  # the walk reaches the forms (a broken walk checks nothing)


@pytest.mark.django_db
def test_a_model_forms_number_in_other_digits_is_refused():
    from tournaments.forms.setup import TournamentForm

    form = TournamentForm(data={"starting_stack": "٣٠٠٠٠", "tax_percent": "٣"})
    assert not form.is_valid()
    assert {"starting_stack", "tax_percent"} <= set(form.errors)
