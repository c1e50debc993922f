"""Each tournament's entries counted one by one, beside the tally the database keeps of
them (tournaments.models.EntryTally): the suite checks one against the other."""

from __future__ import annotations

from django.db.models import Count, Q, Sum

from tournaments.models import Entry, EntryTally


def counted() -> dict[int, tuple[int, int, int, int, int]]:
    kept = ~Q(status=Entry.Status.VOIDED)
    rows = (
        Entry.objects.order_by()
        .values("tournament_id")
        .annotate(
            entries=Count("id", filter=kept),
            active=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
            chips=Sum("chips", filter=kept),
            removed=Sum("chips_removed", filter=kept),
            buy_ins=Count("id", filter=kept & ~Q(kind=Entry.Kind.CARRIED)),
        )
    )
    return {
        row["tournament_id"]: (
            row["entries"],
            row["active"],
            int(row["chips"] or 0),
            int(row["removed"] or 0),
            row["buy_ins"],
        )
        for row in rows
    }


def tallied() -> dict[int, tuple[int, int, int, int, int]]:
    return {
        t.tournament_id: (t.entries, t.active, t.chips, t.removed, t.buy_ins)
        for t in EntryTally.objects.all()
    }


def tally_mismatches() -> list[str]:
    """Tournaments whose tally differs from their entries (a tournament whose entries
    were all deleted may keep a row of zeros)."""
    real, kept = counted(), tallied()
    zero = (0, 0, 0, 0, 0)
    return [
        f"tournament {pk}: tally {kept.get(pk, zero)}, entries {real.get(pk, zero)}"
        for pk in sorted(set(real) | set(kept))
        if kept.get(pk, zero) != real.get(pk, zero)
    ]
