"""Domain errors. Each carries a message in the user's language; views show it as is."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _


class DomainError(Exception):
    """A refused floor action: nothing was changed."""

    message = _("This action is not allowed.")

    def __init__(self, message: str | None = None, **params: object) -> None:
        self.params = params
        if message is not None:
            self.message = message
        super().__init__(str(self))

    def __str__(self) -> str:
        return str(self.message) % self.params if self.params else str(self.message)


class LateRegistrationClosed(DomainError):
    message = _("Late registration is closed.")


class TournamentFinished(DomainError):
    message = _("The tournament is over.")


class PlayerAlreadyActive(DomainError):
    message = _("%(player)s is already playing (table %(table)s, seat %(seat)s).")


class EntryLimitReached(DomainError):
    message = _("%(player)s has used all %(limit)s entries allowed.")


class ReentryNotAllowed(DomainError):
    message = _("This is a freezeout: a player who is eliminated cannot re-enter.")


class ForfeitNotAllowed(DomainError):
    message = _("Players may not give up their stack to re-enter in this tournament.")


class RoomFull(DomainError):
    message = _("The room is full: every seat is taken and no table is left to open.")


class NoAccessibleSeat(DomainError):
    message = _("No accessible seat is free. Free one or mark another seat as accessible.")


class RebuyNotAllowed(DomainError):
    message = _("A rebuy is not possible: %(reason)s")


class AddonNotAllowed(DomainError):
    message = _("An add-on is not possible: %(reason)s")


class NotPlaying(DomainError):
    message = _("%(player)s is not playing in this tournament.")


class SeatTaken(DomainError):
    message = _("Table %(table)s, seat %(seat)s is taken.")


class CannotUndo(DomainError):
    message = _("This action cannot be undone: %(reason)s")


class InvalidStructure(DomainError):
    message = _("The structure is not valid: %(reason)s")


class TablesInUse(DomainError):
    message = _("Table %(table)s has players seated; move them before changing it.")


class InvalidHand(DomainError):
    message = _("The hand cannot be saved: %(reason)s")


class BadBackup(DomainError):
    message = _("This file cannot be imported: %(reason)s Nothing was changed.")
