// Stepping through a review or a trace. Arrow keys follow the links marked rel="prev" and
// rel="next"; links marked data-step fetch their page and swap its <main> in, so the board
// stays put and nothing reloads. A step replaces the current history entry rather than adding
// one, so Back leaves the review at once. Every link works without this script.
// In a block of its own: the pages load live.js beside it, whose names must not clash.
{
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

  const follow = async (link) => {
    const url = new URL(link.getAttribute("href"), window.location.href).href;
    await swap(url, true);
    const again = link.id && document.getElementById(link.id);
    (again || document.querySelector("main h2")).focus({ preventScroll: true });
    const target = new URL(url).hash && document.getElementById(new URL(url).hash.slice(1));
    if (target) target.scrollIntoView(); // as the browser does for a link to #step (or #now) without this script
  };

  document.addEventListener("click", (event) => {
    const link = event.target.closest("a[data-step]");
    if (!link || event.button !== 0 || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    follow(link);
  });

  window.addEventListener("popstate", () => swap(window.location.href, false));

  // Arrow presses wait their turn: each follows the link of the step the one before brought,
  // so quick presses all count. A held key steps as fast as the steps arrive and stops when
  // it is let go: its repeats are dropped while a step is on its way.
  const presses = [];
  let stepping = false;

  // An arrow follows the links where the student is reading: the top ones when they are on
  // screen, else those beside the stack (a phone shows the stack below the code, and its own
  // links bring the current call into view), so stepping keeps the view the student chose.
  const onScreen = (element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= window.innerHeight;
  };
  const arrowLink = (rel) => {
    const top = document.querySelector(`a[rel="${rel}"]`);
    const beside = document.getElementById(rel === "next" ? "next-by-stack" : "prev-by-stack");
    return top && !onScreen(top) && beside && onScreen(beside) ? beside : top;
  };

  const step = async () => {
    stepping = true;
    while (presses.length) {
      const link = arrowLink(presses.shift());
      if (!link) continue;
      if (!link.hasAttribute("data-step")) {
        presses.length = 0;
        link.click(); // a link that loads its page: the presses after it are lost with this one
        break;
      }
      await follow(link);
    }
    stepping = false;
  };

  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (event.target.closest("input, textarea, select, [contenteditable]")) return;
    const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
    if (!rel || !document.querySelector(`a[rel="${rel}"]`)) return;
    event.preventDefault();
    if (event.repeat && stepping) return;
    if (presses.length < 50) presses.push(rel);
    if (!stepping) step();
  });
}
