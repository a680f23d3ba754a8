import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRAY_STATUSES, trayIconFile } from '../../../../src/main/app/tray-menu.ts';

const root = resolve(import.meta.dirname, '../../../..');
const assets = join(root, 'assets');

interface Image {
  readonly width: number;
  readonly height: number;
  readonly rgba: Uint8Array;
}

/** A small, strict PNG decoder (8-bit RGBA, all five filter types) so the test reads what any viewer would. */
function decodePng(buf: Buffer): Image {
  expect(buf.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  let off = 8;
  let width = 0;
  let height = 0;
  const idat: Buffer[] = [];
  for (;;) {
    const len = buf.readUInt32BE(off);
    const type = buf.toString('ascii', off + 4, off + 8);
    const data = buf.subarray(off + 8, off + 8 + len);
    const crc = buf.readUInt32BE(off + 8 + len);
    expect(crc, `CRC of ${type}`).toBe(crc32(buf.subarray(off + 4, off + 8 + len)));
    off += 12 + len;
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect([data[8], data[9], data[12]]).toEqual([8, 6, 0]); // 8-bit RGBA, not interlaced
    } else if (type === 'IDAT') idat.push(data);
    else if (type === 'IEND') break;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * 4;
  const out = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    for (let x = 0; x < stride; x++) {
      const v = raw[y * (stride + 1) + 1 + x] ?? 0;
      const a = x >= 4 ? out[y * stride + x - 4]! : 0;
      const b = y > 0 ? out[(y - 1) * stride + x]! : 0;
      const c = x >= 4 && y > 0 ? out[(y - 1) * stride + x - 4]! : 0;
      const p = a + b - c;
      const pred = [0, a, b, (a + b) >> 1, Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c) ? a : Math.abs(p - b) <= Math.abs(p - c) ? b : c][filter!];
      out[y * stride + x] = (v + pred!) & 0xff;
    }
  }
  return { width, height, rgba: out };
}

function crc32(buf: Buffer): number {
  let c = 0xffffffff;
  for (const byte of buf) {
    c ^= byte;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  }
  return (c ^ 0xffffffff) >>> 0;
}

function coverage(img: Image): number {
  let opaque = 0;
  for (let i = 3; i < img.rgba.length; i += 4) if (img.rgba[i]! > 128) opaque++;
  return opaque / (img.width * img.height);
}

function listPngs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name.endsWith('.png')) out.push(relative(dir, join(d, e.name)));
    }
  };
  walk(dir);
  return out.sort();
}

describe('icons made by scripts/make-icons.mjs', () => {
  let fresh: string;
  beforeAll(() => {
    fresh = mkdtempSync(join(tmpdir(), 'tingxie-'));
    execFileSync(process.execPath, [join(root, 'scripts/make-icons.mjs'), fresh]);
  });
  afterAll(() => rmSync(fresh, { recursive: true, force: true }));

  it('the committed assets are exactly what the script draws (pixels compared)', () => {
    const files = listPngs(fresh);
    expect(files.length).toBe(6 * 4 + 7 + 1);
    expect(listPngs(assets).filter((f) => files.includes(f))).toEqual(files);
    for (const f of files) {
      const a = decodePng(readFileSync(join(assets, f)));
      const b = decodePng(readFileSync(join(fresh, f)));
      expect([a.width, a.height], f).toEqual([b.width, b.height]);
      expect(Buffer.from(a.rgba).equals(Buffer.from(b.rgba)), `${f} is stale: run node scripts/make-icons.mjs`).toBe(true);
    }
  });

  it('every tray state has 1x and @2x icons on every platform, with a visible glyph', () => {
    for (const status of TRAY_STATUSES) {
      for (const platform of ['darwin', 'linux', 'win32'] as const) {
        const base = trayIconFile(status, platform);
        for (const [file, size] of [[base, 16], [base.replace('.png', '@2x.png'), 32]] as const) {
          const path = join(assets, 'tray', file);
          expect(existsSync(path), path).toBe(true);
          const img = decodePng(readFileSync(path));
          expect([img.width, img.height]).toEqual([size, size]);
          // Not blank and not a filled square: the microphone covers a modest part of the icon.
          const cov = coverage(img);
          expect(cov, file).toBeGreaterThan(0.12);
          expect(cov, file).toBeLessThan(0.6);
        }
      }
    }
  });

  it('macOS template images are pure black with alpha; states differ in shape, not only colour', () => {
    const masks = new Map<string, string>();
    for (const status of TRAY_STATUSES) {
      const img = decodePng(readFileSync(join(assets, 'tray', trayIconFile(status, 'darwin').replace('.png', '@2x.png'))));
      for (let i = 0; i < img.rgba.length; i += 4) expect(img.rgba[i]! + img.rgba[i + 1]! + img.rgba[i + 2]!).toBe(0);
      masks.set(status, Array.from(img.rgba.filter((_, i) => i % 4 === 3), (a) => (a > 128 ? '1' : '0')).join(''));
    }
    expect(new Set(masks.values()).size).toBe(TRAY_STATUSES.length);
  });

  it('the app icon is 1024×1024 with transparent corners and an opaque centre', () => {
    const img = decodePng(readFileSync(join(assets, 'icon.png')));
    expect([img.width, img.height]).toEqual([1024, 1024]);
    expect(img.rgba[3]).toBe(0);
    const centre = (512 * 1024 + 512) * 4;
    expect(img.rgba[centre + 3]).toBe(255);
  });
});
