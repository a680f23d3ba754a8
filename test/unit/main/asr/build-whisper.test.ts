import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs build script without type declarations
import * as script from '../../../../scripts/build-whisper.mjs';
import { whisperAddonFileName, whisperVariantsFor, type WhisperVariant } from '../../../../src/main/asr/whisper-variant.ts';

interface Variant {
  name: string;
  flags: string[];
}
const { whisperVariants, addonFileName, msvcOptions } = script as {
  whisperVariants(arch: string, env: Record<string, string>): Variant[];
  addonFileName(variant: string): string;
  msvcOptions(flags: string[]): string[];
};

describe('scripts/build-whisper.mjs variants', () => {
  it('x86: an avx2 build and a baseline build with fixed flags, never the build machine\'s -march=native', () => {
    expect(whisperVariants('x64', {})).toEqual([
      { name: 'avx2', flags: ['-mavx', '-mavx2', '-mfma', '-mf16c', '-msse3', '-mssse3'] },
      // SSE3 is the floor of every CPU Electron runs on (Chromium requires it); nothing of AVX, FMA or F16C.
      { name: 'baseline', flags: ['-msse3'] },
    ]);
    expect(whisperVariants('ia32', {}).map((v) => v.name)).toEqual(['avx2', 'baseline']);
  });

  it('arm64: one build with the compiler defaults (NEON; Metal on Apple silicon comes from the package project)', () => {
    expect(whisperVariants('arm64', {})).toEqual([{ name: 'default', flags: [] }]);
  });

  it('development overrides change only the fast build; TINGXIE_WHISPER_VARIANTS picks which to build', () => {
    expect(whisperVariants('x64', { TINGXIE_WHISPER_NATIVE: '1' })).toEqual([
      { name: 'avx2', flags: ['-march=native'] },
      { name: 'baseline', flags: ['-msse3'] },
    ]);
    expect(whisperVariants('x64', { TINGXIE_WHISPER_CFLAGS: '-mavx  -mfma' })[0]).toEqual({ name: 'avx2', flags: ['-mavx', '-mfma'] });
    expect(whisperVariants('x64', { TINGXIE_WHISPER_VARIANTS: 'baseline' })).toEqual([{ name: 'baseline', flags: ['-msse3'] }]);
  });

  it('MSVC (Windows, where msbuild ignores $CFLAGS): /arch:AVX2 for the avx2 build, SSE2 defaults for the baseline', () => {
    expect(msvcOptions(whisperVariants('x64', {})[0]!.flags)).toEqual(['/DNDEBUG', '/arch:AVX2']);
    expect(msvcOptions(whisperVariants('x64', {})[1]!.flags)).toEqual(['/DNDEBUG']);
  });

  it('builds exactly the files the app looks for (src/main/asr/whisper-variant.ts)', () => {
    for (const arch of ['x64', 'arm64']) {
      const built = whisperVariants(arch, {}).map((v) => v.name);
      expect(built).toEqual(whisperVariantsFor(arch));
      for (const v of built) expect(addonFileName(v)).toBe(whisperAddonFileName(v as WhisperVariant));
    }
  });
});
