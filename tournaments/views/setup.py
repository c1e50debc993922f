"""TD setup pages (being written): tournament settings, structure, tables, staff, clone."""

from django.http import Http404


def _pending(*args, **kwargs):
    raise Http404


tournament_create = tournament_edit = structure_edit = tables_edit = staff_edit = _pending
tournament_clone = _pending
