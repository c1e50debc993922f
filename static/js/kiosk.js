// The kiosk goes back to its start screen after a while without a touch, replacing the
// page in the history so that nothing of the previous player stays on screen or behind
// the back button.
(function () {
  "use strict";
  var root = document.querySelector("[data-kiosk-start]");
  if (!root) return;
  var start = root.getAttribute("data-kiosk-start");
  var seconds = parseInt(root.getAttribute("data-kiosk-idle"), 10) || 45;
  var timer = null;
  function reset() {
    window.location.replace(start);
  }
  function arm() {
    if (timer) window.clearTimeout(timer);
    timer = window.setTimeout(reset, seconds * 1000);
  }
  ["pointerdown", "keydown", "touchstart", "input"].forEach(function (name) {
    document.addEventListener(name, arm, { passive: true });
  });
  // A player's page shown again from the browser's cache goes back to the start at once.
  window.addEventListener("pageshow", function (event) {
    if (event.persisted && root.hasAttribute("data-kiosk-player")) reset();
  });
  arm();
})();
