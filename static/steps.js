// Stepping through a review or a trace. Arrow keys follow the links marked rel="prev" and
// rel="next"; links marked data-step fetch their page and swap its <main> in, so the board
// stays put and nothing reloads. A step replaces the current history entry rather than adding
// one, so Back leaves the review at once. Every link works without this script.
const swap = async (url, replace) => {
  const response = await fetch(url, { headers: { Accept: "text/html" } });
  if (!response.ok) {
    window.location.assign(url);
    return;
  }
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  document.querySelector("main").replaceWith(page.querySelector("main"));
  document.title = page.title;
  if (replace) window.history.replaceState(null, "", url);
};

document.addEventListener("click", (event) => {
  const link = event.target.closest("a[data-step]");
  if (!link || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  event.preventDefault();
  const url = new URL(link.getAttribute("href"), window.location.href).href;
  swap(url, true).then(() => {
    const again = link.id && document.getElementById(link.id);
    (again || document.querySelector("main h2")).focus({ preventScroll: true });
  });
});

window.addEventListener("popstate", () => swap(window.location.href, false));

document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest("input, textarea, select, [contenteditable]")) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
  const link = rel && document.querySelector(`a[rel="${rel}"]`);
  if (!link) return;
  event.preventDefault();
  link.click();
});
