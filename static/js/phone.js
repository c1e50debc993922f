// A player's phone follows the players it found: the pushes name their entries, and
// carry where a move or a table break sends them, the bounty on their heads, their
// finishing place and prize (DESIGN.md: a push carries what the screen shows, so the
// phone never asks again). A re-entry of a player out is followed by his name.
(function () {
  "use strict";

  const section = () => document.querySelector("[data-follow]");
  const label = (name) => (section() || { dataset: {} }).dataset["label" + name] || "";

  // Money as the server's pages write it: 1.234,50 in Italian, 1,234.50 in English
  // ("always": Italian would leave four-digit amounts ungrouped).
  function money(cents) {
    const lang = document.documentElement.lang || "it";
    return new Intl.NumberFormat(lang, {
      minimumFractionDigits: 2,
      maximumFractionDigits: 2,
      useGrouping: "always",
    }).format(cents / 100);
  }

  function rows(entry) {
    return document.querySelectorAll(`[data-follow-entry="${CSS.escape(String(entry))}"]`);
  }

  function flash(row) {
    row.classList.remove("flash");
    void row.offsetWidth; // restart the animation
    row.classList.add("flash");
  }

  function note(row, text) {
    const el = row.querySelector("[data-follow-note]");
    if (!el) return;
    el.textContent = text || "";
    el.hidden = !text;
  }

  function seat(row, table, number) {
    const where = row.querySelector("[data-follow-where]");
    if (where) {
      where.hidden = false;
      where.textContent = `${label("Table")} ${table} · ${label("Seat")} ${number}`;
    }
    row.classList.remove("out");
  }

  function bounty(row, value) {
    const badge = row.querySelector("[data-follow-bounty]");
    if (badge && typeof value === "number") badge.textContent = `${label("Bounty")} ${money(value)}`;
  }

  function moved(entry, to, from) {
    rows(entry).forEach((row) => {
      seat(row, to.table, to.seat);
      note(row, from ? `${label("Moved")} ${from.table} · ${from.seat}` : "");
      flash(row);
    });
  }

  function out(line) {
    rows(line.entry).forEach((row) => {
      const where = row.querySelector("[data-follow-where]");
      if (where) where.hidden = true;
      row.classList.add("out");
      const place = line.winner
        ? label("Won")
        : line.place
          ? label("Out").replace("{place}", line.place)
          : "";
      const prize = line.prize
        ? label("Prize").replace("{amount}", `${money(line.prize)} ${section().dataset.currency}`)
        : "";
      note(row, [place, prize].filter(Boolean).join(" · "));
      flash(row);
    });
  }

  // A new entry of a player followed who is out (a re-entry): follow it instead.
  function reentered(message) {
    document.querySelectorAll("[data-follow-entry].out").forEach((row) => {
      if (row.dataset.followName !== message.name) return;
      row.dataset.followEntry = String(message.entry);
      seat(row, message.table, message.seat);
      bounty(row, message.bounty);
      note(row, "");
      flash(row);
    });
  }

  document.addEventListener("torneo:push", (event) => {
    const m = event.detail || {};
    if (!section()) return;
    if (m.type === "move" && m.to && m.entry) moved(m.entry, m.to, m.from);
    if (m.type === "seat" && m.entry) {
      if (rows(m.entry).length) moved(m.entry, { table: m.table, seat: m.seat }, null);
      else reentered(m);
    }
    if (m.type === "bounty") {
      (m.awards || []).forEach((award) =>
        rows(award.entry).forEach((row) => {
          bounty(row, award.bounty);
          flash(row);
        }),
      );
    }
    if (m.type === "elimination") (m.out || []).forEach(out);
    (m.back || []).forEach((b) =>
      rows(b.entry).forEach((row) => {
        seat(row, b.table, b.seat);
        note(row, "");
      }),
    );
  });
})();
