// The seat's own panel docked at the foot of the screen ([data-own-panel], celtae.css), and the place a
// prompt names ("in your hand", "on your leader card") marked and brought into view.
//
// The docked panel and the sticky prompt cover a strip of the page each: their heights go to the CSS
// variables --own-panel-h and --prompt-h, which celtae.css turns into the page's bottom padding and
// its scroll padding, so every piece scrolls clear of both (scrollIntoView stops short of them).

const sizes = new ResizeObserver(() => measure());
let watched = [];

function measure() {
  const style = document.documentElement.style; // CSSOM, which the page's policy allows (no style attribute)
  const [panel, prompt] = watched;
  style.setProperty("--own-panel-h", `${panel?.isConnected ? Math.ceil(panel.getBoundingClientRect().height) : 0}px`);
  style.setProperty("--prompt-h", `${prompt?.isConnected ? Math.ceil(prompt.getBoundingClientRect().height) : 0}px`);
}

/** Follow the sizes of a newly drawn board's own panel and prompt. */
export function dock(root) {
  for (const node of watched) if (node) sizes.unobserve(node);
  watched = [root.querySelector("[data-own-panel]"), root.querySelector(".cb-prompt")];
  for (const node of watched) if (node) sizes.observe(node);
  measure();
}

// the places of the seat's own panel a prompt may name, by the words that name them
const PLACES = [
  [/\bin your hand\b/i, ".cb-hand"],
  [/\b(on )?your leader card\b/i, ".cb-leader"],
  [/\bin your tribe\b/i, ".cb-tribe-row"],
  [/\b(your active workers?|an active worker|your worker first)\b/i, ".cb-active"],
  [/\bbonus token|\ba token\b/i, ".cb-stats"],
];

/** Mark the own panel's place the prompt names and scroll it into view (the nearest way). */
export function showNamed(root) {
  const text = root.querySelector(".cb-prompt-text")?.textContent || "";
  const panel = root.querySelector("[data-own-panel]");
  for (const node of root.querySelectorAll(".cb-named")) node.classList.remove("cb-named");
  if (!panel || !text) return;
  for (const [words, selector] of PLACES) {
    const place = words.test(text) ? panel.querySelector(selector) : null;
    if (!place) continue;
    place.classList.add("cb-named");
    place.scrollIntoView({block: "nearest", inline: "nearest"});
  }
}
