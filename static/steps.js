// Arrow keys step through pages that link their neighbours with rel="prev" and rel="next".
// The links work without this script; it only saves reaching for them.
document.addEventListener("keydown", (event) => {
  if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest("input, textarea, select, [contenteditable]")) return;
  const rel = { ArrowLeft: "prev", ArrowRight: "next" }[event.key];
  const link = rel && document.querySelector(`a[rel="${rel}"]`);
  if (!link) return;
  event.preventDefault();
  link.click();
});
