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
  const elt = event.detail.elt || event.target;
  if ((status === 400 || status === 422) && elt.closest && elt.closest("[data-swap-refusals]")) {
    event.detail.shouldSwap = true;
    event.detail.isError = false;
  }
});
