// The arrow keys step through the replay; a running game's page follows each move in place (Server-Sent
// Events name the new version; the page at it is fetched and put in place of this one's game), and
// what the move brought is said in the live region for a screen reader.
(function () {
  let game = document.getElementById("game");
  if (!game) return;
  const announce = document.getElementById("announce");
  function unpictured(root) {  // a step before anything is drawn has no picture: no broken image then
    root.querySelectorAll("figure img").forEach(function (img) {
      img.addEventListener("error", function () { img.closest("figure").hidden = true; });
      if (img.complete && img.naturalWidth === 0) img.closest("figure").hidden = true;
    });
  }
  unpictured(game);
  document.addEventListener("keydown", function (event) {
    if (event.target.closest && event.target.closest("input, select, textarea, button")) return;
    const step = Number(game.dataset.step), steps = Number(game.dataset.steps);
    const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: 1, End: steps }[event.key];
    if (to !== undefined && to >= 1 && to <= steps && to !== step) window.location.search = "?step=" + to;
  });
  if (!game.dataset.live) return;
  const stream = new EventSource(game.dataset.live);
  let fetching = false, wanted = Number(game.dataset.version);
  async function follow() {
    if (fetching) return;
    fetching = true;
    try {
      while (Number(game.dataset.version) < wanted) {
        const answer = await fetch(window.location.pathname, { headers: { Accept: "text/html" } });
        if (!answer.ok) return;
        const page = new DOMParser().parseFromString(await answer.text(), "text/html");
        const next = page.getElementById("game");
        if (!next || Number(next.dataset.version) <= Number(game.dataset.version)) return;
        game.replaceWith(next);
        game = next;
        unpictured(game);
        const said = next.querySelector("[data-said]");
        if (announce && said) announce.textContent = said.textContent.trim();
        if (!next.dataset.live) { stream.close(); return; }
      }
    } finally {
      fetching = false;
    }
  }
  stream.addEventListener("version", function (event) {
    wanted = Math.max(wanted, Number(event.data));
    follow();
  });
})();
