"""What a bounty event's player paid, what its bounties did, and what the books say agree."""

from __future__ import annotations

import pytest

from tests.conftest import NOW, make_player, make_tournament
from tournaments import errors
from tournaments.events import event_undo
from tournaments.models import BountyAward, Entry
from tournaments.services import entries as entry_services
from tournaments.services import formats as fs
from tournaments.services import results

pytestmark = pytest.mark.django_db


def pko(td, **fields):
    # A €100+15 PKO: 50 to the prize pool, 50 to the bounty, 15 fee.
    return make_tournament(
        td,
        bounty_format="progressive",
        bounty_part_cents=5000,
        buy_in_prize=50,
        buy_in_fee=15,
        **fields,
    )


def fill(tournament, td, n):
    return [
        entry_services.entry_register(
            tournament=tournament, player=make_player(), actor=td, now=NOW
        ).entry
        for _ in range(n)
    ]


def bust(tournament, td, entry):
    results.eliminations_record(
        tournament=tournament,
        busts=[results.Bust(entry=entry, start_stack=1000)],
        actor=td,
        now=NOW,
    )


def test_undoing_a_bust_whose_bounty_was_awarded_is_refused_naming_the_award(td):
    tournament = pko(td)
    costa, winner, _other = fill(tournament, td, 3)
    bust(tournament, td, costa)
    fs.bounty_award_record(
        tournament=tournament, eliminated=costa, portions=[[winner]], actor=td, now=NOW
    )
    elimination = tournament.events.get(action="entry.eliminate")
    with pytest.raises(errors.CannotUndo, match="Bounty awarded"):
        event_undo(event_id=elimination.pk, tournament=tournament, actor=td, now=NOW)
    costa.refresh_from_db()
    assert costa.status == Entry.Status.ELIMINATED
    assert BountyAward.objects.filter(voided=False).count() == 1
    # Undo the award first, then the bust: both allowed, and the bounty is his again.
    award = tournament.events.get(action="bounty.award")
    event_undo(event_id=award.pk, tournament=tournament, actor=td, now=NOW)
    event_undo(event_id=elimination.pk, tournament=tournament, actor=td, now=NOW)
    costa.refresh_from_db()
    assert costa.status == Entry.Status.ACTIVE
    assert fs.bounty_board(tournament)["in_play"] == 3 * 5000
