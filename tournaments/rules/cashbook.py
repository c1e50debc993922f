"""The books of the night, as pure arithmetic. No Django, no clock.

Money taken at the desk (sales: entries, re-entries, rebuys, add-ons, each with its
payment method and clerk) less money given back (refunds of voided sales, prizes paid)
plus recorded corrections is what the drawer should hold. Where that money belongs: the
house's fees and share, the taxes, and the prize pool still owed to players (the pool
less the added money and overlay the house put in, less what is already paid). The two
agree to zero when every voided sale was refunded and nothing went missing.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal

METHODS: tuple[str, ...] = ("cash", "card", "voucher")
# A correction to a closed night fixes a miscount: beyond this, either way (in the books'
# whole currency units), it is a typing slip, not a correction.
CORRECTION_MAX = 100_000

# The books count in whole currency units; a bounty part or a bounty paid may carry cents
# (a PKO's half of 25 is 12.50), and then the figure is a Decimal with two places.
Amount = int | Decimal


def from_cents(cents: int) -> Amount:
    """An amount kept in cents, in the books' units: whole when it is."""
    if cents % 100 == 0:
        return cents // 100
    return Decimal(cents).scaleb(-2)


@dataclass(frozen=True)
class Sale:
    kind: str  # "entry" | "reentry" | "rebuy" | "addon"
    method: str
    clerk: str
    amount: Amount
    voided: bool = False


@dataclass(frozen=True)
class Payment:
    """Money out (a refund or a prize) or a correction (signed: positive is money in)."""

    # "refund" | "prize" | "bounty" | "correction" | "rake" | "jackpot_drop" (the cash
    # room's drops, money in held for the players) | "jackpot_paid" (a jackpot handed to
    # players) | "jackpot_room" (the room's share of a jackpot: from the players' to the
    # house's, no money moves).
    kind: str
    method: str
    clerk: str
    amount: Amount


@dataclass(frozen=True)
class Allocation:
    """Where the event's money belongs, from the prize pool's own figures."""

    fees: int = 0
    house_share: int = 0
    taxes: int = 0
    prize_pool: int = 0
    added_money: int = 0
    overlay: int = 0
    guarantee: int = 0
    prizes_paid: int = 0
    deals: int = 0
    # A bounty event's bounty parts sold less the bounties paid out: the players' money
    # still in the drawer for their heads (or added to the prize pool, not paid yet).
    bounties_held: Amount = 0

    def __add__(self, other: Allocation) -> Allocation:
        return Allocation(
            *(getattr(self, name) + getattr(other, name) for name in Allocation.__annotations__)
        )

    @property
    def held_for_players(self) -> int:
        """The prize money still to pay out."""
        return self.prize_pool - self.prizes_paid

    @property
    def accounted(self) -> Amount:
        """What the drawer should hold: the house's, the taxman's and the players' money,
        less what the house itself put into the pool (added money and overlay)."""
        return (
            self.fees
            + self.house_share
            + self.taxes
            + self.held_for_players
            + self.bounties_held
            - self.added_money
            - self.overlay
        )


@dataclass
class MethodLine:
    taken: Amount = 0
    given_back: Amount = 0
    corrections: Amount = 0

    @property
    def net(self) -> Amount:
        return self.taken - self.given_back + self.corrections


@dataclass
class ClerkLine:
    sales: int = 0
    taken: Amount = 0
    voids: int = 0
    refunded: Amount = 0


@dataclass
class Books:
    counts: dict[str, int] = field(default_factory=dict)
    amounts: dict[str, Amount] = field(default_factory=dict)
    by_method: dict[str, MethodLine] = field(default_factory=dict)
    by_clerk: dict[str, ClerkLine] = field(default_factory=dict)
    taken: Amount = 0
    voided: Amount = 0
    refunds: Amount = 0
    prizes_paid: Amount = 0
    bounties_paid: Amount = 0
    corrections: Amount = 0
    rake: Amount = 0
    jackpot_drops: Amount = 0
    jackpots_paid: Amount = 0
    jackpot_room: Amount = 0
    drawer: Amount = 0
    accounted: Amount = 0

    @property
    def jackpot_held(self) -> Amount:
        """The night's change in the jackpot money held for the players: the drops taken
        less what was paid out of the fund (to players, or to the house as its share). A
        jackpot paid from the drops of earlier nights makes it negative: that money comes
        out of the fund's safe, not out of the night's takings."""
        return self.jackpot_drops - self.jackpots_paid - self.jackpot_room

    @property
    def difference(self) -> Amount:
        return self.drawer - self.accounted

    @property
    def balances(self) -> bool:
        return self.difference == 0


def books(
    sales: Iterable[Sale],
    payments: Iterable[Payment],
    allocation: Allocation,
) -> Books:
    """Add up the sales and payments by kind, method and clerk, and balance them against
    the allocation. Rake (the cash room's) is money in that belongs to the house; its
    jackpot drops are money in held for the players."""
    result = Books(by_method={method: MethodLine() for method in METHODS})
    for sale in sales:
        method = result.by_method.setdefault(sale.method, MethodLine())
        clerk = result.by_clerk.setdefault(sale.clerk, ClerkLine())
        method.taken += sale.amount
        clerk.sales += 1
        clerk.taken += sale.amount
        result.taken += sale.amount
        if sale.voided:
            result.voided += sale.amount
            clerk.voids += 1
        else:
            result.counts[sale.kind] = result.counts.get(sale.kind, 0) + 1
            result.amounts[sale.kind] = result.amounts.get(sale.kind, 0) + sale.amount
    for payment in payments:
        method = result.by_method.setdefault(payment.method, MethodLine())
        if payment.kind == "correction":
            method.corrections += payment.amount
            result.corrections += payment.amount
        elif payment.kind == "rake":
            method.taken += payment.amount
            result.rake += payment.amount
        elif payment.kind == "jackpot_drop":
            method.taken += payment.amount
            result.jackpot_drops += payment.amount
        elif payment.kind == "jackpot_room":
            result.jackpot_room += payment.amount
        elif payment.kind == "jackpot_paid":
            method.given_back += payment.amount
            result.jackpots_paid += payment.amount
        else:
            method.given_back += payment.amount
            if payment.kind == "refund":
                result.refunds += payment.amount
                result.by_clerk.setdefault(payment.clerk, ClerkLine()).refunded += payment.amount
            elif payment.kind == "bounty":
                result.bounties_paid += payment.amount
            else:
                result.prizes_paid += payment.amount
    result.drawer = (
        result.taken + result.rake - result.refunds - result.prizes_paid - result.bounties_paid
    )
    result.drawer += result.corrections + result.jackpot_drops - result.jackpots_paid
    # The jackpot money is the players', held by the house: a liability beside the prize
    # pool, never the house's income (but for the room's share of a jackpot paid).
    result.accounted = (
        allocation.accounted + result.rake + result.jackpot_held + result.jackpot_room
    )
    return result
