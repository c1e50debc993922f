// Small behaviours shared by every page. No inline scripts (CSP).
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches("[data-autosubmit]")) el.form.requestSubmit();
});
document.addEventListener("click", (event) => {
  const el = event.target.closest("[data-print]");
  if (el) window.print();
});
// htmx leaves 4xx answers unswapped, so a refused form would show nothing. A form marked
// data-swap-refusals gets its 400/422 answer (the form again, with the reasons) in place.
document.addEventListener("htmx:beforeSwap", (event) => {
  const status = event.detail.xhr.status;
  // the event fires on the swap target; the form that asked is the request's element
  const config = event.detail.requestConfig;
  const elt = config && config.elt;
  if ((status === 400 || status === 422) && elt && elt.closest("[data-swap-refusals]")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
// A form (or its button) with data-confirm asks before it posts: closing a table,
// removing a name from a list, seating out of list order.
document.addEventListener("submit", (event) => {
  const question = event.submitter?.dataset.confirm || event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
// The structure editor: choosing a big-blind ante fills that level's ante with its big
// blind (TDA), which the TD may then edit; another mode with no ante clears it.
document.addEventListener("change", (event) => {
  const select = event.target;
  if (!select.matches(".structure select[name=ante_mode]")) return;
  const row = select.closest("tr");
  const ante = row && row.querySelector("input[name=ante]");
  const bigBlind = row && row.querySelector("input[name=big_blind]");
  if (!ante || !bigBlind) return;
  if (select.value === "big_blind_ante") ante.value = bigBlind.value;
  else if (select.value === "none") ante.value = "0";
});
