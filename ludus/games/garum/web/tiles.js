// Garum's tiles and fish as the browser draws them: the species (the same fills as the server's
// renderer, a letter always drawn on them), a tile's quarter turns, a tile's drawing and its words.

import {svg} from "/static/js/util.js";

export const SPECIES = {
  // the same fills as the server's renderer; a letter is always drawn on them
  B: {colour: "blue", name: "tuna", fill: "#2b5fb8", ink: "#fff"},
  G: {colour: "green", name: "mackerel", fill: "#2e8b3e", ink: "#fff"},
  Y: {colour: "yellow", name: "mollusc", fill: "#e3b51c", ink: "#1d1d1d"},
  R: {colour: "red", name: "shellfish", fill: "#c8372d", ink: "#fff"},
};
/** A quarter turn clockwise of a tile's fish (reading order tl, tr, bl, br). */
export function rotate(fish) {
  return fish[2] + fish[0] + fish[3] + fish[1];
}

export function turns(fish) {
  const out = [fish];
  for (let i = 0; i < 3; i++) {
    fish = rotate(fish);
    if (!out.includes(fish)) out.push(fish);
  }
  return out;
}

// -- tiles ------------------------------------------------------------------------------
/** A 2 x 2 tile drawing with a letter on every fish. */
export function tileSvg(fish, size = 2) {
  const g = svg("svg", {viewBox: `0 0 ${size} ${size}`, role: "img", "aria-label": `tile ${fish}`});
  g.append(fishCells(fish, 0, 0, size / 2));
  return g;
}

export function fishCells(fish, x, y, cell = 1) {
  const g = svg("g");
  [...fish].forEach((letter, i) => {
    const sp = SPECIES[letter];
    const cx = x + (i % 2) * cell;
    const cy = y + Math.floor(i / 2) * cell;
    g.append(
      svg("rect", {x: cx + cell * 0.04, y: cy + cell * 0.04, width: cell * 0.92, height: cell * 0.92, rx: cell * 0.12,
        fill: sp.fill, stroke: "#222", "stroke-width": cell * 0.04}),
      svg("text", {x: cx + cell / 2, y: cy + cell * 0.68, "text-anchor": "middle", "font-size": cell * 0.55,
        "font-family": "sans-serif", "font-weight": "700", fill: sp.ink}, letter),
    );
  });
  return g;
}

export function tileText(fish) {
  const names = [...fish].map((l) => `${SPECIES[l]?.name || l} (${l})`);
  return `tile: top ${names[0]} and ${names[1]}, bottom ${names[2]} and ${names[3]}`;
}
