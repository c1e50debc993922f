// The players' pages as an installable app: registers the service worker, marks a page
// shown from the phone's copy (offline, or a flaky connection) with "last updated", and
// shows a push that arrives while the page is open (then refreshes the page's live parts).
(function () {
  "use strict";
  const me = document.currentScript;
  if (!me || !("serviceWorker" in navigator)) return;
  navigator.serviceWorker.register(me.dataset.sw, { scope: "/" }).catch(function () {});
  // The first visit came before the worker: ask it to keep this page for offline use.
  if (!navigator.serviceWorker.controller && me.dataset.pwaServed === "network") {
    navigator.serviceWorker.ready.then(function (reg) {
      if (reg.active) reg.active.postMessage({ type: "keep", url: location.href });
    });
  }

  const mark = document.createElement("p");
  mark.className = "pwa-stale";
  mark.setAttribute("role", "status");
  mark.dataset.testid = "last-updated";
  mark.hidden = true;
  const notice = document.createElement("p");
  notice.className = "pwa-notice";
  notice.setAttribute("role", "status");
  notice.dataset.testid = "push-notice";
  notice.hidden = true;
  document.body.prepend(notice);
  document.body.prepend(mark);

  let last = me.dataset.rendered; // the server's time of this copy, as the room reads it
  function clock() {
    return new Date().toLocaleTimeString(document.documentElement.lang || undefined, {
      hour: "2-digit",
      minute: "2-digit",
    });
  }
  function update() {
    const stale = !navigator.onLine || me.dataset.pwaServed === "cache";
    mark.textContent = me.dataset.stale.replace("{time}", last);
    mark.hidden = !stale;
  }
  window.addEventListener("online", update);
  window.addEventListener("offline", update);
  document.body.addEventListener("htmx:afterSwap", function () {
    last = clock();
    me.dataset.pwaServed = "network";
    update();
  });
  update();

  navigator.serviceWorker.addEventListener("message", function (event) {
    const message = event.data || {};
    if (message.type !== "torneo-push" && message.type !== "torneo-answer") return;
    notice.textContent = [message.title, message.body].filter(Boolean).join(" · ");
    notice.hidden = false;
    // The cash phone page refreshes on this event (hx-trigger "cash from:body").
    document.body.dispatchEvent(new CustomEvent("cash"));
  });

  // A player's own page is remembered on the phone: the app's start page lists it.
  if (me.dataset.mine) {
    try {
      const saved = JSON.parse(localStorage.getItem("torneo-pages") || "[]").filter(function (p) {
        return p.url !== location.pathname;
      });
      saved.unshift({ url: location.pathname, title: me.dataset.mine });
      localStorage.setItem("torneo-pages", JSON.stringify(saved.slice(0, 5)));
    } catch (error) {
      /* private mode: nothing remembered */
    }
  }
  const list = document.querySelector("[data-saved-pages]");
  if (list) {
    const saved = JSON.parse(localStorage.getItem("torneo-pages") || "[]");
    saved.forEach(function (p) {
      const item = document.createElement("li");
      const link = document.createElement("a");
      link.href = p.url;
      link.textContent = p.title;
      item.append(link);
      list.append(item);
    });
    const none = document.querySelector("[data-saved-none]");
    if (none) none.hidden = saved.length > 0;
  }
})();
