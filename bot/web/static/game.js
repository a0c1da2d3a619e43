// The arrow keys step through the replay; a running game's page follows each move (Server-Sent Events).
(function () {
  const game = document.getElementById("game");
  if (!game) return;
  const step = Number(game.dataset.step), steps = Number(game.dataset.steps);
  document.addEventListener("keydown", function (event) {
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 1, End: steps }[event.key];
    if (to !== undefined && to >= 1 && to <= steps && to !== step) window.location.search = "?step=" + to;
  });
  if (game.dataset.live) {
    const shown = Number(game.dataset.version);
    const stream = new EventSource(game.dataset.live);
    stream.addEventListener("version", function (event) {
      if (Number(event.data) > shown) { stream.close(); window.location.reload(); }
    });
  }
})();
