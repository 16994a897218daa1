// Inside a unit's frame: one MicroPython interpreter running firmware/main.py unchanged, with
// the browser twins (web/py) first on its path and the host twins of the hardware after them.
// The page calls boot() once, then turn() on its timer: the app never sleeps in the browser.
import {loadMicroPython} from "./vendor/micropython.mjs";

const PATH = ["/fw/web", "/fw/twins", "/fw"];

function writeTree(FS, root, files) {
  for (const [rel, text] of Object.entries(files)) {
    const parts = (root + "/" + rel).split("/").filter(Boolean);
    let dir = "";
    for (const p of parts.slice(0, -1)) {
      dir += "/" + p;
      try { FS.mkdir(dir); } catch (e) { /* already there */ }
    }
    FS.writeFile("/" + parts.join("/"), text);
  }
}

class Unit {
  // cfg: {index, profile (JSON text), env {NAME: value}, files {path: text},
  //      binary {path: base64} (the compiled modules), saved {name: bytes}}
  // page: the page's side of this unit (the `page` module its twins import)
  async boot(cfg, page) {
    const out = (line) => page.console(line);
    const t0 = performance.now();
    this.mp = await loadMicroPython({heapsize: cfg.heap || 1024 * 1024, pystack: 16 * 1024,
                                     stdout: out, stderr: out});
    const FS = this.mp.FS;
    writeTree(FS, "/fw", cfg.files);
    const bytes = {};
    for (const [rel, b64] of Object.entries(cfg.binary || {})) {
      bytes[rel] = Uint8Array.from(atob(b64), (ch) => ch.charCodeAt(0));
    }
    writeTree(FS, "/fw", bytes);
    FS.writeFile("/board.json", cfg.profile);
    FS.mkdir("/data");
    for (const [name, bytes] of Object.entries(cfg.saved || {})) FS.writeFile("/data/" + name, bytes);
    this.mp.registerJsModule("page", page);
    const env = Object.assign({FATHOM_BOARD: "/board.json", FATHOM_DIR: "/data",
                               FATHOM_UNIT: String(cfg.index)}, cfg.env || {});
    const t1 = performance.now();
    this.mp.runPython(`import sys\nsys.path[:0] = ${JSON.stringify(PATH)}\nimport os\n` +
                      `os.environ.update(${JSON.stringify(env)})\nimport main`);
    this.timings = {interpreter_ms: t1 - t0, firmware_ms: performance.now() - t1};
    const hub = this.mp.pyimport("hub");
    this.hub = hub;
    this.turnApp = hub.app.turn;
    this.down = hub.down;
    this.up = hub.up;
    this.pressKey = hub.press;
  }

  turn() {
    return this.turnApp();
  }

  press(key, long) {
    this.pressKey(key, !!long);
  }

  // The storage folder's files changed since `known` ({name: [mtime, size]}), read whole; a
  // file written at or after `since` (ms) is read again even if its signature is the same (two
  // writes of one size within a millisecond).
  changes(known, since) {
    const FS = this.mp.FS;
    const now = {};
    const changed = {};
    for (const name of FS.readdir("/data")) {
      if (name === "." || name === "..") continue;
      const st = FS.stat("/data/" + name);
      if (FS.isDir(st.mode)) continue;
      const sig = [st.mtime.getTime(), st.size];
      now[name] = sig;
      const old = known[name];
      if (!old || old[0] !== sig[0] || old[1] !== sig[1] || sig[0] >= since) changed[name] = FS.readFile("/data/" + name);
    }
    const gone = Object.keys(known).filter((n) => !(n in now));
    return {now, changed, gone};
  }
}

window.fathomUnit = new Unit();
