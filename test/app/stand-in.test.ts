/**
 * The stand-in itself: an Electron API it does not implement fails loudly with a named error (so no new
 * API slips into the product untested), and the IPC codec carries what Electron's structured clone does.
 */
import { describe, expect, it } from 'vitest';
import { ElectronStandInError, strict } from './stand-in/strict.ts';
import { decodeWire, encodeWire } from './stand-in/wire-codec.ts';

describe('electron stand-in', () => {
  it('throws ElectronStandInError naming an API it does not implement; implemented ones work', () => {
    const app = strict('app', { getVersion: () => '1.0.0', dock: undefined });
    expect(app.getVersion()).toBe('1.0.0');
    expect(app.dock).toBeUndefined();
    expect(() => (app as unknown as { setBadgeCount: unknown }).setBadgeCount).toThrow(ElectronStandInError);
    expect(() => (app as unknown as { setBadgeCount: unknown }).setBadgeCount).toThrow(/app\.setBadgeCount is not implemented/);
  });

  it('carries typed arrays, undefined, non-finite numbers and dates over IPC', () => {
    const value = { pcm: new Float32Array([0.5, -0.25]), bytes: new Uint8Array([1, 2, 3]), none: undefined, inf: -Infinity, when: new Date(5), list: [1, 'a', null] };
    const back = decodeWire(JSON.parse(JSON.stringify(encodeWire(value)))) as typeof value;
    expect(back.pcm).toBeInstanceOf(Float32Array);
    expect([...back.pcm]).toEqual([0.5, -0.25]);
    expect([...back.bytes]).toEqual([1, 2, 3]);
    expect('none' in back && back.none === undefined).toBe(true);
    expect(back.inf).toBe(-Infinity);
    expect(back.when.getTime()).toBe(5);
    expect(back.list).toEqual([1, 'a', null]);
  });
});
