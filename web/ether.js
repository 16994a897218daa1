// The page's air and cable: relays ESP-NOW packets and UART bytes between the units' interpreters
// with the emulator's seeded faults (host_tools/fathom_host/emulator/ether.py): loss, duplication,
// corruption, delay and jitter, UART garbage, partitions. The units' wires
// (web/py/etherwire.py) speak its messages:
//   unit -> ether  H hello {kind espnow|uart, unit, mac, channel, pipe, end}
//                  S espnow send: dst mac(6) flags(1) [key tag(8) if encrypted] payload
//                  W uart bytes
//   ether -> unit  R espnow packet: src mac(6) flags(1) [key tag(8)] payload
//                  A espnow send status: 1 byte, 1 = the radio would have acknowledged
//                  B uart bytes
// A unicast is acknowledged when its receiver is there on the same channel and not partitioned
// from the sender; loss and corruption strike after that, as on the real radio.
export const KNOBS = ["loss", "dup", "corrupt", "delay_ms", "jitter_ms", "garbage"];
const COUNTERS = ["sent", "bytes", "delivered", "lost", "dup", "corrupt", "garbage",
                  "partitioned", "unroutable"];
const MAX_DATA_LEN = 250;
const ENC = 2;
const TAG_LEN = 8;
const UART_FAULT_SPAN = 8;
const UART_GARBAGE_MAX = 16;

export function hexToBytes(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.substr(2 * i, 2), 16);
  return out;
}

export function bytesToHex(bytes) {
  let s = "";
  for (const b of bytes) s += (b < 16 ? "0" : "") + b.toString(16);
  return s;
}

function newCounters() {
  return Object.fromEntries(COUNTERS.map((k) => [k, 0]));
}

// A small seeded generator (mulberry32) per link and kind, seeded from its name as the
// emulator seeds Python's random per (seed, kind, src, dst).
function rngFor(name) {
  let h = 1779033703 ^ name.length;
  for (let i = 0; i < name.length; i++) {
    h = Math.imul(h ^ name.charCodeAt(i), 3432918353);
    h = (h << 13) | (h >>> 19);
  }
  let a = h >>> 0;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    random,
    below: (n) => Math.floor(random() * n),
    between: (lo, hi) => lo + Math.floor(random() * (hi - lo + 1)),
  };
}

export class Ether {
  constructor(seed = 0, now = () => performance.now()) {
    this.seed = seed;
    this.now = now;
    this.knobs = Object.fromEntries(KNOBS.map((k) => [k, 0]));
    this.partitions = new Set();   // "a,b" with a < b: cut both ways
    this.conns = new Map();        // id -> {id, kind, unit, mac, channel, pipe, end, inbox}
    this.nextId = 1;
    this.pipes = new Map();        // pipe name -> [conn id of end 0, of end 1]
    this.queue = [];               // [due ms, seq, conn id, type, bytes], soonest first
    this.seq = 0;
    this.lineFree = new Map();     // "pipe:end" -> when the line is free again (bytes in order)
    this.rngs = new Map();
    this.totals = {espnow: newCounters(), uart: newCounters()};
  }

  // --- knobs --------------------------------------------------------------------------------
  set(knobs) {
    for (const [k, v] of Object.entries(knobs)) {
      if (!KNOBS.includes(k)) throw new Error(`unknown ether knob ${k}`);
      const x = Number(v);
      if (!(x >= 0) || (!k.endsWith("_ms") && x > 1)) {
        throw new Error(`${k} must be ${k.endsWith("_ms") ? ">= 0" : "a probability in [0, 1]"}`);
      }
      this.knobs[k] = x;
    }
  }

  partition(pairs) {
    this.partitions = new Set(pairs.map(([a, b]) => (a < b ? `${a},${b}` : `${b},${a}`)));
  }

  cut(a, b) {
    return this.partitions.has(a < b ? `${a},${b}` : `${b},${a}`);
  }

  // --- the units' wires -----------------------------------------------------------------------
  connect(unit, hello) {
    const c = {id: this.nextId++, unit, kind: null, inbox: []};
    this.conns.set(c.id, c);
    this.hello(c.id, hello);
    return c.id;
  }

  hello(id, h) {
    const c = this.conns.get(id);
    if (!c) return;
    if (h.kind !== "espnow" && h.kind !== "uart") throw new Error(`unknown kind ${h.kind}`);
    c.kind = h.kind;
    c.unit = h.unit;
    if (h.kind === "espnow") {
      c.mac = h.mac;
      c.channel = h.channel || 1;
      for (const o of this.conns.values()) {  // a rebooted unit takes over its MAC
        if (o !== c && o.kind === "espnow" && o.mac === c.mac) o.kind = "stale";
      }
    } else {
      if (h.end !== 0 && h.end !== 1) throw new Error(`a UART pipe has ends 0 and 1, not ${h.end}`);
      c.pipe = String(h.pipe);
      c.end = h.end;
      const ends = this.pipes.get(c.pipe) || [null, null];
      ends[c.end] = c.id;
      this.pipes.set(c.pipe, ends);
    }
  }

  close(id) {
    const c = this.conns.get(id);
    if (!c) return;
    this.conns.delete(id);
    if (c.kind === "uart") {
      const ends = this.pipes.get(c.pipe);
      if (ends && ends[c.end] === id) ends[c.end] = null;
    }
  }

  dropUnit(unit) {
    for (const c of [...this.conns.values()]) if (c.unit === unit) this.close(c.id);
  }

