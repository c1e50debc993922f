// Small behaviours shared by every page. No inline scripts (CSP).
document.addEventListener("change", (event) => {
  const el = event.target;
  if (el.matches("[data-autosubmit]")) el.form.requestSubmit();
});
document.addEventListener("click", (event) => {
  const el = event.target.closest("[data-print]");
  if (el) window.print();
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
