// A player's notifications page: turn push on for this phone (asks the browser's
// permission, subscribes with the room's key, posts the subscription) or off.
(function () {
  "use strict";
  const box = document.querySelector("[data-push]");
  if (!box) return;
  const say = box.querySelector("[data-push-says]");
  const on = box.querySelector("[data-push-on]");
  const off = box.querySelector("[data-push-off]");
  const csrf = document.querySelector("[name=csrfmiddlewaretoken]").value;

  function tell(text) {
    say.textContent = text;
    say.hidden = !text;
  }
  function key(text) {
    const padded = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), function (c) {
      return c.charCodeAt(0);
    });
  }
  async function post(url, body) {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
      credentials: "same-origin",
    });
    return response.json();
  }
  async function registration() {
    await navigator.serviceWorker.register(box.dataset.sw, { scope: "/" });
    return navigator.serviceWorker.ready;
  }

  if (!box.dataset.key || !("serviceWorker" in navigator) || !("PushManager" in window)) {
    tell(box.dataset.unsupported);
    on.disabled = true;
    return;
  }
  navigator.serviceWorker.getRegistration("/").then(async function (reg) {
    const sub = reg && (await reg.pushManager.getSubscription());
    off.hidden = !sub;
  });
  on.addEventListener("click", async function () {
    on.disabled = true;
    try {
      if ((await Notification.requestPermission()) !== "granted") {
        tell(box.dataset.denied);
        return;
      }
      const reg = await registration();
      const sub =
        (await reg.pushManager.getSubscription()) ||
        (await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key(box.dataset.key) }));
      const reply = await post(box.dataset.subscribe, sub.toJSON());
      tell(reply.message);
      off.hidden = !reply.ok;
    } catch (error) {
      tell(box.dataset.unsupported);
    } finally {
      on.disabled = false;
    }
  });
  off.addEventListener("click", async function () {
    const reg = await registration();
    const sub = await reg.pushManager.getSubscription();
    if (!sub) return;
    const reply = await post(box.dataset.unsubscribe, { endpoint: sub.endpoint });
    await sub.unsubscribe();
    tell(reply.message);
    off.hidden = true;
  });
})();
