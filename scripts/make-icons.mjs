#!/usr/bin/env node
// Draws Tingxie's tray and app icons and writes them as real PNG files, using only node:zlib.
// Why a script and not hand-made files: the icons are reproducible from source, and a test
// (test/unit/main/app/icons.test.ts) regenerates them and checks the committed ones are current.
//
// Usage: node scripts/make-icons.mjs [outDir]     (default: assets/)
//
// The glyph is a microphone (capsule, U-shaped holder, stem, base) drawn with signed distance
// functions and supersampled for anti-aliasing. Each dictation state adds a small badge in the top
// right corner (dot, bars, sparkle, lines, exclamation) so the states differ by shape, not only by
// colour — macOS template images are monochrome.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { deflateSync } from 'node:zlib';

/** Tray states, matching TrayStatus in src/main/app/tray-menu.ts. */
export const TRAY_STATES = ['idle', 'recording', 'transcribing', 'enhancing', 'preview', 'error'];

const STATE_COLOURS = {
  idle: [138, 143, 152],
  recording: [229, 72, 77],
  transcribing: [62, 142, 247],
  enhancing: [142, 78, 198],
  preview: [48, 164, 108],
  error: [247, 104, 8],
};

// ---------- PNG encoding ----------

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

/** Encodes RGBA pixels (Uint8Array, width*height*4) as a PNG file. */
export function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 6; // colour type RGBA
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    Buffer.from(rgba.buffer, rgba.byteOffset + y * width * 4, width * 4).copy(raw, y * (width * 4 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

// ---------- shapes (signed distances in unit square coordinates, negative = inside) ----------

const sdCircle = (x, y, cx, cy, r) => Math.hypot(x - cx, y - cy) - r;

function sdBox(x, y, cx, cy, hw, hh, r = 0) {
  const dx = Math.abs(x - cx) - hw + r;
  const dy = Math.abs(y - cy) - hh + r;
  return Math.hypot(Math.max(dx, 0), Math.max(dy, 0)) + Math.min(Math.max(dx, dy), 0) - r;
}

/** Vertical capsule (stadium) between y0 and y1 with radius r. */
function sdCapsule(x, y, cx, y0, y1, r) {
  const cy = Math.min(Math.max(y, y0), y1);
  return Math.hypot(x - cx, y - cy) - r;
}

/** Lower half of a ring (the microphone's holder). */
function sdLowerArc(x, y, cx, cy, r, w) {
  if (y < cy) return Math.min(Math.hypot(x - (cx - r), y - cy), Math.hypot(x - (cx + r), y - cy)) - w;
  return Math.abs(Math.hypot(x - cx, y - cy) - r) - w;
}

const union = (...ds) => Math.min(...ds);

/** The microphone, fitted into the box [x0, x0+s] × [y0, y0+s]. */
function micAt(x, y, x0, y0, s) {
  const u = (x - x0) / s;
  const v = (y - y0) / s;
  const d = union(
    sdCapsule(u, v, 0.5, 0.26, 0.44, 0.15),
    sdLowerArc(u, v, 0.5, 0.46, 0.25, 0.045),
    sdBox(u, v, 0.5, 0.8, 0.045, 0.09),
    sdBox(u, v, 0.5, 0.88, 0.19, 0.045, 0.03),
  );
  return d * s;
}

/** The state badge in the top-right corner, or +Infinity for none. */
function badge(state, x, y) {
  switch (state) {
    case 'idle':
      return Infinity;
    case 'recording':
      return sdCircle(x, y, 0.83, 0.17, 0.15);
    case 'transcribing':
      return union(sdBox(x, y, 0.72, 0.2, 0.035, 0.08, 0.03), sdBox(x, y, 0.83, 0.17, 0.035, 0.15, 0.03), sdBox(x, y, 0.94, 0.2, 0.035, 0.08, 0.03));
    case 'enhancing': {
      // Four-pointed sparkle: a diamond with concave sides, approximated by two thin crossed diamonds.
      const dx = Math.abs(x - 0.83);
      const dy = Math.abs(y - 0.17);
      return Math.min(dx / 0.05 + dy / 0.17 - 1, dx / 0.17 + dy / 0.05 - 1) * 0.05;
    }
    case 'preview':
      return union(sdBox(x, y, 0.83, 0.07, 0.14, 0.035, 0.02), sdBox(x, y, 0.83, 0.18, 0.14, 0.035, 0.02), sdBox(x, y, 0.79, 0.29, 0.1, 0.035, 0.02));
    case 'error':
      return union(sdBox(x, y, 0.85, 0.13, 0.045, 0.12, 0.04), sdCircle(x, y, 0.85, 0.33, 0.05));
    default:
      throw new Error(`unknown state ${state}`);
  }
}

/** Renders `size`×`size` RGBA pixels: coverage of `sd` (in unit coordinates) filled with colour. */
function render(size, layers, samples = 4) {
  const px = new Uint8Array(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let pxi = 0; pxi < size; pxi++) {
      // Composite each layer "over" the previous, using supersampled coverage.
      let r = 0, g = 0, b = 0, a = 0;
      for (const layer of layers) {
        let hits = 0;
        for (let sy = 0; sy < samples; sy++) {
          for (let sx = 0; sx < samples; sx++) {
            const x = (pxi + (sx + 0.5) / samples) / size;
            const y = (py + (sy + 0.5) / samples) / size;
            if (layer.sd(x, y) <= 0) hits++;
          }
        }
        const cov = (hits / (samples * samples)) * (layer.alpha ?? 1);
        const [lr, lg, lb] = layer.colour(pxi / size, py / size);
        const na = cov + a * (1 - cov);
        if (na > 0) {
          r = (lr * cov + r * a * (1 - cov)) / na;
          g = (lg * cov + g * a * (1 - cov)) / na;
          b = (lb * cov + b * a * (1 - cov)) / na;
        }
        a = na;
      }
      const i = (py * size + pxi) * 4;
      px[i] = Math.round(r);
      px[i + 1] = Math.round(g);
      px[i + 2] = Math.round(b);
      px[i + 3] = Math.round(a * 255);
    }
  }
  return px;
}

/** Tray icon pixels for a state; template = black glyph for macOS (the OS tints it). */
export function trayPixels(state, size, template) {
  const colour = template ? [0, 0, 0] : STATE_COLOURS[state];
  const withBadge = state !== 'idle';
  // With a badge the microphone shrinks and moves left so the two never touch.
  const sd = (x, y) => union(withBadge ? micAt(x, y, -0.1, 0.06, 0.94) : micAt(x, y, 0, 0, 1), badge(state, x, y));
  return render(size, [{ sd, colour: () => colour }]);
}

/** App icon pixels: white microphone on a rounded square with a teal → indigo gradient. */
export function appIconPixels(size) {
  const samples = size >= 512 ? 2 : 4;
  const bg = {
    sd: (x, y) => sdBox(x, y, 0.5, 0.5, 0.41, 0.41, 0.09),
    colour: (x, y) => {
      const t = Math.min(1, Math.max(0, (x + y) / 2));
      return [Math.round(20 + t * 60), Math.round(160 - t * 80), Math.round(170 + t * 50)];
    },
  };
  const mic = { sd: (x, y) => micAt(x, y, 0.22, 0.2, 0.56), colour: () => [255, 255, 255] };
  return render(size, [bg, mic], samples);
}

/** Every file the script writes: relative path → PNG bytes. */
export function allIcons() {
  const files = new Map();
  for (const state of TRAY_STATES) {
    for (const [suffix, size] of [['', 16], ['@2x', 32]]) {
      files.set(`tray/tray-${state}${suffix}.png`, encodePng(size, size, trayPixels(state, size, false)));
      files.set(`tray/tray-${state}Template${suffix}.png`, encodePng(size, size, trayPixels(state, size, true)));
    }
  }
  for (const size of [16, 32, 48, 64, 128, 256, 512]) {
    files.set(`icons/${size}x${size}.png`, encodePng(size, size, appIconPixels(size)));
  }
  files.set('icon.png', encodePng(1024, 1024, appIconPixels(1024)));
  return files;
}

const isMain = process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const outDir = resolve(process.argv[2] ?? join(dirname(new URL(import.meta.url).pathname), '..', 'assets'));
  let count = 0;
  for (const [rel, bytes] of allIcons()) {
    const file = join(outDir, rel);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, bytes);
    count++;
  }
  console.log(`make-icons: wrote ${count} PNG files to ${outDir}`);
}
