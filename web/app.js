// The page: 1 to 8 units side by side, each a panel drawn pixel for pixel from its SSD1306 twin,
// on-screen buttons (touch or mouse, held as long as the finger stays), the same keyboard keys
// as `fathom emu`, a reboot, a PNG and a GIF per unit, and the link's fault knobs. URL parameters:
// units=N, board=NAME (every unit) or boards=A,B,... (one each), seed=S, loss= dup= corrupt=
// delay_ms= jitter_ms= garbage= (the ether's knobs), player=SPEC (each unit's scripted player,
// as FATHOM_UXPLAYER) or players=A|B|... (one each), fast=1 (no bot thinking pauses), link=espnow|uart.
import {Ether, KNOBS} from "./ether.js";
import {encodeGif} from "./gif.js";
import {PageUnit, forgetSaved} from "./units.js";

const LOOP_MS = 10;                      // the app's own loop period (firmware/fathom/app.py)
const FG = [120, 210, 255];              // the emulator's PNG colours (units.Screen.png)
const BG = [4, 10, 20];
const PNG_SCALE = 4;
const GIF_FRAMES = 2000;                 // a recording's most frames (~9 MB at 128x64)
// Keys as in `fathom emu`: unit 1 on the left hand, unit 2 on the right, the arrows, Enter and
// Backspace for the focused unit (Tab or a click moves the focus); a capital is a long press;
// a digit reboots that unit.
const UNIT_KEYS = [
  {w: "UP", s: "DOWN", a: "LEFT", d: "RIGHT", e: "OK", r: "BACK"},
  {i: "UP", k: "DOWN", j: "LEFT", l: "RIGHT", o: "OK", p: "BACK"},
];
const FOCUS_KEYS = {ArrowUp: "UP", ArrowDown: "DOWN", ArrowLeft: "LEFT", ArrowRight: "RIGHT",
                    Enter: "OK", Backspace: "BACK"};
const SLOTS = {UP: "slot-up", DOWN: "slot-down", LEFT: "slot-left", RIGHT: "slot-right", OK: "slot-ok",
               BACK: "slot-back"};

const params = new URLSearchParams(location.search);
const layout = window.FATHOM_LAYOUT || {};
const state = {units: [], focus: 0, ether: null};

function boardsWanted() {
  const n = Math.max(1, Math.min(8, Number(params.get("units") || layout.units || 2)));
  const list = params.get("boards") ? params.get("boards").split(",") : [];
  const one = params.get("board") || layout.board || "host";
  return Array.from({length: n}, (_, i) => list[i] || list[list.length - 1] || one);
}

function unitEnv(index) {
  const env = {};
  const players = (params.get("players") || "").split("|");
  const player = players[index] || params.get("player");
  if (player) env.FATHOM_UXPLAYER = player;
  if (params.get("fast")) env.FATHOM_FAST_BOTS = "1";
  if (params.get("link")) env.FATHOM_LINK = params.get("link");
  return env;
}

function scaleFor(w, h) {
  // a phone: as wide as the screen allows (its pixels are small enough that an uneven scale
  // does not show)
  if (layout.phone) return Math.max(2, Math.min(window.innerWidth - 64, 640) / w);
  return w <= 72 ? 5 : 3;
}

function draw(unit) {
  const {w, h, bytes} = unit.screen;
  const rec = unit.rec;
  if (rec && rec.frames.length < GIF_FRAMES && !sameFrame(rec.frames[rec.frames.length - 1], bytes)) {
    rec.frames.push(Uint8Array.from(bytes));
  }
  const c = unit.view.canvas;
  if (c.width !== w || c.height !== h) {
    c.width = w;
    c.height = h;
  }
  const ctx = c.getContext("2d");
  const img = ctx.createImageData(w, h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const on = (bytes[(y >> 3) * w + x] >> (y & 7)) & 1;
      const rgb = on ? FG : BG;
      const i = 4 * (y * w + x);
      img.data[i] = rgb[0];
      img.data[i + 1] = rgb[1];
      img.data[i + 2] = rgb[2];
      img.data[i + 3] = 255;
    }
  }
  ctx.putImageData(img, 0, 0);
}

function savePng(unit) {
  const src = unit.view.canvas;
  const big = document.createElement("canvas");
  big.width = src.width * PNG_SCALE;
  big.height = src.height * PNG_SCALE;
  const ctx = big.getContext("2d");
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(src, 0, 0, big.width, big.height);
  const a = document.createElement("a");
  a.download = `fathom-unit${unit.index + 1}.png`;
  a.href = big.toDataURL("image/png");
  a.click();
}

