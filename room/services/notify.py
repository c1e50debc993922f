"""Tell players what happened to them, where they opted in: Web Push to their phones
(VAPID, RFC 8292; payload encrypted, RFC 8291) and e-mail through Django's backend.

The room learns what happened from the event logs' rows (room/receivers.py), after their
transaction commits, in a Celery task (room/tasks.py): the rules decide who is told what
(room/rules/notices.py), each message is worded in the language the player opted in with.
A push service that says a subscription is gone (404, 410) gets it deleted.
"""

from __future__ import annotations

import base64
import json
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from typing import Any

import requests
from django.conf import settings
from django.core.mail import EmailMessage
from django.urls import reverse
from django.utils import formats, timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from room import tokens
from room.models import EmailOptIn, PushSubscription, RoomEvent
from room.rules import notices as rules
from room.selectors import cash as cash_reads
from room.selectors import notify as selectors
from room.selectors.notify import Recipient
from tournaments.models import Event, Player

logger = logging.getLogger(__name__)

log = logging.getLogger(__name__)

# The answers a cash call's notification offers (a browser shows the first two as buttons
# where it shows only two; the page it opens has all three).
MORE_MINUTES = 5
PUSH_TIMEOUT = 10  # seconds a push service may take to answer
GONE = {404, 410}  # the push service's "this subscription no longer exists"


@cache
def _vapid() -> Vapid | None:
    pem = settings.VAPID_PRIVATE_KEY
    return Vapid.from_pem(pem.encode()) if pem else None


def vapid_public_key() -> str:
    """The key a phone subscribes with (applicationServerKey): the raw P-256 point,
    base64url. Empty when the room has no VAPID key (no push)."""
    vapid = _vapid()
    if vapid is None:
        return ""
    from cryptography.hazmat.primitives import serialization

    raw = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass(frozen=True)
class Message:
    title: str
    body: str
    url: str
    tag: str
    ttl: int = 3600  # seconds a push service keeps it for a phone that is off
    urgent: bool = False
    actions: tuple[tuple[str, str], ...] = ()
    answer: str = ""  # the signed address the notification's buttons post to

    def payload(self) -> dict[str, Any]:
        return {
            "title": self.title,
            "body": self.body,
            "url": self.url,
            "tag": self.tag,
            "actions": [{"action": a, "title": t} for a, t in self.actions],
            "answer": self.answer,
        }


def _time(value: datetime) -> str:
    return formats.time_format(timezone.localtime(value), "H:i")


def _cash_message(notice: rules.Notice, who: Recipient, language: str) -> Message | None:
    call = who.call
    if call is None or call.called_at is None:
        return None
    status = cash_reads.call_status(call, timezone.now())
    deadline = call.called_at if status is None else status.deadline
    answer = tokens.answer_token(
        entry_id=call.pk, player_id=who.player.pk, called_at=call.called_at, language=language
    )
    return Message(
        title=_("Your seat is ready"),
        body=_("%(game)s: table %(table)s, seat %(seat)s. Answer by %(time)s.")
        % {
            "game": call.game,
            "table": notice.facts["table"],
            "seat": notice.facts["seat"],
            "time": _time(deadline),
        },
        url=reverse("room_notify_cash", args=[tokens.player_token(who.player.pk)]),
        tag=f"cash-call-{call.pk}",
        ttl=max(60, int((deadline - timezone.now()).total_seconds())),
        urgent=True,
        actions=(
            ("coming", _("On my way")),
            (
                "more",
                ngettext("Need %(n)s more minute", "Need %(n)s more minutes", MORE_MINUTES)
                % {"n": MORE_MINUTES},
            ),
            ("cancel", _("Cancel")),
        ),
        answer=reverse("room_notify_answer", args=[answer]),
    )


def _tournament_words(notice: rules.Notice, who: Recipient) -> tuple[str, str] | None:
    """(title, body) of a tournament notice; None when there is nothing to tell him."""
    facts = notice.facts
    where = {"table": facts.get("table"), "seat": facts.get("seat")}
    if notice.kind == "seat_drawn":
        return _("Your seat"), _("Table %(table)s, seat %(seat)s.") % where
    if notice.kind == "seat_moved":
        return _("You have been moved"), _("Your new seat: table %(table)s, seat %(seat)s.") % where
    if notice.kind == "table_broken":
        return _("Your table is broken"), _(
            "Table %(old)s is broken: your new seat is table %(table)s, seat %(seat)s."
        ) % {**where, "old": facts.get("from_table")}
    if notice.kind == "hand_for_hand":
        return _("Hand-for-hand"), _("Hand-for-hand has started: wait for the floor to deal.")
    if notice.kind == "bubble":
        return _("The money bubble"), _(
            "Hand-for-hand has started on the bubble: the next one out leaves with nothing."
        )
    if notice.kind == "in_the_money":
        return _("You are in the money"), _("The bubble has burst: every player left is paid.")
    if notice.kind == "payout_ready":
        entry = who.entry
        if entry is None or not entry.prize:
            return None
        return _("Your prize is ready"), _(
            "You finished in place %(place)s: your prize of %(amount)s %(currency)s is "
            "ready at the cage."
        ) % {
            "place": entry.place,
            "amount": formats.number_format(entry.prize, use_l10n=True, force_grouping=True),
            "currency": entry.tournament.currency,
        }
    return None


