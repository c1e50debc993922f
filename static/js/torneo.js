// Small behaviours shared by every page. No inline scripts (CSP).
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches("[data-autosubmit]")) el.form.requestSubmit();
});
document.addEventListener("click", (event) => {
  const el = event.target.closest("[data-print]");
  if (el) window.print();
});