function sameFrame(a, b) {
  if (!a || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

// GIF: records every new picture of the panel from the first press to the second, then saves
// them as an animated GIF (open a finished game's Replay and step through it to keep the game).
function toggleGif(unit, button) {
  if (!unit.screen) return;   // nothing drawn yet
  if (!unit.rec) {
    unit.rec = {frames: [Uint8Array.from(unit.screen.bytes)], w: unit.screen.w, h: unit.screen.h};
    button.textContent = "Save GIF";
    button.classList.add("recording");
    return;
  }
  const {frames, w, h} = unit.rec;
  unit.rec = null;
  button.textContent = "GIF";
  button.classList.remove("recording");
  const gif = encodeGif(frames, w, h, FG, BG);
  const a = document.createElement("a");
  a.download = `fathom-unit${unit.index + 1}.gif`;
  a.href = URL.createObjectURL(new Blob([gif], {type: "image/gif"}));
  a.click();
}

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k);
  return e;
}

// One on-screen button per physical button of the board, placed by its short key; a finger
// holds it down as long as it stays (long presses, and chords with two fingers).
function buttonPad(unit) {
  const pad = el("div", {class: "pad"});
  for (const b of unit.profile.buttons) {
    const label = el("span", {class: "short"}, b.short);
    const btn = el("button", {class: `key ${SLOTS[b.short] || "slot-extra"}`, "data-pin": b.pin,
                              "data-key": b.short, "aria-label": b.short}, label);
    if (b.long) btn.append(el("span", {class: "long"}, `hold: ${b.long}`));
    const release = (ev) => {
      ev.preventDefault();
      btn.classList.remove("held");
      unit.fingerUp(b.pin);
    };
    btn.addEventListener("pointerdown", (ev) => {
      ev.preventDefault();
      btn.setPointerCapture?.(ev.pointerId);
      btn.classList.add("held");
      focusUnit(unit.index);
      unit.fingerDown(b.pin);
    });
    btn.addEventListener("pointerup", release);
    btn.addEventListener("pointercancel", release);
    btn.addEventListener("contextmenu", (ev) => ev.preventDefault());
    pad.append(btn);
  }
  const chords = (unit.profile.chords || []).map((c) => {
    const names = c.pins.map((p) => unit.profile.buttons.find((b) => b.pin === p).short);
    return `${names.join(" + ")} together: ${c.key}`;
  });
  if (chords.length) pad.append(el("p", {class: "chords"}, chords.join("; ")));
  return pad;
}

function unitCard(unit) {
  const {width: w, height: h} = unit.profile.display;
  const s = scaleFor(w, h);
  const canvas = el("canvas", {class: "panel", width: w, height: h,
                               style: `width:${w * s}px;height:${h * s}px`,
                               "aria-label": `unit ${unit.index + 1} screen`});
  const status = el("span", {class: "status"}, "booting");
  const keysHint = UNIT_KEYS[unit.index]
    ? Object.entries(UNIT_KEYS[unit.index]).map(([k, v]) => `${k}=${v}`).join(" ") : "Tab to focus";
  const card = el("section", {class: "unit", "data-unit": unit.index},
    el("header", {},
      el("h2", {}, `Unit ${unit.index + 1}`),
      el("span", {class: "board"}, `${unit.board} · ${w}x${h}`),
      status),
    el("div", {class: "glass"}, canvas),
    buttonPad(unit),
    el("div", {class: "tools"},
      el("button", {class: "reboot", onclick: () => unit.reboot()}, "Reboot"),
      el("button", {class: "png", onclick: () => savePng(unit)}, "PNG"),
      el("button", {class: "gif", title: "record the panel until pressed again, then save a GIF",
                    onclick: (ev) => toggleGif(unit, ev.currentTarget)}, "GIF"),
      el("span", {class: "hint"}, keysHint)));
  card.addEventListener("pointerdown", () => focusUnit(unit.index));
  unit.view = {card, canvas, status};
  return card;
}

function focusUnit(i) {
  state.focus = i;
  for (const u of state.units) u.view.card.classList.toggle("focused", u.index === i);
}

function showState(unit) {
  const st = unit.view && unit.view.status;
  if (!st) return;
  st.textContent = unit.state === "crashed" ? `stopped: ${unit.error}` : unit.state;
  unit.view.card.classList.toggle("crashed", unit.state === "crashed");
}

