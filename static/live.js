// Progressive enhancement, for pages that work without it. Two things:
// - a page with data-events follows that event stream (a room) and swaps in the parts of the
//   page that changed; what the visitor typed, where the focus is and what is selected stay,
//   and a form in use is never swapped out (if its seat was taken, the page says who took it);
//   while the stream is down the page says "Reconnecting…" (and "Connected again" once it is
//   back), and a move tapped then is not sent to a server that cannot be reached; a move
//   tapped is drawn at once (static/mark.js), and replaces the page's history entry;
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

const QUIET_MS = 3000; // a stream that ends by design comes back within 2 s: no need to say so
const BACK_MS = 10000; // how long "Connected again" stays

function say(text) {
  const line = document.getElementById("connection");
  if (!line) return;
  line.textContent = text;
  line.hidden = !text;
}

function inUse(part, html) {
  // A form the visitor has focused or typed in, which the new part would take away.
  const used = (form) => form.contains(document.activeElement) || [...form.querySelectorAll("input[type=text]")].some((field) => field.value !== field.defaultValue);
  return [...part.querySelectorAll("form[id]")].find((form) => used(form) && !html.includes(`id="${form.id}"`)) || null;
}

function keepForm(form, html) {
  // The form stays, with what was typed; a note above it says who took the seat.
  const seat = form.querySelector("input[name=seat]");
  const parsed = document.createElement("div");
  parsed.innerHTML = html;
  const note = seat && parsed.querySelector(`#seat-taken-${seat.value}`);
  if (!note || form.querySelector(".seat-taken")) return;
  const said = note.content.firstElementChild.cloneNode(true);
  said.classList.add("seat-taken");
  form.prepend(said);
}

function follow(url) {
  const source = new EventSource(url);
  let quiet = 0; // the timer that says "Reconnecting…" if the stream is still down then
  let down = false; // whether the page says so
  source.addEventListener("open", () => {
    clearTimeout(quiet);
    quiet = 0;
    if (!down) return;
    down = false;
    say("Connected again: the room is live.");
    setTimeout(() => { if (!down) say(""); }, BACK_MS);
  });
  source.addEventListener("error", () => {
    // While the server is gone, the browser retries every 2 s and each try fails here: the
    // timer set by the first failure is left to run.
    if (source.readyState === EventSource.CLOSED || quiet) return;
    quiet = setTimeout(() => {
      if (source.readyState === EventSource.OPEN) return;
      down = true;
      say("Reconnecting…");
    }, QUIET_MS);
  });
  document.addEventListener("click", (event) => {
    const link = event.target.closest("#board a[href]");
    if (!link || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    if (link.getAttribute("aria-disabled") === "true") return; // sent already
    if (source.readyState === EventSource.OPEN) {
      drawMark(link);
      return window.location.replace(link.href);
    }
    fetch(window.location.href, { method: "HEAD", cache: "no-store" }).then(
      () => {
        drawMark(link);
        window.location.replace(link.href);
      },
      () => {
        down = true;
        say("Reconnecting… The server cannot be reached: your move was not sent.");
      },
    );
  });
  source.addEventListener("room", (event) => {
    const update = JSON.parse(event.data);
    keepWhatTheVisitorDid(() => {
      for (const [id, html] of Object.entries(update.parts)) {
        const part = document.getElementById(id);
        const form = part && inUse(part, html);
        if (form) keepForm(form, html);
        else if (part) part.innerHTML = html;
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
  source.addEventListener("error", () => {
    // Closed for good: the server refused the stream (too many open: 429 or 503). The page
    // reloads by itself instead, as it does without JavaScript, a little later each time.
    if (source.readyState !== EventSource.CLOSED) return; // the browser reconnects by itself
    const seconds = Number(document.querySelector("[data-events]").dataset.reloadSeconds || 10);
    window.setTimeout(() => window.location.reload(), 1000 * seconds * (1 + Math.random() / 2));
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
