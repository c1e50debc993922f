// A screen's clock: counts down by itself from the last clock state the server sent.
// The server pushes on changes only (DESIGN.md): the state carries ends_at (running) or
// remaining_seconds (paused), the server time, the version and the whole structure (on
// connecting and when the structure changes; a clock change names it by its key), so
// the screen rolls over levels and breaks by itself and keeps counting while offline.
// Offset to the server: ping/pong at connect and every minute, keeping the sample with
// the shortest round trip. No inline scripts: the first state is a json_script block.
(function () {
  "use strict";

  const root = document.querySelector("[data-socket]");
  if (!root) return;
  const label = (name) => root.dataset["label" + name] || "";
  // Close codes, defined once on the server (tournaments/sockets/codes.py).
  const codesNode = document.getElementById("socket-codes");
  const SOCKET_CODES = codesNode ? JSON.parse(codesNode.textContent) : { final: [4403, 4404] };

  const clock = {
    state: null, // last payload
    offset: 0, // server time - local time, in ms
    bestRtt: Infinity,
    announcedIndex: null,
    warnedIndex: null,
    socket: null,
    connected: false,
    lostAt: null,
    retries: 0,
    timer: null,
  };
  window.torneoClock = clock; // tests and the console read it

  function serverNow() {
    return Date.now() + clock.offset;
  }

  function readInitialState() {
    const el = document.getElementById("clock-state");
    if (!el) return;
    try {
      accept(JSON.parse(el.textContent), true);
    } catch (e) {
      /* a page without a clock */
    }
  }

  // Where the clock is at server time `now`: item index, ms left, status.
  function position(state, now) {
    const items = state.items || [];
    let status = state.status;
    let index = state.index || 0;
    let left = (state.remaining_seconds || 0) * 1000;
    if (status === "finished") return { status, index, left: 0 }; // the winner is decided
    if (status === "scheduled" && state.starts_at) {
      const startsAt = Date.parse(state.starts_at);
      if (now < startsAt) return { status, index, left: startsAt - now, startsIn: true };
      status = "running";
      left = (items[index] ? items[index].duration * 1000 : 0) - (now - startsAt);
    } else if (status === "running" && state.ends_at) {
      left = Date.parse(state.ends_at) - now;
    }
    if (status === "running") {
      // Roll over finished items: a new level starts when the clock reaches zero (TDA-23).
      while (left <= 0) {
        if (index + 1 >= items.length) return { status: "finished", index, left: 0 };
        index += 1;
        left += items[index].duration * 1000;
      }
    }
    return { status, index, left: Math.max(left, 0) };
  }

  function fmt(ms) {
    const total = Math.max(Math.ceil(ms / 1000 - 1e-9), 0);
    const h = Math.floor(total / 3600);
    const m = Math.floor((total % 3600) / 60);
    const s = total % 60;
    const pad = (n) => String(n).padStart(2, "0");
    return h ? `${h}:${pad(m)}:${pad(s)}` : `${pad(m)}:${pad(s)}`;
  }

  function set(selector, text) {
    document.querySelectorAll(selector).forEach((el) => {
      if (el.textContent !== text) el.textContent = text;
    });
  }

  function show(selector, text) {
    document.querySelectorAll(selector).forEach((el) => {
      el.hidden = !text;
      if (el.textContent !== (text || "")) el.textContent = text || "";
    });
  }

  function render() {
    const state = clock.state;
    if (!state || !state.items) return null;
    const now = serverNow();
    const pos = position(state, now);
    const items = state.items;
    const item = items[pos.index] || {};
    set("[data-time]", fmt(pos.left));
    set(
      "[data-level]",
      item.break ? label("Break") : `${label("Level")} ${item.number || ""}`.trim(),
    );
    set("[data-blinds]", item.break ? "" : blinds(item));
    set("[data-ante]", !item.break && item.ante ? anteText(item) : "");
    const next = items.slice(pos.index + 1).find((i) => !i.break);
    const nextText = next
      ? `${blinds(next)}${next.ante ? ` · ${anteText(next)}` : ""}`
      : "–";
    // A break says what comes after it: the level, its blinds and ante.
    set(
      "[data-next]",
      item.break && next ? `${label("AfterBreak")} ${label("Level")} ${next.number}: ${nextText}` : nextText,
    );
    // Time to the next break: this item's rest plus every level before it.
    let toBreak = null;
    let acc = pos.left;
    for (let i = pos.index + 1; i < items.length; i++) {
      if (items[i].break) {
        toBreak = acc;
        break;
      }
      acc += items[i].duration * 1000;
    }
    set("[data-next-break]", item.break ? "–" : toBreak === null ? "–" : fmt(toBreak));
    const statusText = {
      paused: label("Paused"),
      finished: label("Finished"),
      scheduled: `${label("StartsIn")} ${fmt(pos.left)}`,
    }[pos.status];
    set("[data-status]", statusText || "");
    document.body.dataset.clockStatus = pos.status;
    // The last minute of a level: its own colour, and a sound as it begins.
    const lastMinute = pos.status === "running" && !item.break && pos.left <= 60000;
    document.body.classList.toggle("last-minute", lastMinute);
    const key = `${state.version}:${pos.index}`;
    if (lastMinute && clock.warnedIndex !== key) {
      if (clock.rendered && pos.left > 55000) play("one_minute");
      clock.warnedIndex = key;
    }
    clock.rendered = true;
    // Colour-up due at the coming break (tournament.md §11.4, §12.2).
    const breakIndex = item.break
      ? pos.index
      : items.findIndex((i, n) => n > pos.index && i.break);
    const colorUp = breakIndex >= 0 && items[breakIndex].color_up;
    const colorUpWords = item.break ? label("ColorUpNow") : label("ColorUpNext");
    show("[data-color-up]", colorUp ? colorUpWords.replace("{chip}", colorUp) : "");
    // The add-on break: announced while it comes and while it lasts.
    const addonAt = state.addon_break_index;
    let addonText = "";
    if (addonAt !== null && addonAt !== undefined) {
      if (pos.index === addonAt) addonText = label("AddonNow");
      else if (breakIndex === addonAt && pos.index < addonAt) addonText = label("AddonNext");
    }
    show("[data-addon]", addonText);
    // Hand-for-hand: the hand being played (RP-8c: players see the clock drop per hand).
    const h4h = state.hand_for_hand;
    show("[data-h4h]", h4h ? `${label("H4h")} ${h4h.hands + 1}` : "");
    // The TD's console: each table's "hand done" as the tablets report it (pushed).
    const done = new Set(((h4h && h4h.tables_done) || []).map(String));
    document.querySelectorAll("[data-h4h-table]").forEach((button) => {
      const isDone = done.has(button.dataset.h4hTable);
      button.classList.toggle("done", isDone);
      button.disabled = isDone;
      const span = button.querySelector("[data-h4h-state]");
      if (span) span.textContent = isDone ? span.dataset.done : span.dataset.playing;
    });
    const eod = state.end_of_day;
    show("[data-eod]", eod ? `${eod.hands_left} ${label("Eod")}` : "");
    // A boundary passed on this screen's own count: announce it once.
    if (pos.status === "running" && clock.announcedIndex !== null && pos.index > clock.announcedIndex) {
      announce(item, pos.index);
    }
    clock.announcedIndex = pos.index;
    return pos;
  }

  // Chips as the page's language writes them, as the server does (1.000 in Italian,
  // 1,000 in English; "always": Italian would leave four-digit numbers ungrouped).
  let wholeFormat = null;
  function whole(n) {
    if (!wholeFormat) {
      wholeFormat = new Intl.NumberFormat(document.documentElement.lang || "it", {
        maximumFractionDigits: 0,
        useGrouping: "always",
      });
    }
    return wholeFormat.format(n);
  }

  function blinds(level) {
    return `${whole(level.small_blind)} / ${whole(level.big_blind)}`;
  }

  function anteText(level) {
    return level.ante_mode === "big_blind_ante"
      ? `${label("BbAnte")} ${whole(level.ante)}`
      : `${label("Ante")} ${whole(level.ante)}`;
  }

  function showBanner(text) {
    const banner = document.querySelector("[data-banner]");
    if (!banner || !text) return;
    banner.textContent = text;
    banner.hidden = false;
    clearTimeout(clock.bannerTimer);
    clock.bannerTimer = setTimeout(() => (banner.hidden = true), 20000);
  }

  function announce(item, index) {
    // Once per level: the screen's own count and the server's announcement (Celery) both
    // come at the boundary.
    const key = `${clock.state ? clock.state.version : ""}:${index}`;
    if (clock.bannerFor === key) return;
    clock.bannerFor = key;
    const banner = document.querySelector("[data-banner]");
    if (banner) {
      banner.textContent = item.break
        ? index === (clock.state || {}).addon_break_index
          ? `${label("BreakNow")} · ${label("AddonNow")}`
          : label("BreakNow")
        : `${label("NewLevel")}: ${blinds(item)}${item.ante ? ` (${whole(item.ante)})` : ""}`;
      banner.hidden = false;
      clearTimeout(clock.bannerTimer);
      clock.bannerTimer = setTimeout(() => (banner.hidden = true), 20000);
    }
    const previous = (clock.state && clock.state.items || [])[index - 1];
    play(previous && previous.break && !item.break ? "break_over" : "level_up");
  }

  // Sounds: the TD picks one for each moment (payload.sounds); a screen plays them only
  // once someone enabled sound on it (browsers ask for a gesture), remembered on the device.
  const TUNES = {
    chime: [[660, 0, 0.25], [880, 0.25, 0.25], [1320, 0.5, 0.5]],
    beep: [[880, 0, 0.2], [880, 0.35, 0.2], [880, 0.7, 0.2]],
    bell: [[1046, 0, 1.2], [1318, 0, 1.2]],
    none: [],
  };
  const SOUND_KEY = "torneo-sound";
  function audio() {
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) return null;
    clock.audio = clock.audio || new Ctx();
    return clock.audio;
  }
  function play(moment) {
    clock.played = clock.played || [];
    clock.played.push(moment); // tests read what would have sounded
    const sounds = (clock.state && clock.state.sounds) || {};
    const tune = TUNES[sounds[moment] || "beep"] || [];
    if (!tune.length || localStorage.getItem(SOUND_KEY) !== "on") return;
    try {
      const ctx = audio();
      if (!ctx) return;
      tune.forEach(([freq, at, length]) => {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.frequency.value = freq;
        gain.gain.value = 0.2;
        osc.connect(gain).connect(ctx.destination);
        osc.start(ctx.currentTime + at);
        osc.stop(ctx.currentTime + at + length);
      });
    } catch (e) {
      /* no sound on this device */
    }
  }
  function soundButton() {
    const button = document.querySelector("[data-sound-enable]");
    if (!button) return;
    const on = localStorage.getItem(SOUND_KEY) === "on";
    button.hidden = on;
    if (on) {
      // Remembered: start the sound now where the device allows it, else at the first touch
      // or key (a TV started in kiosk mode allows it at once).
      const ctx = audio();
      const wake = () => ctx && ctx.state === "suspended" && ctx.resume().catch(() => {});
      wake();
      ["pointerdown", "keydown"].forEach((type) =>
        document.addEventListener(type, wake, { once: true }),
      );
    }
    button.addEventListener("click", () => {
      localStorage.setItem(SOUND_KEY, "on");
      const c = audio();
      if (c) c.resume().catch(() => {});
      button.hidden = true;
      play("level_up");
    });
  }
  soundButton();

  function tick() {
    clearTimeout(clock.timer);
    const pos = render();
    // Wake just after the displayed second changes, so screens side by side agree.
    const delay = pos && pos.left > 0 ? (pos.left % 1000) + 15 : 500;
    clock.timer = setTimeout(tick, Math.max(delay, 20));
  }

  function accept(payload, initial) {
    if (!payload || payload.type !== "clock") return;
    if (clock.state && payload.version < clock.state.version) return; // stale
    if (!payload.items && payload.structure) {
      // A clock change names the structure, it does not carry it: keep the levels held
      // when they are the ones named; else ask for the whole state (a change of the
      // structure was missed) and count down on the held ones until it comes.
      const held = clock.state || {};
      payload.items = held.items;
      if (held.structure !== payload.structure) askState();
    }
    const changed = !clock.state || payload.version !== clock.state.version;
    if (clock.bestRtt === Infinity) {
      // Until a pong arrives, trust the server time the state was made at.
      clock.offset = Date.parse(payload.server_time) - Date.now();
    }
    clock.state = payload;
    if (changed) clock.announcedIndex = null; // a TD's change is not a boundary
    // A table tablet redraws its hand-for-hand and final-hands buttons on each change.
    if (changed && !initial) document.body.dispatchEvent(new CustomEvent("torneo:seats"));
    // The bubble burst in hand-for-hand: it is over and the clock runs again.
    if (changed && !initial && payload.notice === "bubble_burst") showBanner(label("BubbleBurst"));
    if (payload.announce) {
      announce((payload.items || [])[payload.announce.index] || {}, payload.announce.index);
    }
    tick();
  }

  function setSync() {
    const el = document.querySelector("[data-sync]");
    if (!el) return;
    let state = "ok";
    if (!clock.connected) {
      state = clock.lostAt && Date.now() - clock.lostAt > 60000 ? "offline" : "reconnecting";
    }
    el.dataset.state = state;
    const text = { ok: label("Sync"), reconnecting: label("Reconnecting"), offline: label("Offline") }[state];
    const span = el.querySelector("[data-sync-text]");
    if (span) span.textContent = text;
  }

  function ping() {
    if (clock.socket && clock.socket.readyState === WebSocket.OPEN) {
      clock.socket.send(JSON.stringify({ type: "ping", t: Date.now() }));
    }
  }

  function onPong(message) {
    const now = Date.now();
    const rtt = now - message.t;
    if (!(rtt >= 0)) return;
    // Keep the sample with the shortest round trip since connecting: its error is at
    // most half that round trip.
    if (rtt <= clock.bestRtt) {
      clock.bestRtt = rtt;
      clock.offset = Date.parse(message.server_time) + rtt / 2 - now;
    }
    tick();
  }

  // A push's fragments are keyed by language: this page's, else the first there is.
  function fragment(byLanguage) {
    if (!byLanguage) return undefined;
    const lang = document.documentElement.lang;
    return lang in byLanguage ? byLanguage[lang] : Object.values(byLanguage)[0];
  }

  function applyFragments(message) {
    const figures = fragment((message.fragments || {}).figures);
    if (figures === undefined) return false;
    document.querySelectorAll("#figures").forEach((el) => {
      el.innerHTML = figures; // rendered by the server's template, as the page is
    });
    fitFigures();
    return true;
  }

  // The clock's side column keeps its QR codes whole at the foot; the figures above take
  // the rest. What does not fit leaves whole, least needed first, rather than be cut.
  // A bounty event keeps its bounty list longest: the prizes are on the payouts sheet.
  const FIGURES_DROPPED = [
    ".knockouts",
    ".leaders-title, .chip-leaders",
    ".payouts li:nth-child(n+4)",
    ".payouts",
    ".bounties",
  ];
  function fitFigures() {
    document.querySelectorAll(".clock-screen #figures").forEach((box) => {
      box.querySelectorAll("[data-dropped]").forEach((el) => {
        el.hidden = false;
        delete el.dataset.dropped;
      });
      const over = () => box.scrollHeight > box.clientHeight + 1;
      const show = (selector, shown) =>
        box.querySelectorAll(selector).forEach((el) => {
          el.hidden = !shown;
          if (shown) delete el.dataset.dropped;
          else el.dataset.dropped = "";
        });
      const dropped = [];
      for (const selector of FIGURES_DROPPED) {
        if (!over()) break;
        show(selector, false);
        dropped.push(selector);
      }
      // Whatever fits again once a bigger block has gone comes back, most needed first.
      for (const selector of dropped.reverse()) {
        show(selector, true);
        if (over()) show(selector, false);
      }
    });
  }

  // A one-page seating board takes the board the push brings (the same for every board);
  // true when it did. A board of several pages turns them by itself.
  function applyBoard(message) {
    const board = document.getElementById("board");
    const html = fragment((message.fragments || {}).board);
    if (!board || board.dataset.pages !== "1" || html === undefined) return false;
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.firstElementChild;
    if (!fresh) return false;
    board.replaceWith(fresh);
    if (window.htmx) window.htmx.process(fresh);
    renderMoves();
    fitBoard();
    return true;
  }

  // The seating board's pages hold what fits this screen: rows of one line each, in as
  // many columns as are wide enough, down to the bottom of the screen. Measured here and
  // asked of the server as the page size (`per`); a board that already fits whole is kept.
  const BOARD_COLUMN_EM = 19;
  function fitBoard() {
    const board = document.getElementById("board");
    const list = board && board.querySelector(".board-rows");
    if (!list) return;
    const first = list.querySelector("li");
    if (!first) return;
    const em = parseFloat(getComputedStyle(list).fontSize) || 16;
    const rowHeight = first.getBoundingClientRect().height || em * 1.5;
    const margin = Math.max(em, window.innerHeight * 0.03); // the sync dot in the corner
    const room = window.innerHeight - list.getBoundingClientRect().top - margin;
    const rows = Math.max(1, Math.floor(room / rowHeight));
    const columns = Math.max(1, Math.floor(list.clientWidth / (BOARD_COLUMN_EM * em)));
    const fit = Math.max(5, rows * columns);
    const count = Number(board.dataset.count || 0);
    const per = Number(board.dataset.per || 0);
    list.style.setProperty("--board-rows", String(Math.max(1, Math.ceil(Math.min(count, fit) / columns))));
    const whole = board.dataset.pages === "1" && count <= fit;
    if (whole || per === fit || !window.htmx) return;
    const page = per ? Math.floor(((Number(board.dataset.page) || 1) - 1) * per / fit) + 1 : 1;
    window.htmx.ajax("GET", `?page=${page}&per=${fit}`, { target: board, swap: "outerHTML" });
  }
  window.addEventListener("resize", () => {
    clearTimeout(fitBoard.timer);
    fitBoard.timer = setTimeout(() => {
      fitBoard();
      fitFigures();
    }, 300);
  });

  // A table's tablet swaps in its list of seats when the push brings it (a push about
  // who sits where renders each named table's list once); true when it did.
  function applySeatList(message) {
    const section = document.querySelector("#seats[data-table-number]");
    const lists = (message.fragments || {}).seats;
    if (!section || !lists) return false;
    const html = fragment(lists[section.dataset.tableNumber]);
    const list = section.querySelector("[data-seat-list]");
    if (html === undefined || !list) return false;
    const template = document.createElement("template");
    template.innerHTML = html.trim();
    const fresh = template.content.firstElementChild;
    if (!fresh) return false;
    list.replaceWith(fresh);
    return true;
  }

  // A table's tablet reloads its seats for pushes about its own table or the whole room,
  // once: a push about a table reaches it through the room's group and the table's.
  let lastTablePush = null;
  function concernsThisTable(message, text) {
    const table = document.querySelector("[data-table-number]");
    const at = message.at_tables;
    if (!table || !Array.isArray(at)) return true;
    if (!at.map(String).includes(table.dataset.tableNumber)) return false;
    const now = Date.now();
    if (lastTablePush && lastTablePush.text === text && now - lastTablePush.at < 2000) {
      return false;
    }
    lastTablePush = { text, at: now };
    return true;
  }

  function askState() {
    const socket = clock.socket;
    if (socket && socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "state" }));
    }
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    let socket;
    try {
      socket = new WebSocket(scheme + location.host + root.dataset.socket);
    } catch (e) {
      return retry();
    }
    clock.socket = socket;
    socket.onopen = () => {
      // Back after a loss: the clock state comes first on the socket; the figures and the
      // seating may have changed meanwhile too.
      if (clock.lostAt) {
        document.body.dispatchEvent(new CustomEvent("torneo:figures"));
        document.body.dispatchEvent(new CustomEvent("torneo:seats"));
      }
      clock.connected = true;
      clock.lostAt = null;
      clock.retries = 0;
      clock.bestRtt = Infinity; // a new connection: measure the offset afresh
      setSync();
      ping();
      setTimeout(ping, 1500); // a second sample soon after connecting
    };
    socket.onmessage = (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch (e) {
        return;
      }
      if (message.type === "pong") return onPong(message);
      if (message.type === "clock") return accept(message, false);
      // Every other push, as it came: a phone follows its player's (static/js/phone.js).
      document.dispatchEvent(new CustomEvent("torneo:push", { detail: message }));
      if (message.type === "error") {
        document.dispatchEvent(new CustomEvent("torneo:error", { detail: message }));
        return;
      }
      if (message.type === "timecall") {
        // A clock called on a seat, or its end: the console reloads its list of calls.
        document.body.dispatchEvent(new CustomEvent("torneo:timecall", { detail: message }));
      }
      if (message.type === "seat") {
        document.dispatchEvent(new CustomEvent("torneo:move", { detail: message }));
      }
      if (message.type === "move" && message.to) {
        // A balancing or break move from the room: where he goes and where he comes from.
        const detail = {
          entry: message.entry,
          name: message.name,
          table: message.to.table,
          seat: message.to.seat,
          fromTable: message.from ? message.from.table : null,
          fromSeat: message.from ? message.from.seat : null,
        };
        document.dispatchEvent(new CustomEvent("torneo:move", { detail }));
      }
      // Anything else changes the figures or the seating. The push brings the figures,
      // rendered once for every screen, or says they are the same (a move, a time call);
      // only what it does not bring is fetched again.
      if (!message.same_figures && !applyFragments(message)) {
        document.body.dispatchEvent(new CustomEvent("torneo:figures"));
      }
      if (!applyBoard(message) && !applySeatList(message) && concernsThisTable(message, event.data)) {
        document.body.dispatchEvent(new CustomEvent("torneo:seats"));
      }
    };
    socket.onclose = (event) => {
      clock.connected = false;
      if (!clock.lostAt) clock.lostAt = Date.now();
      setSync();
      if (SOCKET_CODES.final.includes(event.code)) {
        document.body.dataset.revoked = "true";
        return; // revoked or unknown: do not knock again
      }
      retry();
    };
  }

  function retry() {
    // Exponential backoff with jitter, so a room of screens does not reconnect in one
    // burst after a server restart. From 0.5 s, capped at 2 s for the first minute (a
    // restarted server or Redis is back in seconds, and a screen knocks again within 2 s
    // of it: the room resyncs within 5 s, `manage.py bench reconnect`), then at 30 s.
    // A refused knock costs the server nothing.
    const cap = clock.lostAt && Date.now() - clock.lostAt > 60000 ? 30000 : 2000;
    const base = Math.min(cap, 500 * 2 ** clock.retries);
    clock.retries += 1;
    setTimeout(connect, base / 2 + Math.random() * (base / 2));
  }

  // Recent moves on the seating board: listed and highlighted for fifteen minutes, also
  // after a reload (the page brings the last ones with it).
  const MOVE_SHOWN_MS = 900000;
  const moves = [];
  try {
    const seed = JSON.parse((document.getElementById("recent-moves") || {}).textContent || "[]");
    seed.forEach((m) =>
      moves.push({
        name: m.name,
        table: m.table,
        seat: m.seat,
        fromTable: m.from_table,
        fromSeat: m.from_seat,
        at: Date.parse(m.at) - clock.offset,
      }),
    );
  } catch (e) {
    /* no seating board */
  }
  // The board's row moves with the same push as the banner: no wait for the next page turn.
  function updateRow(m) {
    const labels = document.querySelector("[data-board-labels]");
    if (!labels) return;
    const rows = m.entry
      ? document.querySelectorAll(`[data-entry="${CSS.escape(String(m.entry))}"]`)
      : document.querySelectorAll(`[data-name="${CSS.escape(m.name || "")}"]`);
    rows.forEach((row) => {
      const where = row.querySelector("[data-where]");
      if (where) {
        where.textContent = `${labels.dataset.labelTable} ${m.table} · ${labels.dataset.labelSeat} ${m.seat}`;
      }
      row.classList.remove("flash");
      void row.offsetWidth; // restart the animation
      row.classList.add("flash");
    });
  }
  document.addEventListener("torneo:move", (event) => {
    const m = event.detail;
    updateRow(m);
    // A table tablet lists the players coming to its own table.
    const table = document.querySelector("[data-table-number]");
    const here = table ? table.dataset.tableNumber : null;
    if (here && String(m.table) !== here && String(m.fromTable) !== here) return;
    // The same move can arrive through the room's group and the table's group.
    const seen = moves.find((x) => x.name === m.name && x.table === m.table && x.seat === m.seat);
    if (seen && Date.now() - seen.at < 5000) return;
    moves.unshift({ ...m, at: Date.now() });
    renderMoves();
  });
  function renderMoves() {
    const box = document.querySelector("[data-moves]");
    const fresh = moves.filter((m) => Date.now() - m.at < MOVE_SHOWN_MS);
    if (box) {
      box.replaceChildren(
        ...fresh.slice(0, 8).map((m) => {
          const li = document.createElement("p");
          li.className = "move";
          const from = m.fromTable ? `${m.fromTable} · ${m.fromSeat} ` : "";
          li.textContent = `${m.name}: ${from}→ ${m.table} · ${m.seat}`;
          return li;
        }),
      );
    }
    const names = new Set(fresh.map((m) => m.name));
    const flashing = new Set(fresh.filter((m) => Date.now() - m.at < 6000).map((m) => m.name));
    document.querySelectorAll("[data-name]").forEach((el) => {
      el.classList.toggle("moved", names.has(el.dataset.name));
      if (flashing.has(el.dataset.name)) el.classList.add("flash");
    });
  }
  document.addEventListener("htmx:afterSettle", () => {
    renderMoves();
    fitBoard();
    fitFigures();
    // The console's panel brings a fresh state with it.
    const el = document.getElementById("clock-state");
    if (el) {
      try {
        accept(JSON.parse(el.textContent), false);
      } catch (e) {
        /* ignore */
      }
    }
  });
  setInterval(() => {
    setSync();
    renderMoves();
  }, 5000);
  setInterval(() => {
    // Each minute: forget the old sample so a drifting device is corrected.
    clock.bestRtt = Infinity;
    ping();
  }, 60000);

  readInitialState();
  setSync();
  fitBoard();
  fitFigures();
  if (root.dataset.socket && !("noSocket" in root.dataset)) connect();
})();
