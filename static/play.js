// A move on the game's page. The player's mark is drawn at once (static/mark.js); the move link is fetched (its
// redirect brings the new page, so one request per move) and the page's <main> is swapped in,
// the AI's reply after a short beat, as if it thought (no beat with reduced motion, nor when
// nobody replies). The address is then the one a plain link leads to, added to the history as a
// plain link adds it, so Back shows the boards before. Every link works without this script.
const BEAT_MS = 400;
let busy = false;
let shownAt = window.location.pathname + window.location.search; // a change of #fragment alone fetches nothing

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const beat = () => (window.matchMedia("(prefers-reduced-motion: reduce)").matches ? 0 : BEAT_MS);
const marks = (root) => root.querySelectorAll("#board td[data-mark]:not([data-mark=''])").length;

// Teach mode's hints speak of the position before the move: gone until the new page brings its own.
const clearHints = () => {
  for (const hint of document.querySelectorAll("#board .hint")) hint.remove();
  for (const cell of document.querySelectorAll("#board td[data-value]")) {
    for (const name of ["value", "plies", "best"]) delete cell.dataset[name];
  }
};

const saySent = (link) => {
  const status = document.getElementById("status");
  const cell = link.closest("td").dataset;
  if (status) status.textContent = `You placed ${link.dataset.places} on ${"abc"[cell.col]}${Number(cell.row) + 1}.`;
};

const show = (page) => {
  document.querySelector("main").replaceWith(page.querySelector("main"));
  const footer = page.querySelector("footer.site-footer"); // what it says of the board, and the colours' way back
  if (footer) document.querySelector("footer.site-footer")?.replaceWith(footer);
  document.title = page.title;
  const status = document.getElementById("status") || document.querySelector("main h2");
  if (!status) return;
  status.tabIndex = -1;
  status.focus({ preventScroll: true });
};

const play = async (link) => {
  const started = performance.now();
  const url = new URL(link.getAttribute("href"), window.location.href);
  drawMark(link);
  clearHints();
  saySent(link);
  let response;
  try {
    response = await fetch(url, { mode: "same-origin", headers: { Accept: "text/html", "X-Move": "followed" } });
  } catch {
    window.location.assign(url);
    return;
  }
  if (!(response.headers.get("Content-Type") || "").startsWith("text/html")) {
    window.location.assign(url);
    return;
  }
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  if (marks(page) > marks(document)) await wait(beat() - (performance.now() - started));
  const address = new URL(response.url);
  if (response.redirected) address.hash = "board";
  show(page);
  document.getElementById("board")?.scrollIntoView({ block: "start", behavior: "instant" }); // where #board leads
  window.history.pushState(null, "", address);
  shownAt = address.pathname + address.search;
};

document.addEventListener("click", (event) => {
  const link = event.target.closest("#board a[data-places]");
  if (!link || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  if (busy) return;
  busy = true;
  play(link).finally(() => {
    busy = false;
  });
});

window.addEventListener("popstate", async () => {
  if (window.location.pathname + window.location.search === shownAt) return;
  shownAt = window.location.pathname + window.location.search;
  const response = await fetch(window.location.href, { headers: { Accept: "text/html" } });
  show(new DOMParser().parseFromString(await response.text(), "text/html"));
});
