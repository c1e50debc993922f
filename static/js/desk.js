// The desk by keyboard: Enter in the search registers the single player
// found (or re-enters him, or opens his seat card when he plays). The focus stays in the
// search; after a registration the seat card page puts it back in its own search box.
(function () {
  "use strict";
  const search = document.querySelector("[data-desk-search]");
  if (!search) return;
  search.addEventListener("keydown", (event) => {
    if (event.key !== "Enter" || event.isComposing) return;
    const rows = document.querySelectorAll("#results .results > li");
    if (rows.length !== 1) return;
    const action = rows[0].querySelector("[data-enter]");
    if (!action) return;
    event.preventDefault();
    action.click();
  });
  document.addEventListener("htmx:afterSettle", () => {
    if (document.activeElement === document.body) search.focus();
  });
})();
