// A new game's form: a checkbox for a rule shows only while the chosen rule set has that rule (each
// box lists its rule sets in data-in); a hidden box is unchecked. Without scripts every box shows,
// and the server refuses a rule the set lacks, in words.
(function () {
  const picker = document.querySelector("select[data-default]");
  if (!picker) return;
  function show() {
    const chosen = picker.value || picker.dataset.default;
    document.querySelectorAll("label.check[data-in]").forEach(function (box) {
      const here = box.dataset.in.split(" ").indexOf(chosen) >= 0;
      box.hidden = !here;
      if (!here) box.querySelector("input").checked = false;
    });
  }
  picker.addEventListener("change", show);
  show();
})();
