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
