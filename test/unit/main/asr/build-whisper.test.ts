import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import { whisperCflags } from '../../../../scripts/build-whisper.mjs';

const flags = whisperCflags as (features: Set<string>, arch: string, env: Record<string, string>) => string[];

describe('scripts/build-whisper.mjs SIMD flags', () => {
  it('uses exactly the x86 extensions the CPU reports, never -march=native by default', () => {
    const linux = new Set(['fpu', 'sse3', 'ssse3', 'avx', 'avx2', 'fma', 'f16c', 'avx512f']);
    expect(flags(linux, 'x64', {})).toEqual(['-mavx', '-mavx2', '-mfma', '-mf16c', '-msse3', '-mssse3']);
    expect(flags(new Set(['sse3', 'avx']), 'x64', {})).toEqual(['-mavx', '-msse3']);
    const mac = new Set(['avx1_0', 'fma', 'f16c', 'avx2', 'sse3']);
    expect(flags(mac, 'x64', {})).toEqual(['-mavx', '-mavx2', '-mfma', '-mf16c', '-msse3']);
  });

  it('adds nothing on arm64 (NEON is on by default) and honours the overrides', () => {
    expect(flags(new Set(['neon', 'asimd']), 'arm64', {})).toEqual([]);
    expect(flags(new Set(['avx2']), 'x64', { TINGXIE_WHISPER_NATIVE: '1' })).toEqual(['-march=native']);
    expect(flags(new Set(), 'x64', { TINGXIE_WHISPER_CFLAGS: '-mavx  -mfma' })).toEqual(['-mavx', '-mfma']);
  });
});
