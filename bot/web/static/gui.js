// The GUI's keys: a move's key presses its button (a number of dice; c for Pork Chop; h for a hint),
// unless the player is typing in a box.
(function () {
  const form = document.getElementById("choices");
  if (!form) return;
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    const button = form.querySelector('button[data-key="' + CSS.escape(event.key.toLowerCase()) + '"]:not([disabled])');
    if (button) { event.preventDefault(); button.click(); }
  });
})();
