// The page's side of one unit: its frame (an interpreter, web/unit.js), its panel, its saved
// files (the browser's localStorage, so a reload resumes a game as a reboot does), and what it
// reports (screen text, keys handled, the scripted player's report). The page's timer calls
// turn(); nothing here waits.
import {bytesToHex, hexToBytes} from "./ether.js";

const STORE = "fathom.unit";
const RESET_EXITS = ["75", "76"];  // machine.reset() and soft_reset(): the unit boots again

function toBase64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function fromBase64(text) {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

// What the glass shows, as a MONO_VLSB buffer (the emulator's Screen): pixel (x, y) is RAM
// column cols[x] of RAM row rows[y] (255: a COM line not driven, dark), as the SSD1306 twin's
// Panel.pixel() maps them; flags: 1 lit (on, pump), 2 entire display on, 4 inverse.
export function glass(w, h, ncols, ram, cols, rows, flags) {
  const out = new Uint8Array(((h + 7) >> 3) * w);
  if (!(flags & 1)) return out;
  const inv = flags & 4 ? 1 : 0;
  for (let y = 0; y < h; y++) {
    const r = rows[y];
    if (r === 255) continue;
    const base = (r >> 3) * ncols;
    const bit = r & 7;
    const at = (y >> 3) * w;
    const mask = 1 << (y & 7);
    for (let x = 0; x < w; x++) {
      const on = flags & 2 ? 1 : (ram[base + cols[x]] >> bit) & 1;
      if (on ^ inv) out[at + x] |= mask;
    }
  }
  return out;
}

export function forgetSaved() {
  for (const k of Object.keys(localStorage)) if (k.startsWith(STORE)) localStorage.removeItem(k);
}

export class PageUnit {
  // opts: {index, board, profile (object), files, binary, ether, env, host (element for the frame),
  //        onScreen(unit), onState(unit)}
  constructor(opts) {
    Object.assign(this, opts);
    this.prefix = `${STORE}${this.index}.`;
    this.text = [];
    this.screen = null;       // {w, h, bytes}: MONO_VLSB, as the SSD1306 twin's glass
    this.keys = 0;
    this.reports = [];
    this.console = [];
    this.state = "off";
    this.error = null;
    this.steps = 0;
    this.stepMsTotal = 0;
    this.stepMsMax = 0;
    this.boots = 0;
  }

  saved() {
    const out = {};
    for (const k of Object.keys(localStorage)) {
      if (k.startsWith(this.prefix)) out[k.slice(this.prefix.length)] = fromBase64(localStorage.getItem(k));
    }
    return out;
  }

  page() {
    // what the unit's twins call (the `page` module): every argument is a string or a number
    const ether = this.ether;
    const index = this.index;
    return {
      ether_connect: (hello) => ether.connect(index, JSON.parse(hello)),
      ether_hello: (id, hello) => ether.hello(id, JSON.parse(hello)),
      ether_put: (id, typ, hex) => ether.put(id, typ, hexToBytes(hex)),
      ether_take: (id) => ether.take(id),
      ether_close: (id) => ether.close(id),
      glass: (w, h, ncols, ram, cols, rows, flags) => {
        this.screen = {w, h, bytes: glass(w, h, ncols, hexToBytes(ram), hexToBytes(cols),
                                          hexToBytes(rows), flags)};
        this.onScreen(this);
      },
      text: (t) => { this.text = t.split("\n"); },
      keys: (n) => { this.keys = n; },
      random_hex: (n) => bytesToHex(crypto.getRandomValues(new Uint8Array(n))),
      report: (kind, t) => { this.reports.push({kind, text: t}); },
      console: (line) => {
        this.console.push(line);
        if (this.console.length > 300) this.console.shift();
      },
    };
  }

  async start() {
    this.state = "booting";
    this.error = null;
    this.onState(this);
    this.frame = document.createElement("iframe");
    this.frame.src = "unit.html";
    this.frame.title = `unit ${this.index + 1} interpreter`;
    this.frame.className = "interpreter";
    const loaded = new Promise((ok) => this.frame.addEventListener("load", ok, {once: true}));
    this.host.appendChild(this.frame);
    await loaded;
    const saved = this.saved();
    this.known = {};
    const t0 = performance.now();
    try {
      await this.frame.contentWindow.fathomUnit.boot({
        index: this.index, profile: JSON.stringify(this.profile), env: this.env,
        files: this.files, binary: this.binary, saved}, this.page());
    } catch (e) {
      this.fail(e);
      return;
    }
    this.bootMs = performance.now() - t0;
    this.bootParts = this.frame.contentWindow.fathomUnit.timings;
    this.boots += 1;
    this.known = {};          // the first turn keeps whatever boot wrote
    this.lastSaveWall = 0;
    this.state = "on";
    this.onState(this);
  }

  turn() {
    if (this.state !== "on") return;
    const u = this.frame.contentWindow.fathomUnit;
    const t0 = performance.now();
    try {
      u.turn();
    } catch (e) {
      if (e.type === "SystemExit" && RESET_EXITS.some((c) => String(e.message).includes(c))) {
        this.reboot();
      } else {
        this.fail(e);
      }
      return;
    }
    const ms = performance.now() - t0;
    this.steps += 1;
    this.stepMsTotal += ms;
    this.stepMsMax = Math.max(this.stepMsMax, ms);
    this.persist(u);
  }

  persist(u) {
    const since = Date.now() - 5;
    const {now, changed, gone} = u.changes(this.known, this.lastSaveWall || 0);
    this.lastSaveWall = since;
    for (const [name, bytes] of Object.entries(changed)) {
      try {
        localStorage.setItem(this.prefix + name, toBase64(bytes));
      } catch (e) {
        this.console.push(`storage full: ${name} not kept (${e})`);
      }
    }
    for (const name of gone) localStorage.removeItem(this.prefix + name);
    this.known = now;
  }

  fail(e) {
    this.state = "crashed";
    this.error = String(e && e.message || e);
    this.console.push(this.error);
    this.onState(this);
  }

  stop() {
    this.state = "off";
    this.ether.dropUnit(this.index);
    if (this.frame) this.frame.remove();
    this.frame = null;
  }

  async reboot() {
    this.stop();
    this.text = [];
    this.screen = null;
    this.keys = 0;
    await this.start();
  }

  press(key, long) {
    if (this.state === "on") this.frame.contentWindow.fathomUnit.press(key, long);
  }

  fingerDown(pin) {
    if (this.state === "on") this.frame.contentWindow.fathomUnit.down(pin);
  }

  fingerUp(pin) {
    if (this.state === "on") this.frame.contentWindow.fathomUnit.up(pin);
  }

  screenHex() {
    return this.screen ? bytesToHex(this.screen.bytes) : null;
  }

  stepStats() {
    return {steps: this.steps, mean_ms: this.steps ? this.stepMsTotal / this.steps : 0,
            max_ms: this.stepMsMax, boot_ms: this.bootMs, ...this.bootParts};
  }
}
