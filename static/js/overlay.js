// A stream overlay (templates/displays/overlay.html): the event's live feed drawn over
// the stream. The page carries the feed's document; its socket (tournaments/sockets/
// feed.py) sends it again on connecting, then each change's update, which is merged in
// and drawn. Nothing is asked of the server on a change (DESIGN.md). The clock counts
// down by itself from the level's end (or the time left while paused), as the screens do.
(function () {
  "use strict";

  const root = document.querySelector("[data-feed-socket]");
  if (!root) return;
  const label = (name) => root.dataset["label" + name] || "";
  const part = root.dataset.part;
  const lang = document.documentElement.lang || "it";
  const numbers = new Intl.NumberFormat(lang);
  let money;
  try {
    money = new Intl.NumberFormat(lang, { style: "currency", currency: root.dataset.currency || "EUR", maximumFractionDigits: 0 });
  } catch (e) {
    money = numbers;
  }
  const state = { doc: null, offset: 0, received: 0, retries: 0 };
  window.torneoOverlay = state; // the browser tests read it

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, (m, key) => (key in values ? String(values[key]) : m));
  }

  function merge(update) {
    if (update.type === "event" || !state.doc) {
      state.doc = update;
      return;
    }
    const doc = state.doc;
    for (const key of ["clock", "figures", "payouts", "chip_counts", "final_table", "featured_hands"]) {
      if (key in update) doc[key] = update[key];
    }
    if (update.eliminations) {
      const seen = new Set(update.eliminations.map((row) => row.entry));
      doc.eliminations = update.eliminations.concat((doc.eliminations || []).filter((row) => !seen.has(row.entry)));
      doc.eliminations.sort((a, b) => (a.place || 0) - (b.place || 0));
    }
    if (update.event) doc.event = Object.assign(doc.event || {}, update.event);
    doc.version = update.version;
  }

  function clockText(clock) {
    if (!clock || !clock.status) return "";
    if (clock.status === "finished") return label("Finished");
    if (clock.status === "not_started" || clock.status === "no_structure") return label("NotStarted");
    let left = (clock.remaining_seconds || 0) * 1000;
    if (clock.status === "running" && clock.ends_at) {
      left = Math.max(0, Date.parse(clock.ends_at) - (Date.now() + state.offset));
    }
    const seconds = Math.ceil(left / 1000);
    const text = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
    return clock.status === "paused" ? text + " · " + label("Paused") : text;
  }

  function drawClock(doc) {
    const clock = doc.clock || {};
    const level = clock.level;
    root.querySelector("[data-level]").textContent = clock.is_break
      ? label("Break")
      : level ? label("Level") + " " + level.number : "";
    let blinds = "";
    if (level && !clock.is_break) {
      blinds = numbers.format(level.small_blind) + "/" + numbers.format(level.big_blind);
      if (level.ante) blinds += " · " + label("Ante") + " " + numbers.format(level.ante);
    }
    root.querySelector("[data-blinds]").textContent = blinds;
    root.querySelector("[data-time]").textContent = clockText(clock);
    const figures = doc.figures || {};
    root.querySelector("[data-players]").textContent =
      numbers.format(figures.players_left || 0) + "/" + numbers.format(figures.entries || 0);
    root.querySelector("[data-average]").textContent = numbers.format(figures.average_stack || 0);
  }

  function row(cells) {
    const tr = document.createElement("tr");
    cells.forEach(([text, numeric]) => {
      const td = document.createElement("td");
      td.textContent = text;
      if (numeric) td.className = "num";
      tr.appendChild(td);
    });
    return tr;
  }

  function drawFinalTable(doc) {
    const table = doc.final_table;
    const body = root.querySelector("[data-rows]");
    root.querySelector("[data-empty]").hidden = Boolean(table);
    body.replaceChildren(
      ...(table ? table.seats : []).map((seat) =>
        row([[String(seat.seat)], [seat.name], [seat.chips == null ? "" : numbers.format(seat.chips), true]])
      )
    );
  }

  function drawPayouts(doc) {
    const payouts = doc.payouts || { places: [] };
    root.querySelector("[data-pool]").textContent = money.format(payouts.prize_pool || 0);
    root.querySelector("[data-rows]").replaceChildren(
      ...payouts.places.slice(0, 12).map((p) => row([[String(p.place)], [money.format(p.amount), true]]))
    );
  }

  function drawElimination(doc) {
    const last = (doc.eliminations || []).find((row) => row.place && row.place > 1) || null;
    const winner = (doc.eliminations || []).find((row) => row.place === 1);
    const box = root.querySelector("[data-testid=overlay-elimination]");
    const shown = winner || last;
    box.hidden = !shown;
    if (!shown) return;
    root.querySelector("[data-headline]").textContent = winner
      ? fill(label("Winner"), { name: winner.name })
      : fill(label("Out"), { name: last.name, place: last.place });
    root.querySelector("[data-detail]").textContent = shown.prize
      ? fill(label("Prize"), { amount: money.format(shown.prize) })
      : "";
  }

  function draw() {
    const doc = state.doc;
    if (!doc) return;
    if (part === "clock") drawClock(doc);
    else if (part === "final_table") drawFinalTable(doc);
    else if (part === "payouts") drawPayouts(doc);
    else drawElimination(doc);
  }

  function accept(message) {
    if (message.type === "pong") {
      if (message.server_time) state.offset = Date.parse(message.server_time) - Date.now();
      return;
    }
    merge(message);
    state.received += 1;
    draw();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + location.host + root.dataset.feedSocket);
    socket.addEventListener("open", () => {
      state.retries = 0;
      socket.send(JSON.stringify({ type: "ping" }));
    });
    socket.addEventListener("message", (event) => {
      try {
        accept(JSON.parse(event.data));
      } catch (e) {
        /* not a message of ours */
      }
    });
    socket.addEventListener("close", (event) => {
      if (event.code === 4403 || event.code === 4404) return; // revoked or unknown: stop
      const wait = Math.min(4000, 500 * 2 ** state.retries++);
      setTimeout(connect, wait / 2 + Math.random() * (wait / 2));
    });
  }

  const initial = document.getElementById("feed-document");
  if (initial) {
    try {
      state.doc = JSON.parse(initial.textContent);
    } catch (e) {
      state.doc = null;
    }
  }
  draw();
  if (part === "clock") setInterval(() => state.doc && drawClock(state.doc), 250);
  connect();
})();