  put(id, typ, body) {
    const c = this.conns.get(id);
    if (!c) return;
    if (typ === "S" && c.kind === "espnow") this.espnowSend(c, body);
    else if (typ === "W" && c.kind === "uart") this.uartWrite(c, body);
    else throw new Error(`unexpected message ${typ} from a ${c.kind} connection`);
  }

  take(id) {
    this.deliverDue();
    const c = this.conns.get(id);
    if (!c || !c.inbox.length) return "";
    const out = c.inbox.map(([typ, body]) => typ + bytesToHex(body)).join(",");
    c.inbox = [];
    return out;
  }

  pending() {
    return this.queue.length;
  }

  // --- delivery -------------------------------------------------------------------------------
  schedule(due, conn, typ, body) {
    this.queue.push([due, this.seq++, conn.id, typ, body]);
    this.queue.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  }

  deliverDue() {
    const now = this.now();
    while (this.queue.length && this.queue[0][0] <= now) {
      const [, , id, typ, body] = this.queue.shift();
      const c = this.conns.get(id);
      if (c) c.inbox.push([typ, body]);
    }
  }

  rng(kind, src, dst) {
    const key = `${this.seed}:${kind}:${src}:${dst}`;
    if (!this.rngs.has(key)) this.rngs.set(key, rngFor(key));
    return this.rngs.get(key);
  }

  count(kind, name, n = 1) {
    this.totals[kind][name] += n;
  }

  delay(rng) {
    return this.knobs.delay_ms + (this.knobs.jitter_ms ? rng.random() * this.knobs.jitter_ms : 0);
  }

  espnowSend(c, body) {
    const dst = bytesToHex(body.slice(0, 6));
    const flags = body[6];
    const head = 7 + (flags & ENC ? TAG_LEN : 0);
    const tag = body.slice(7, head);
    const payload = body.slice(head);
    if (body.length < 7 || payload.length < 1 || payload.length > MAX_DATA_LEN) {
      throw new Error(`bad ESP-NOW send of ${payload.length} bytes`);
    }
    const bcast = (parseInt(dst.slice(0, 2), 16) & 1) === 1;
    const targets = [...this.conns.values()].filter((t) => t.kind === "espnow" && t !== c &&
      t.channel === c.channel && (bcast || t.mac === dst));
    this.count("espnow", "sent");
    this.count("espnow", "bytes", payload.length);
    if (!targets.length && !bcast) this.count("espnow", "unroutable");
    let acked = bcast;
    const now = this.now();
    for (const t of targets) {
      if (this.cut(c.unit, t.unit)) {
        this.count("espnow", "partitioned");
        continue;
      }
      acked = true;
      const rng = this.rng("espnow", c.unit, t.unit);
      if (rng.random() < this.knobs.loss) {
        this.count("espnow", "lost");
        continue;
      }
      let data = payload;
      if (rng.random() < this.knobs.corrupt) {
        data = data.slice();
        for (let k = rng.between(1, 3); k > 0; k--) data[rng.below(data.length)] ^= 1 << rng.below(8);
        this.count("espnow", "corrupt");
      }
      let copies = 1;
      if (rng.random() < this.knobs.dup) {
        copies = 2;
        this.count("espnow", "dup");
      }
      const msg = new Uint8Array(7 + tag.length + data.length);
      msg.set(hexToBytes(c.mac), 0);
      msg[6] = flags;
      msg.set(tag, 7);
      msg.set(data, 7 + tag.length);
      for (let k = 0; k < copies; k++) {
        this.schedule(now + this.delay(rng), t, "R", msg);
        this.count("espnow", "delivered");
      }
    }
    c.inbox.push(["A", new Uint8Array([acked ? 1 : 0])]);
  }

  uartWrite(c, body) {
    const ends = this.pipes.get(c.pipe) || [null, null];
    const other = this.conns.get(ends[1 - c.end]);
    this.count("uart", "sent");
    this.count("uart", "bytes", body.length);
    if (!other) {
      this.count("uart", "unroutable");
      return;
    }
    if (this.cut(c.unit, other.unit)) {
      this.count("uart", "partitioned");
      return;
    }
    const rng = this.rng("uart", c.unit, other.unit);
    const data = Array.from(body);
    const span = () => {
      const n = rng.between(1, Math.min(UART_FAULT_SPAN, data.length));
      return [rng.below(data.length - n + 1), n];
    };
    if (rng.random() < this.knobs.loss) {
      const [i, n] = span();
      data.splice(i, n);
      this.count("uart", "lost");
    }
    if (data.length && rng.random() < this.knobs.dup) {
      const [i, n] = span();
      data.splice(i, 0, ...data.slice(i, i + n));
      this.count("uart", "dup");
    }
    if (data.length && rng.random() < this.knobs.corrupt) {
      data[rng.below(data.length)] ^= 1 << rng.below(8);
      this.count("uart", "corrupt");
    }
    if (rng.random() < this.knobs.garbage) {
      const i = rng.below(data.length + 1);
      const junk = Array.from({length: rng.between(1, UART_GARBAGE_MAX)}, () => rng.below(256));
      data.splice(i, 0, ...junk);
      this.count("uart", "garbage");
    }
    if (!data.length) return;
    // a wire keeps bytes in order whatever the delay
    const line = `${c.pipe}:${c.end}`;
    const due = Math.max(this.now() + this.delay(rng), this.lineFree.get(line) || 0);
    this.lineFree.set(line, due);
    this.schedule(due, other, "B", new Uint8Array(data));
    this.count("uart", "delivered", data.length);
  }
}
