// An animated GIF of a unit's panel frames, for the page's GIF button (a finished game's replay
// stepped through, or any run of screens). A frame is the SSD1306's display RAM as the page
// draws it: one bit a pixel, a byte per 8 rows of a column. Two colours need no compression
// library: the LZW stream is left uncompressed, a clear code before every two pixels keeping
// every code at 3 bits (4.5 bits a pixel, ~4.6 KB a 128x64 frame).
const CLEAR = 4;                 // with a minimum code size of 2: codes 0-3 are colours
const END = 5;
const BITS = 3;

function pixels(bytes, w, h, put) {
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) put((bytes[(y >> 3) * w + x] >> (y & 7)) & 1);
  }
}

function lzw(bytes, w, h) {
  const out = [];
  let acc = 0;
  let n = 0;
  let since = 0;                 // pixels since the last clear: the decoder's table grows by one
  const code = (c) => {          // a code per pixel after the first, so two keep it at 3 bits
    acc |= c << n;
    n += BITS;
    while (n >= 8) {
      out.push(acc & 255);
      acc >>= 8;
      n -= 8;
    }
  };
  pixels(bytes, w, h, (p) => {
    if (since % 2 === 0) code(CLEAR);
    code(p);
    since++;
  });
  code(END);
  if (n) out.push(acc & 255);
  return out;
}

export function encodeGif(frames, w, h, fg, bg, delayCs = 60) {
  const out = [];
  const u16 = (v) => out.push(v & 255, (v >> 8) & 255);
  const ascii = (s) => { for (const ch of s) out.push(ch.charCodeAt(0)); };
  ascii("GIF89a");
  u16(w); u16(h);
  out.push(0x80, 0, 0);          // a global table of 2 colours: 0 the panel dark, 1 lit
  out.push(...bg, ...fg);
  out.push(0x21, 0xff, 11); ascii("NETSCAPE2.0"); out.push(3, 1, 0, 0, 0);   // loop for ever
  for (const bytes of frames) {
    out.push(0x21, 0xf9, 4, 0); u16(delayCs); out.push(0, 0);   // each frame's time on screen
    out.push(0x2c); u16(0); u16(0); u16(w); u16(h); out.push(0);
    out.push(2);
    const data = lzw(bytes, w, h);
    for (let i = 0; i < data.length; i += 255) {
      const part = data.slice(i, i + 255);
      out.push(part.length);
      for (const b of part) out.push(b);
    }
    out.push(0);
  }
  out.push(0x3b);
  return new Uint8Array(out);
}
