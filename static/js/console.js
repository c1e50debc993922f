// The clock console's keyboard: space pauses or resumes, arrows adjust (↑↓ a minute,
// ←→ ten seconds), PageUp/PageDown change level. Each key presses the matching button,
// so it goes through the same htmx form (logged, undoable). No confirmation dialogs.
(function () {
  "use strict";
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input, select, textarea, [contenteditable]")) return;
    const button = document.querySelector(`[data-console] button[data-key="${CSS.escape(event.key)}"]`);
    if (!button || button.disabled) return;
    event.preventDefault();
    button.click();
  });
})();
