// Progressive enhancement, for pages that work without it. Two things:
// - a page with data-events follows that event stream (a room) and swaps in the parts of the
//   page that changed; what the visitor typed, where the focus is and what is selected stay;
// - a button with data-copy copies the value of the field it names (a room's link, a review's
//   share text).
"use strict";

function keepWhatTheVisitorDid(swap) {
  const focused = document.activeElement;
  const focusId = focused && focused !== document.body ? focused.id : "";
  const selection = focused && typeof focused.selectionStart === "number" ? [focused.selectionStart, focused.selectionEnd] : null;
  const typed = [...document.querySelectorAll("input[id]")].filter((field) => field.value !== field.defaultValue);
  const values = typed.map((field) => [field.id, field.value]);
  swap();
  for (const [id, value] of values) {
    const field = document.getElementById(id);
    if (field) field.value = value;
  }
  const again = focusId && document.getElementById(focusId);
  if (again && again !== focused) {
    again.focus();
    if (selection) again.setSelectionRange(selection[0], selection[1]);
  }
}

function follow(url) {
  const source = new EventSource(url);
  source.addEventListener("room", (event) => {
    const update = JSON.parse(event.data);
    keepWhatTheVisitorDid(() => {
      for (const [id, html] of Object.entries(update.parts)) {
        const part = document.getElementById(id);
        if (part) part.innerHTML = html;
      }
    });
    document.title = update.title + " · Tic-tac-toe";
    document.documentElement.dataset.liveUpdates = String(Number(document.documentElement.dataset.liveUpdates || 0) + 1);
    showCopyButtons();
  });
  source.addEventListener("gone", () => {
    source.close();
    window.location.reload(); // the room has closed: its address now says so
  });
}

function showCopyButtons() {
  if (!navigator.clipboard) return;
  for (const button of document.querySelectorAll("button[data-copy]")) button.hidden = false;
}

document.addEventListener("click", (event) => {
  const button = event.target.closest("button[data-copy]");
  const field = button && document.getElementById(button.dataset.copy);
  if (!field) return;
  const said = button.parentElement.querySelector(".copied");
  navigator.clipboard.writeText(field.value).then(
    () => { if (said) said.textContent = "Copied."; },
    () => { field.select(); if (said) said.textContent = "Select the link and copy it."; },
  );
});

document.addEventListener("DOMContentLoaded", () => {
  const live = document.querySelector("[data-events]");
  if (live && window.EventSource) follow(live.dataset.events);
  showCopyButtons();
});
