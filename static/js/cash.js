// Cash room countdowns: an element with data-countdown="<seconds>" counts down to 0:00
// locally; the server recomputes the seconds on every refresh (STYLE.md 7). No inline
// scripts (CSP).
(() => {
  const started = new WeakMap();
  const show = (el) => {
    if (!started.has(el)) started.set(el, Date.now());
    const total = parseInt(el.dataset.countdown, 10) || 0;
    const left = Math.max(0, total - Math.floor((Date.now() - started.get(el)) / 1000));
    const minutes = Math.floor(left / 60);
    const seconds = String(left % 60).padStart(2, "0");
    el.textContent = `${minutes}:${seconds}`;
    el.classList.toggle("expired", left === 0);
  };
  const tick = () => document.querySelectorAll("[data-countdown]").forEach(show);
  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:afterSwap", tick);
  setInterval(tick, 1000);
})();

// Live: pages marked data-cash-live listen on ws/cash/ and refresh their htmx part
// (hx-trigger "cash from:body") whenever the room changes, and once after a dropped
// socket is back; they never poll.
(() => {
  let delay = 1000;
  // A push that comes while the part's refresh is in flight is queued on the part, and the
  // part is then replaced by what that refresh brought (outerHTML): its queued refresh is
  // lost with it. So a push since the last refresh began asks once more once it settled.
  let dirty = false;
  document.addEventListener("htmx:beforeRequest", (event) => {
    if (event.detail.elt.matches && event.detail.elt.matches("[data-cash-live]")) dirty = false;
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (dirty && window.htmx) window.htmx.trigger(document.body, "cash");
  });
  const connect = () => {
    if (!document.querySelector("[data-cash-live]")) return;
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    let socket;
    try {
      socket = new WebSocket(`${scheme}${location.host}/ws/cash/`);
    } catch (e) {
      setTimeout(connect, delay);
      return;
    }
    socket.addEventListener("open", () => {
      // Back after a drop: what changed meanwhile was never pushed, so read it once.
      if (document.body.dataset.cashSocket === "closed" && window.htmx) {
        window.htmx.trigger(document.body, "cash");
      }
      delay = 1000;
      document.body.dataset.cashSocket = "open";
    });
    socket.addEventListener("message", () => {
      dirty = true;
      if (window.htmx) window.htmx.trigger(document.body, "cash");
    });
    socket.addEventListener("close", () => {
      document.body.dataset.cashSocket = "closed";
      delay = Math.min(delay * 2, 30000);
      setTimeout(connect, delay);
    });
  };
  document.addEventListener("DOMContentLoaded", connect);
})();

// The floor's board does not refresh under the hands of someone using it: while one of
// its menus is open or a field has the focus, a refresh is neither asked nor swapped in;
// it happens once the menu closes or the field is left.
(() => {
  let waiting = false;
  const busy = (board) => {
    const active = document.activeElement;
    return board.querySelector("details.menu[open]") || (active && active !== document.body && board.contains(active) && active.matches("input, select, textarea"));
  };
  document.addEventListener("htmx:beforeRequest", (event) => {
    const board = document.getElementById("board");
    if (!board || event.detail.elt !== board || !busy(board)) return;
    event.preventDefault();
    waiting = true;
  });
  // A refresh asked before the floor opened a menu comes back after: it is not swapped in
  // either, and is asked again once the menu is closed.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const board = document.getElementById("board");
    if (!board || event.detail.elt !== board || !busy(board)) return;
    event.detail.shouldSwap = false;
    waiting = true;
  });
  const later = () => setTimeout(() => {
    const board = document.getElementById("board");
    if (!waiting || !board || busy(board) || !window.htmx) return;
    waiting = false;
    window.htmx.trigger(document.body, "cash");
  }, 0);
  document.addEventListener("focusout", later);
  document.addEventListener("toggle", later, true);  // a <details> menu closing
})();

// A jackpot just hit: the screens show its moment for the seconds the server gives
// (data-hit-seconds), then put it away; the next push or reload brings the next one.
(() => {
  const shown = new WeakSet();
  const arm = () => document.querySelectorAll("[data-hit-seconds]").forEach((el) => {
    if (shown.has(el)) return;
    shown.add(el);
    const seconds = parseInt(el.dataset.hitSeconds, 10) || 0;
    setTimeout(() => el.classList.add("over"), seconds * 1000);
  });
  document.addEventListener("DOMContentLoaded", arm);
  document.addEventListener("htmx:afterSwap", arm);
})();
