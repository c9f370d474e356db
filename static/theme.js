// The colour switch says which colours are chosen (aria-pressed), for screen readers. A page is
// the same for every browser (it may be cached for all), so the choice, each browser's own, is
// read from /theme.css, which says it (--theme). Without this script, the check that stylesheet
// draws beside the chosen button is read as ", chosen".
"use strict";

document.addEventListener("DOMContentLoaded", () => {
  const chosen = getComputedStyle(document.documentElement).getPropertyValue("--theme").trim() || "system";
  for (const button of document.querySelectorAll("#theme button[name=theme]")) {
    button.setAttribute("aria-pressed", String(button.value === chosen));
  }
});
