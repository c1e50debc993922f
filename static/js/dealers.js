// The dealers' screens (board, floor page, a tablet's relief line). Countdowns: an element
// with data-at="<epoch ms>" counts down to that moment, reckoned from the server's time
// given once with the page (data-server-now on its container), so a wrong tablet clock
// never shows a wrong countdown. Live: anything marked data-dealers-live listens on
// ws/room/dealers/ and refreshes its htmx part (hx-trigger "dealers from:body") whenever
// the plan changes; no polling. No inline scripts (CSP).
(() => {
  const offsets = new WeakMap();
  const offsetOf = (el) => {
    const box = el.closest("[data-server-now]");
    if (!box) return 0;
    if (!offsets.has(box)) offsets.set(box, parseInt(box.dataset.serverNow, 10) - Date.now());
    return offsets.get(box);
  };
  const show = (el) => {
    const at = parseInt(el.dataset.at, 10);
    if (!at) return;
    const left = Math.max(0, Math.round((at - (Date.now() + offsetOf(el))) / 1000));
    const minutes = Math.floor(left / 60);
    el.textContent = `${minutes}:${String(left % 60).padStart(2, "0")}`;
    el.classList.toggle("expired", left === 0);
  };
  const tick = () => document.querySelectorAll("[data-at]").forEach(show);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();

(() => {
  let delay = 1000;
  let socket = null;
  // A tablet loads its relief line after the page: the socket opens with the first part
  // that listens, whenever it comes.
  const connect = () => {
    if (socket || !document.querySelector("[data-dealers-live]")) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    try {
      socket = new WebSocket(`${scheme}${location.host}/ws/room/dealers/`);
    } catch (e) {
      socket = null;
      setTimeout(connect, delay);
      return;
    }
    socket.addEventListener("open", () => {
      // A screen that was away may have missed a push: read it afresh once it is back.
      if (delay > 1000 && window.htmx) window.htmx.trigger(document.body, "dealers");
      delay = 1000;
      document.body.dataset.dealersSocket = "open";
    });
    socket.addEventListener("message", () => {
      if (window.htmx) window.htmx.trigger(document.body, "dealers");
    });
    socket.addEventListener("close", () => {
      socket = null;
      document.body.dataset.dealersSocket = "closed";
      delay = Math.min(delay * 2, 30000);
      setTimeout(connect, delay);
    });
  };
  document.addEventListener("DOMContentLoaded", connect);
  document.addEventListener("htmx:afterSwap", connect);
})();
