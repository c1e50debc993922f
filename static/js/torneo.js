// Small behaviours shared by every page. No inline scripts (CSP).
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches("[data-autosubmit]")) el.form.requestSubmit();
});
document.addEventListener("click", (event) => {
  const el = event.target.closest("[data-print]");
  if (el) window.print();
});
// A form (or its button) with data-confirm asks before it posts: closing a table,
// removing a name from a list, seating out of list order.
document.addEventListener("submit", (event) => {
  const question = event.submitter?.dataset.confirm || event.target.dataset.confirm;
  if (question && !window.confirm(question)) event.preventDefault();
});
