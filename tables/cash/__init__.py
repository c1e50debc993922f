"""The cash-game room's rules (cash-room.md), pure: no Django, no clock, no randomness.

Times are passed in as datetimes, draws as the cards or seat cards already drawn. Every
decision carries the rule it applies (`rule`, a citation in cash-room.md §0 style).
Modules: settings (the room settings of §3 and their defaults), waitlist (§6), opening (§7),
changes (§8), closing (§9), buyin (§10), absence (§11), rake (§12).
"""