def message_for(notice: rules.Notice, who: Recipient, language: str) -> Message | None:
    """The notice worded for this player in `language`; None when it tells him nothing."""
    with translation.override(language):
        if notice.kind == "cash_seat_ready":
            return _cash_message(notice, who, language)
        words = _tournament_words(notice, who)
        if words is None or who.entry is None:
            return None
        tournament = who.entry.tournament
        return Message(
            title=f"{tournament.name}: {words[0]}",
            body=words[1],
            url=reverse("room_notify_page", args=[tokens.player_token(who.player.pk)]),
            tag=f"t{tournament.pk}-{notice.kind}",
        )


# --- delivery ---------------------------------------------------------------------------


def push_send(subscription: PushSubscription, message: Message) -> int:
    """Send one push; returns the push service's status (0: it could not be reached)."""
    vapid = _vapid()
    if vapid is None:
        return 0
    headers = {"Urgency": "high" if message.urgent else "normal"}
    try:
        response = webpush(
            subscription_info={
                "endpoint": subscription.endpoint,
                "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
            },
            data=json.dumps(message.payload()),
            vapid_private_key=vapid,
            # A new dict each time: the library writes the audience and expiry into it.
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            ttl=message.ttl,
            headers=headers,
            timeout=PUSH_TIMEOUT,
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else 0
        if status not in GONE:
            log.warning("push to %s refused: %s", subscription.endpoint[:60], exc)
        return status
    except requests.RequestException as exc:
        log.warning("push to %s failed: %s", subscription.endpoint[:60], exc)
        return 0
    return response.status_code


def _email(opt_in: EmailOptIn, message: Message, base_url: str) -> EmailMessage:
    off = base_url + reverse("room_notify_off", args=[tokens.off_token("email", opt_in.pk)])
    with translation.override(opt_in.language):
        body = "\n\n".join(
            [
                message.body,
                _("Your page: %(url)s") % {"url": base_url + message.url},
                _("Stop these e-mails with one tap: %(url)s") % {"url": off},
            ]
        )
    return EmailMessage(
        subject=message.title,
        body=body,
        to=[opt_in.email],
        headers={
            # Mail apps show their own unsubscribe button and post here (RFC 8058).
            "List-Unsubscribe": f"<{off}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
    )


@dataclass(frozen=True)
class Sent:
    pushes: int
    emails: int
    gone: int


def deliver(pairs: list[tuple[rules.Notice, Recipient]]) -> Sent:
    """Word each notice for each of the player's opt-ins and send it. Pushes go out side by
    side (each waits on a push service); dead subscriptions are deleted after."""
    players = [who.player.pk for _n, who in pairs]
    subs: dict[int, list[PushSubscription]] = {}
    for sub in selectors.subscriptions(players):
        subs.setdefault(sub.player_id, []).append(sub)
    mails: dict[int, list[EmailOptIn]] = {}
    if settings.NOTIFY_BY_EMAIL:
        for opt_in in selectors.email_opt_ins(players):
            mails.setdefault(opt_in.player_id, []).append(opt_in)
    pushes: list[tuple[PushSubscription, Message]] = []
    emails: list[EmailMessage] = []
    for notice, who in pairs:
        for sub in subs.get(who.player.pk, []):
            message = message_for(notice, who, sub.language)
            if message is not None:
                pushes.append((sub, message))
        for opt_in in mails.get(who.player.pk, []):
            message = message_for(notice, who, opt_in.language)
            if message is not None:
                emails.append(_email(opt_in, message, opt_in_base_url(opt_in)))
    statuses: list[int] = []
    if pushes:
        with ThreadPoolExecutor(max_workers=min(8, len(pushes))) as pool:
            statuses = list(pool.map(lambda p: push_send(*p), pushes))
    gone = {sub.pk for (sub, _m), status in zip(pushes, statuses, strict=True) if status in GONE}
    if gone:
        PushSubscription.objects.filter(pk__in=gone).delete()
    for email in emails:
        try:
            email.send()
        except Exception:  # noqa: BLE001 - a mail server down never fails the floor's action
            logger.warning("a notice by e-mail could not be sent", exc_info=True)
    ok = sum(1 for s in statuses if 200 <= s < 300)
    return Sent(pushes=ok, emails=len(emails), gone=len(gone))


def opt_in_base_url(opt_in: EmailOptIn) -> str:
    """The address the player opted in at: the e-mail's links lead back there."""
    return opt_in.base_url.rstrip("/")


def row_notify(*, log_name: str, row: Event | RoomEvent) -> Sent:
    """Tell the players concerned what a committed log row says happened. `log_name`:
    "event" (a tournament's log) or "room" (the room's log)."""
    if row.undone_at is not None:
        return Sent(0, 0, 0)
    if log_name == "event":
        found = rules.tournament_notices(row.action, row.data or {})
        pairs = selectors.tournament_recipients(row.tournament_id, found) if found else []
    else:
        found = rules.room_notices(row.action, row.data or {})
        pairs = selectors.cash_recipients(found) if found else []
    return deliver(pairs) if pairs else Sent(0, 0, 0)


def seat_now(*, player: Player) -> Sent:
    """Tell a player who has just opted in where he sits now: his seat was drawn, most
    often, before he could turn his phone on, and the draw's notice reached no phone."""
    pairs = selectors.seats_of(player)
    return deliver(pairs) if pairs else Sent(0, 0, 0)


def logged_action_notify(*, log_name: str, pk: int) -> Sent:
    """`row_notify` of the log row `pk` (the Celery task's: tasks take primary keys)."""
    model = Event if log_name == "event" else RoomEvent
    row = model.objects.filter(pk=pk).first()
    return Sent(0, 0, 0) if row is None else row_notify(log_name=log_name, row=row)
