// Notices in the page: when it becomes your turn, a game ends, or (My games) a new turn or invitation
// comes while the tab is hidden, the tab title says so, a dot is drawn on the tab's icon, a short beep
// sounds (WebAudio, no file; the "Sound" toggle, kept in localStorage, turns it off) and, where the
// player allowed it with "Notify me", the browser shows a notification. Permission is asked only when
// that button is pressed, never on load. All of it clears when the tab is seen again.

import {api} from "./api.js";
import {el} from "./util.js";

const SOUND_KEY = "ludus.sound";
const POLL_MS = 60_000;
let pending = null; // what the hidden tab was told ({text}), until it is seen
let baseTitle = document.title;
let icon = null; // the page's icon link and its own href
let audio = null;
let last = null; // the game page's last view: {myTurn, terminal}

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) !== "off"; } catch { return true; }
}

function setSound(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* a private window: this page only */ }
}

// A context made at the player's first touch of the page: browsers start no sound before one.
function unlockAudio() {
  if (audio || !window.AudioContext) return;
  try { audio = new AudioContext(); } catch { audio = null; }
}

function beep() {
  if (!soundOn() || !audio) return;
  try {
    if (audio.state === "suspended") audio.resume();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 880;
    gain.gain.setValueAtTime(0.08, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.25);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.25);
  } catch { /* no sound: the title and the icon still say it */ }
}

// The tab's icon with a red dot on it (a canvas copy of the icon), or the icon as it was.
function badge(on) {
  if (!icon) {
    const link = document.querySelector("link[rel~='icon']") || document.head.appendChild(el("link", {rel: "icon"}));
    icon = {link, href: link.getAttribute("href") || "data:,"};
  }
  if (!on) {
    icon.link.setAttribute("href", icon.href);
    return;
  }
  const canvas = el("canvas", {width: "32", height: "32"});
  const draw = (image) => {
    const g = canvas.getContext("2d");
    if (image) g.drawImage(image, 0, 0, 32, 32);
    g.fillStyle = "#d33";
    g.beginPath();
    g.arc(23, 9, 8, 0, 2 * Math.PI);
    g.fill();
    if (pending) icon.link.setAttribute("href", canvas.toDataURL("image/png"));
  };
  const image = new Image();
  image.onload = () => draw(image);
  image.onerror = () => draw(null); // no icon of its own ("data:,"): the dot alone
  image.src = icon.href;
}

function showNotification(text, url) {
  if (!("Notification" in window) || Notification.permission !== "granted") return;
  try {
    const shown = new Notification("ludus", {body: text, tag: url || "ludus"});
    shown.onclick = () => {
      window.focus();
      if (url && location.pathname !== url) location.assign(url);
      shown.close();
    };
  } catch { /* a browser that shows notifications only from a service worker */ }
}

function showTitle() {
  document.title = pending ? `● ${pending.text} · ${baseTitle}` : baseTitle;
  document.body.dataset.notice = pending ? pending.text : "";
}

/** Tell the player ``text`` (the tab hidden: title, icon, sound, notification); nothing when it is seen. */
export function notice(text, url = null) {
  if (!document.hidden) return;
  pending = {text};
  showTitle();
  badge(true);
  beep();
  showNotification(text, url);
}

function seen() {
  if (document.hidden || !pending) return;
  pending = null;
  showTitle();
  badge(false);
}

/** The game page's view, after each render (which set the title): a notice when it just became the
 * seat's turn or the game just ended. */
export function gameNotices(view, myTurn) {
  baseTitle = document.title;
  const now = {myTurn: !!myTurn, terminal: !!view.terminal, id: view.id};
  if (last && last.id === now.id) {
    if (now.terminal && !last.terminal) notice("Game over");
    else if (now.myTurn && !last.myTurn) notice("Your turn");
  }
  last = now;
  showTitle();
}

/** My games: asks for the account's games every minute while the page is open; a notice for each game
 * newly your turn or newly an invitation, then ``changed()`` (the list drawn again). */
export function watchMyGames(changed) {
  let known = null;
  const poll = async () => {
    let games;
    try {
      games = await api("GET", "/api/me/games");
    } catch {
      return; // signed out or unreachable: the next poll tries again
    }
    const now = new Map(games.map((g) => [g.id, g.status]));
    if (known) {
      const fresh = games.filter((g) => ["your_turn", "invited"].includes(g.status) && known.get(g.id) !== g.status);
      if (fresh.length) {
        const turns = fresh.filter((g) => g.status === "your_turn").length;
        const text = turns ? (turns > 1 ? `Your turn in ${turns} games` : "Your turn") : "New invitation";
        notice(text, fresh.length === 1 ? `/games/${encodeURIComponent(fresh[0].id)}` : "/me");
      }
      const moved = games.length !== known.size || games.some((g) => known.get(g.id) !== g.status);
      if (moved) changed();
    }
    known = now;
  };
  poll();
  setInterval(poll, POLL_MS);
}

// The page's controls: "Sound" (on unless turned off) and "Notify me" (asks for permission, once pressed).
function controls() {
  const nav = document.querySelector("header.top nav");
  if (!nav) return;
  const sound = el("input", {type: "checkbox", "data-testid": "sound-toggle"});
  sound.checked = soundOn();
  sound.addEventListener("change", () => setSound(sound.checked));
  const box = el("span", {class: "notice-controls row"}, el("label", {class: "row"}, sound, "Sound"));
  if ("Notification" in window && Notification.permission === "default") {
    const ask = el("button", {type: "button", "data-testid": "notify-me"}, "Notify me");
    ask.addEventListener("click", async () => {
      try { await Notification.requestPermission(); } catch { /* refused or unsupported */ }
      ask.remove();
    });
    box.append(ask);
  }
  nav.prepend(box);
}

document.addEventListener("visibilitychange", seen);
window.addEventListener("focus", seen);
for (const type of ["pointerdown", "keydown"]) document.addEventListener(type, unlockAudio, {once: true});
controls();
