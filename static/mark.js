// A move link tapped: the player's own mark drawn on its cell at once, and every move link of the
// board marked as sent; the page the move leads to follows (static/play.js, static/live.js).
"use strict";

function drawMark(link) {
  const cell = link.closest("td");
  const mark = link.dataset.places;
  if (!cell || !mark) return;
  cell.dataset.mark = mark;
  cell.classList.add(`mark-${mark.toLowerCase()}`);
  const shown = document.createElement("span");
  shown.className = "mark";
  shown.textContent = mark;
  link.replaceChildren(shown);
  for (const other of document.querySelectorAll("#board a[data-places]")) other.setAttribute("aria-disabled", "true");
}
