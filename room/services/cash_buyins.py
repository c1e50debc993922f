"""Buy-ins and cash-outs (cash-room.md §10): the game's limits as the buy-in rules read
them, their refusals in words, a seated player's purchase between hands, and the largest
stake a player left a game with during the gaming day, which a return must match."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from room.models import CashGame, CashOut, CashSeat
from room.selectors.cash import game_settings
from room.services.cash_log import CashRefused, _Change
from tables.cash import buyin
from tables.cash.settings import CashSettings
from tournaments.errors import DomainError

BUY_IN_REFUSALS = {
    "hand_in_progress": gettext_lazy("chips are bought only between hands"),
    "below_min_buy_in": gettext_lazy("below the minimum buy-in"),
    "below_limit_minimum_purchase": gettext_lazy("in limit every purchase is at least 20 BB"),
    "short_buy_in_used": gettext_lazy("the short buy-in of this session is used"),
    "below_earlier_cash_out": gettext_lazy(
        "the player left this game today with more: he must come back with at least as much"
    ),
    "above_max_buy_in": gettext_lazy("above the maximum buy-in"),
}


def _game_rules(game: CashGame) -> buyin.Game:
    return buyin.Game(
        structure=game.structure, bb=game.bb, min_buy_in=game.min_buy_in, max_buy_in=game.max_buy_in
    )


def gaming_day_start(now: datetime, settings: CashSettings) -> datetime:
    """The start of the gaming day `now` belongs to (`gaming_day_start`, default 06:00)."""
    local = timezone.localtime(now)
    start = local.replace(hour=0, minute=0, second=0, microsecond=0) + timedelta(
        minutes=settings.gaming_day_start_minutes
    )
    return start if local >= start else start - timedelta(days=1)


def earlier_cash_out(*, player_id: int, game: CashGame, now: datetime) -> int | None:
    """The largest stake the player left this game with today, or None (§10.3)."""
    since = gaming_day_start(now, game_settings(game))
    stacks = CashOut.objects.filter(player_id=player_id, game=game, at__gte=since, at__lte=now)
    return stacks.aggregate(m=Max("stack"))["m"]


@transaction.atomic
def seat_buy(
    *,
    actor: Any,
    seat: CashSeat,
    stack: int,
    amount: int,
    now: datetime,
    bought: int | None = None,
) -> CashSeat:
    """A seated player buys chips between hands: the buy-in check for `seated` (§10.2).

    `bought` is what the seat had bought when the form was drawn: the seat's row is
    locked and its total compared, so the same form sent twice (a double tap, a retry, two
    tablets) sells the chips once; a second sale is a new form."""
    locked = CashSeat.objects.select_for_update().filter(pk=seat.pk).first()
    if locked is None:
        raise CashRefused(reason=_("the seat is free now"))
    if bought is not None and locked.buy_in != bought:
        raise DomainError(_("This buy-in is already recorded."))
    seat.buy_in, seat.short_buy_ins = locked.buy_in, locked.short_buy_ins
    game = seat.table.game
    decision = buyin.check_buy_in(
        game=_game_rules(game),
        kind="seated",
        stack=stack,
        amount=amount,
        short_buy_ins_used=seat.short_buy_ins,
        settings=game_settings(game),
    )
    if not decision.allowed:
        raise CashRefused(reason=BUY_IN_REFUSALS[decision.reason or "below_min_buy_in"])
    change = _Change(game.pk)
    seat.buy_in += amount
    seat.short_buy_ins += 1 if decision.short_buy_in else 0
    seat.save(update_fields=["buy_in", "short_buy_ins"])
    change.log(
        actor=actor,
        action="cash.buy",
        now=now,
        player=seat.player_id,
        amount=amount,
        short=decision.short_buy_in,
        rule=decision.rule,
    )
    return seat
