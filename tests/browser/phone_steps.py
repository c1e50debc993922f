"""Steps shared by the players' phone tests: a reservation made on the public page and
registered at the desk from its QR in one keystroke, and a phone whose service worker gets
the pushes the local push service (tests/room/push_service.py) received and decrypted."""

from __future__ import annotations

import json
import time

from room import tokens
from tests.browser import cash_steps as steps


def pushes(push_service, name: str, count: int, *, seconds: float = 5.0) -> list[dict]:
    """The pushes the local push service holds for browser `name`, once there are `count`
    of them: a push sent after the page's answer may land a moment later."""
    deadline = time.monotonic() + seconds
    while True:
        found = push_service.for_browser(name)
        if len(found) >= count or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def player_page(url: str, player) -> str:
    """His page, as the seat card's QR opens it."""
    return f"{url}/room/me/{tokens.player_token(player.pk)}/"


# The phone's PushManager, answering with the local push service's subscription.
FAKE_PUSH_MANAGER = """
(() => {
  const sub = %s;
  const made = {
    endpoint: sub.endpoint, expirationTime: null, options: {userVisibleOnly: true},
    toJSON: () => ({endpoint: sub.endpoint, expirationTime: null, keys: sub.keys}),
    unsubscribe: () => { localStorage.removeItem("test-subscribed"); return Promise.resolve(true); },
  };
  if (self.PushManager) {
    PushManager.prototype.subscribe = function () {
      localStorage.setItem("test-subscribed", "1");
      return Promise.resolve(made);
    };
    PushManager.prototype.getSubscription = function () {
      return Promise.resolve(localStorage.getItem("test-subscribed") ? made : null);
    };
  }
})();
"""


class Phone:
    """A phone's browser: its page, its DevTools session, its service worker."""

    def __init__(self, browser, url: str, locale: str, subscription: dict) -> None:
        self.url = url
        self.context = browser.new_context(locale=locale, viewport=steps.PHONE)
        self.context.grant_permissions(["notifications"], origin=url)
        self.context.add_init_script(FAKE_PUSH_MANAGER % json.dumps(subscription))
        self.page = self.context.new_page()
        self.page.set_default_timeout(10000)
        self.registrations: dict[str, str] = {}
        self.cdp = self.context.new_cdp_session(self.page)
        self.cdp.on("ServiceWorker.workerRegistrationUpdated", self._registered)
        self.cdp.send("ServiceWorker.enable")

    def _registered(self, event) -> None:
        for reg in event["registrations"]:
            if not reg["isDeleted"]:
                self.registrations[reg["scopeURL"]] = reg["registrationId"]

    def worker(self):
        self.page.wait_for_function("navigator.serviceWorker.controller !== null")
        return self.context.service_workers[0]

    def deliver(self, payload: dict) -> None:
        """The push service hands the (decrypted) message to the phone's service worker."""
        registration = self.registrations[f"{self.url}/"]
        self.cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": self.url, "registrationId": registration, "data": json.dumps(payload)},
        )

    def tap(self, action: str) -> dict:
        """Tap `action` on the notification that has answers: what the worker's
        notificationclick handler runs (it posts to the call's signed address)."""
        return self.worker().evaluate(
            """action => self.registration.getNotifications().then(ns =>
                 torneoClick(ns.find(n => n.data && n.data.answer), action))""",
            action,
        )

    def shown(self, title: str, *, pushed: dict | None = None, timeout_ms: int = 5_000) -> dict:
        """The notification titled `title`, once the worker shows it: a delivered push is
        handled after the DevTools call returns, so the list is asked again until it is
        there. `pushed`: the push it came from, delivered once more if the first delivery
        was lost while the worker started (a push service, too, delivers again until the
        browser takes the message)."""
        for attempt in range(2):
            found = self.worker().evaluate(
                """async ([title, timeout]) => {
                     const end = Date.now() + timeout;
                     for (;;) {
                       const ns = await self.registration.getNotifications();
                       const n = ns.find(n => n.title === title);
                       if (n) return {title: n.title, body: n.body, tag: n.tag,
                                      actions: n.actions.map(a => a.action)};
                       if (Date.now() > end) return null;
                       await new Promise(done => setTimeout(done, 50));
                     }
                   }""",
                [title, timeout_ms],
            )
            if found is not None or pushed is None or attempt:
                break
            self.deliver(pushed)
        assert found is not None, (title, self.notifications())
        return found

    def notifications(self) -> list[dict]:
        return self.worker().evaluate(
            """self.registration.getNotifications().then(ns => ns.map(n => ({
                 title: n.title, body: n.body, tag: n.tag, actions: n.actions.map(a => a.action)})))"""
        )


def reserve(
    browser, url: str, locale: str, first: str, last: str, email: str
) -> tuple[str, str, str]:
    """On his phone, from the public events page: the reservation's code, the address its
    confirmation's QR code carries and the status it shows (the QR is on the page)."""
    phone = steps.screen(browser, locale, {"width": 420, "height": 900})
    phone.goto(f"{url}/events/")
    phone.click("[data-testid=reserve-link]")
    phone.fill("#id_first_name", first)
    phone.fill("#id_last_name", last)
    phone.fill("#id_email", email)
    phone.check("#id_accepted_terms")
    phone.click("[data-testid=reserve]")
    phone.locator("[data-testid=confirmation]").wait_for()
    code = phone.inner_text("[data-testid=reservation-code]").strip()
    status = phone.inner_text("[data-testid=reservation-status]")
    qr_codes = phone.locator("[data-testid=reservation-qr] svg").count()
    confirmation_url = phone.url
    phone.context.close()
    assert qr_codes == 1
    return code, confirmation_url, status


def register_from_reservation(page, url: str, slug: str, confirmation_url: str) -> str:
    """At the desk (logged in): the scanner types the QR code's address and Enter into the
    focused search; the register button has the focus and one Enter registers him. The
    seat card's seat line."""
    page.goto(f"{url}/t/{slug}/desk/")
    page.click("[data-testid=desk-reservations]")
    search = page.locator("[data-testid=reservation-search]")
    search.fill(confirmation_url)
    search.press("Enter")
    page.wait_for_url("**q=**")
    button = page.locator("[data-testid=register-reservation]")
    assert button.evaluate("el => el === document.activeElement")
    page.keyboard.press("Enter")  # the one keystroke
    page.locator("[data-testid=seat]").wait_for()
    return page.inner_text("[data-testid=seat]")