function onKey(ev) {
  if (ev.target.closest && ev.target.closest("input, select")) return;
  if (ev.ctrlKey || ev.metaKey || ev.altKey || ev.repeat) return;
  const units = state.units;
  if (ev.key === "Tab") {
    ev.preventDefault();
    focusUnit((state.focus + 1) % units.length);
    return;
  }
  if (FOCUS_KEYS[ev.key]) {
    ev.preventDefault();
    units[state.focus].press(FOCUS_KEYS[ev.key], ev.shiftKey);
    return;
  }
  if (/^[1-9]$/.test(ev.key) && Number(ev.key) <= units.length) {
    units[Number(ev.key) - 1].reboot();
    return;
  }
  const lower = ev.key.toLowerCase();
  UNIT_KEYS.forEach((table, i) => {
    if (i < units.length && table[lower]) {
      ev.preventDefault();
      units[i].press(table[lower], ev.key !== lower);
    }
  });
}

function faultControls(ether) {
  const box = document.getElementById("faults");
  if (!box) return;
  for (const k of KNOBS) {
    const max = k.endsWith("_ms") ? 500 : 1;
    const step = k.endsWith("_ms") ? 5 : 0.01;
    const out = el("output", {}, String(ether.knobs[k]));
    const input = el("input", {type: "range", min: 0, max, step, value: ether.knobs[k],
                               name: k, "aria-label": k});
    input.addEventListener("input", () => {
      ether.set({[k]: input.value});
      out.textContent = input.value;
    });
    box.append(el("label", {}, k.replace("_ms", " ms").replace("_", " "), input, out));
  }
  const counters = el("p", {class: "counters"});
  box.append(counters);
  setInterval(() => {
    const e = ether.totals.espnow;
    const u = ether.totals.uart;
    counters.textContent = `radio: ${e.sent} sent, ${e.delivered} delivered, ${e.lost} lost, ` +
      `${e.dup} dup, ${e.corrupt} corrupt · cable: ${u.bytes} B, ${u.lost} lost, ${u.corrupt} corrupt`;
  }, 500);
}

function layoutControls(boards, names) {
  const box = document.getElementById("layout");
  if (!box) return;
  const count = el("select", {name: "units", "aria-label": "units"});
  for (let n = 2; n <= 8; n++) count.append(el("option", {value: n}, `${n} units`));
  count.value = String(boards.length);
  const board = el("select", {name: "board", "aria-label": "board"});
  for (const b of names) board.append(el("option", {value: b}, b));
  board.value = boards[0];
  const apply = () => {
    const q = new URLSearchParams(location.search);
    q.set("units", count.value);
    q.set("board", board.value);
    q.delete("boards");
    location.search = q.toString();
  };
  count.addEventListener("change", apply);
  board.addEventListener("change", apply);
  const forget = el("button", {class: "forget", onclick: async () => {
    forgetSaved();
    for (const u of state.units) await u.reboot();
  }}, "Forget saved games");
  box.append(count, board, forget);
}

function loop() {
  for (const u of state.units) u.turn();
}

async function main() {
  const bundle = await (await fetch("firmware.json")).json();
  const boards = boardsWanted();
  for (const b of boards) {
    if (!bundle.boards[b]) throw new Error(`no board profile ${b} (known: ${Object.keys(bundle.boards)})`);
  }
  const knobs = {};
  for (const k of KNOBS) if (params.get(k)) knobs[k] = params.get(k);
  const ether = new Ether(Number(params.get("seed") || 0));
  ether.set(knobs);
  state.ether = ether;
  const grid = document.getElementById("units");
  const frames = document.getElementById("interpreters");
  state.units = boards.map((board, index) => new PageUnit({
    index, board, profile: bundle.boards[board], files: bundle.files, binary: bundle.binary, ether, env: unitEnv(index), host: frames,
    onScreen: draw, onState: showState}));
  for (const u of state.units) grid.append(unitCard(u));
  focusUnit(0);
  faultControls(ether);
  layoutControls(boards, Object.keys(bundle.boards));
  document.addEventListener("keydown", onKey);
  const t0 = performance.now();
  await Promise.all(state.units.map((u) => u.start()));
  state.loadMs = performance.now() - t0;
  setInterval(loop, LOOP_MS);
  window.fathom.ready = true;
}

window.fathom = {state, ready: false, error: null,
  unit: (i) => state.units[i],
  stats: () => ({load_ms: state.loadMs, units: state.units.map((u) => u.stepStats())})};
main().catch((e) => {
  window.fathom.error = String(e);
  document.getElementById("units").textContent = `fathom could not start: ${e}`;
});
