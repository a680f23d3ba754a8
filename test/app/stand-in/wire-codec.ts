/**
 * How IPC payloads cross between a page and the stand-in's main process. Electron uses the structured
 * clone algorithm; Playwright's bindings carry JSON-like values, so typed arrays, ArrayBuffers and
 * `undefined` inside objects are tagged here. The two functions are self-contained (no closures, no
 * imports) because their source is also injected into every page.
 */

/** Encodes a structured-clonable value into JSON-safe data. */
export function encodeWire(value: unknown): unknown {
  const bytesToBase64 = (bytes: Uint8Array): string => {
    let s = '';
    for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, Array.from(bytes.subarray(i, i + 0x8000)));
    return btoa(s);
  };
  const walk = (v: unknown): unknown => {
    if (v === undefined) return { __wire: 'undefined' };
    if (typeof v === 'number' && !Number.isFinite(v)) return { __wire: 'number', value: String(v) };
    if (typeof v === 'bigint') return { __wire: 'bigint', value: v.toString() };
    if (v === null || typeof v !== 'object') return v;
    if (v instanceof ArrayBuffer) return { __wire: 'ArrayBuffer', b64: bytesToBase64(new Uint8Array(v)) };
    if (ArrayBuffer.isView(v)) {
      const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
      return { __wire: 'view', type: v.constructor.name, b64: bytesToBase64(bytes) };
    }
    if (v instanceof Date) return { __wire: 'Date', value: v.getTime() };
    if (Array.isArray(v)) return v.map(walk);
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walk(x);
    return { __wire: 'object', value: out };
  };
  return walk(value);
}

/** Decodes what {@link encodeWire} produced. */
export function decodeWire(value: unknown): unknown {
  const base64ToBytes = (b64: string): Uint8Array => {
    const s = atob(b64);
    const bytes = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
    return bytes;
  };
  const views: Record<string, new (b: ArrayBuffer) => unknown> = {
    Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array, Uint8ClampedArray,
  };
  const walk = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object') return v;
    if (Array.isArray(v)) return v.map(walk);
    const tagged = v as { __wire?: string; value?: unknown; b64?: string; type?: string };
    switch (tagged.__wire) {
      case 'undefined':
        return undefined;
      case 'number':
        return Number(tagged.value);
      case 'bigint':
        return BigInt(String(tagged.value));
      case 'ArrayBuffer':
        return base64ToBytes(String(tagged.b64)).buffer;
      case 'view': {
        const View = views[String(tagged.type)];
        if (View === undefined) throw new Error(`electron stand-in: cannot carry a ${String(tagged.type)} over IPC`);
        return new View(base64ToBytes(String(tagged.b64)).buffer as ArrayBuffer);
      }
      case 'Date':
        return new Date(Number(tagged.value));
      case 'object': {
        const out: Record<string, unknown> = {};
        for (const [k, x] of Object.entries(tagged.value as Record<string, unknown>)) out[k] = walk(x);
        return out;
      }
      default:
        throw new Error(`electron stand-in: unknown wire value ${JSON.stringify(v).slice(0, 80)}`);
    }
  };
  return walk(value);
}
