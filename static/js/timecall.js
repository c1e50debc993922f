// Time calls (tournament.md §18) on the table tablet and the floor console.
// The server renders each running call with its expiry time; this counts it down on the
// server's time (screen.js keeps the offset), shows the last seconds of the countdown in
// large red digits, and asks the server to record the ruling when it reaches zero. The
// server checks the time itself and records the ruling once, so the tablet, the console
// and the Celery task may all ask. The tablet talks over its socket (type "timecall"),
// the console over its own (type "control"). No inline scripts (CSP).
(function () {
  "use strict";

  const clock = () => window.torneoClock || { offset: 0, socket: null };
  const serverNow = () => Date.now() + (clock().offset || 0);
  const onConsole = () => document.querySelector("[data-console]") !== null;
  const asked = new Map(); // call id -> when we last asked for its expiry

  function send(message) {
    const socket = clock().socket;
    if (!socket || socket.readyState !== WebSocket.OPEN) {
      showError(document.body.dataset.labelOffline || "Offline");
      return false;
    }
    socket.send(JSON.stringify(message));
    return true;
  }

  function tablet(action, fields) {
    return send({ type: "timecall", action, ...fields });
  }

  function showError(text) {
    document.querySelectorAll("[data-timecall-error]").forEach((el) => {
      el.textContent = text || "";
      el.hidden = !text;
    });
  }

  let timer = null;

  function tick() {
    clearTimeout(timer);
    const now = serverNow();
    let next = 1000;
    document.querySelectorAll("[data-timecall-running]").forEach((el) => {
      const left = Date.parse(el.dataset.expiresAt) - now;
      const countdown = Number(el.dataset.countdown || 0) * 1000;
      const seconds = Math.max(Math.ceil(left / 1000 - 1e-9), 0);
      const phase = left <= 0 ? "expired" : left <= countdown ? "countdown" : "grant";
      if (el.dataset.phase !== phase) el.dataset.phase = phase;
      el.querySelectorAll("[data-timecall-left]").forEach((out) => {
        if (out.textContent !== String(seconds)) out.textContent = String(seconds);
      });
      if (left > 0) {
        // Wake just after the displayed second changes.
        next = Math.min(next, (left % 1000) + 15);
        return;
      }
      // Time is up on this device: ask the server (again each second until it answers
      // with the ruling, which reloads this part of the page).
      const id = el.dataset.call;
      if (Date.now() - (asked.get(id) || 0) >= 1000) {
        asked.set(id, Date.now());
        if (onConsole()) send({ type: "control", action: "timecall_expire", call: id });
        else tablet("expire", { call: id });
      }
    });
    timer = setTimeout(tick, Math.max(next, 20));
  }

  const ask = () => document.querySelector("[data-timecall-ask]");

  document.addEventListener("click", (event) => {
    const seatButton = event.target.closest("[data-timecall-seat]");
    if (seatButton) {
      const box = ask();
      if (!box) return;
      box.dataset.seat = seatButton.dataset.timecallSeat;
      box.querySelectorAll("[data-timecall-ask-seat]").forEach((el) => {
        el.textContent = seatButton.dataset.timecallSeat;
      });
      box.hidden = false;
      showError("");
      return;
    }
    const facing = event.target.closest("[data-timecall-facing]");
    if (facing) {
      const box = ask();
      const waited = box.querySelector("[data-timecall-waited]");
      const sent = tablet("start", {
        seat: Number(box.dataset.seat),
        facing_bet: facing.dataset.timecallFacing === "1",
        seconds_used: waited && waited.checked ? Number(waited.value) : 0,
      });
      if (sent) box.hidden = true;
      return;
    }
    if (event.target.closest("[data-timecall-back]")) {
      ask().hidden = true;
      return;
    }
    const action = event.target.closest("[data-timecall-action]");
    if (action) {
      const running = action.closest("[data-timecall-running]");
      if (running) tablet(action.dataset.timecallAction, { call: Number(running.dataset.call) });
    }
  });

  // A refusal from the server (over the socket, or an htmx answer's HX-Trigger).
  document.addEventListener("torneo:error", (event) => {
    const detail = event.detail || {};
    showError(detail.message || detail.value || "");
  });

  // A call that just arrived (htmx swapped it in) shows its time at once.
  document.addEventListener("htmx:afterSettle", tick);
  tick();
})();
