import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';

/*
 * Which build of the whisper addon this machine runs. scripts/build-whisper.mjs compiles whisper.cpp twice
 * on x86: `avx2` (-mavx -mavx2 -mfma -mf16c, full speed on Intel Haswell / AMD Excavator and later) and
 * `baseline` (SSE3 only, which every CPU Electron runs on has). An AVX2 build dies with SIGILL on a CPU
 * without AVX2, so it is loaded only where the CPU is known to have AVX, AVX2, FMA and F16C:
 *   Linux    /proc/cpuinfo's flags (the kernel drops avx* when the OS does not save the AVX state);
 *   macOS    sysctl hw.optional.avx1_0/avx2_0/fma/f16c (under Rosetta: what Rosetta translates);
 *   Windows  IsProcessorFeaturePresent(PF_AVX2_INSTRUCTIONS_AVAILABLE) through koffi, which the app
 *            ships for its Win32 calls (MSVC's /arch:AVX2 implies FMA and F16C, as do all AVX2 CPUs).
 * Anything unknown or failing picks baseline: slower, never a crash. Other architectures have one build
 * (`default`: NEON on arm64, plus Metal on Apple silicon). TINGXIE_WHISPER_VARIANT=baseline|avx2 forces one.
 */

/** The addon builds (keep in step with scripts/build-whisper.mjs). */
export type WhisperVariant = 'avx2' | 'baseline' | 'default';

/** Environment variable that forces a variant (tests, or a user whose CPU detection is wrong). */
export const WHISPER_VARIANT_ENV = 'TINGXIE_WHISPER_VARIANT';

/** The variants built for `arch`, fastest first. */
export function whisperVariantsFor(arch: string): readonly WhisperVariant[] {
  return arch === 'x64' || arch === 'ia32' ? ['avx2', 'baseline'] : ['default'];
}

/** The addon's file name in smart-whisper/build/Release. */
export function whisperAddonFileName(variant: WhisperVariant): string {
  return `smart-whisper-${variant}.node`;
}

/** What the CPU can run, and how that was found out (for the log). */
export interface CpuSimd {
  readonly avx2: boolean;
  readonly source: string;
}

/** The instruction-set extensions the avx2 variant is compiled with. */
const AVX2_SET = ['avx', 'avx2', 'fma', 'f16c'] as const;

/** The feature flags of the first processor in /proc/cpuinfo text (x86 `flags`, ARM `Features`). */
export function parseCpuinfoFlags(text: string): Set<string> {
  const line = text.split('\n').find((l) => /^(flags|Features)\s*:/.test(l)) ?? '';
  return new Set(line.replace(/^[^:]*:/, '').trim().toLowerCase().split(/\s+/).filter(Boolean));
}

/** `sysctl hw.optional.avx1_0 hw.optional.avx2_0 hw.optional.fma hw.optional.f16c` output → AVX2 set present. */
export function parseMacSysctl(text: string): boolean {
  const values = new Map(text.split('\n').map((l) => l.split(':').map((p) => p.trim()) as [string, string]));
  return ['hw.optional.avx1_0', 'hw.optional.avx2_0', 'hw.optional.fma', 'hw.optional.f16c'].every((k) => values.get(k) === '1');
}

/** How {@link detectCpuSimd} reads the machine (replaced in tests). */
export interface CpuProbes {
  readonly platform: NodeJS.Platform;
  readonly arch: string;
  readCpuinfo(): string;
  macSysctl(): string;
  /** IsProcessorFeaturePresent(feature) on Windows. */
  windowsFeature(feature: number): boolean;
}

const PF_AVX_INSTRUCTIONS_AVAILABLE = 39;
const PF_AVX2_INSTRUCTIONS_AVAILABLE = 40;

/** Whether this CPU (and OS) runs the avx2 variant; every failure answers no. */
export function detectCpuSimd(probes: CpuProbes = realProbes()): CpuSimd {
  if (probes.arch !== 'x64' && probes.arch !== 'ia32') return { avx2: false, source: `${probes.arch}: no x86 variants` };
  try {
    switch (probes.platform) {
      case 'linux': {
        const flags = parseCpuinfoFlags(probes.readCpuinfo());
        const missing = AVX2_SET.filter((f) => !flags.has(f));
        return { avx2: missing.length === 0, source: missing.length === 0 ? '/proc/cpuinfo lists avx avx2 fma f16c' : `/proc/cpuinfo lacks ${missing.join(' ')}` };
      }
      case 'darwin': {
        const ok = parseMacSysctl(probes.macSysctl());
        return { avx2: ok, source: `sysctl hw.optional: ${ok ? 'avx1_0 avx2_0 fma f16c' : 'not all of avx1_0 avx2_0 fma f16c'}` };
      }
      case 'win32': {
        const ok = probes.windowsFeature(PF_AVX_INSTRUCTIONS_AVAILABLE) && probes.windowsFeature(PF_AVX2_INSTRUCTIONS_AVAILABLE);
        return { avx2: ok, source: `IsProcessorFeaturePresent: ${ok ? 'AVX and AVX2' : 'no AVX2'}` };
      }
      default:
        return { avx2: false, source: `${probes.platform}: no detection, baseline` };
    }
  } catch (err) {
    return { avx2: false, source: `detection failed (${(err as Error).message}), baseline` };
  }
}

// Not named `require`: electron-vite's ESM shim declares a top-level `require` in every chunk that calls one.
const nodeRequire = createRequire(import.meta.url);

/** The machine's own probes. */
export function realProbes(): CpuProbes {
  return {
    platform: process.platform,
    arch: process.arch,
    readCpuinfo: () => fs.readFileSync('/proc/cpuinfo', 'utf8'),
    macSysctl: () => {
      const r = spawnSync('sysctl', ['hw.optional.avx1_0', 'hw.optional.avx2_0', 'hw.optional.fma', 'hw.optional.f16c'], { encoding: 'utf8', timeout: 5000 });
      return r.stdout ?? '';
    },
    windowsFeature: (feature) => {
      const koffi = nodeRequire('koffi') as { load(lib: string): { func(def: string): (...a: unknown[]) => unknown } };
      const present = koffi.load('kernel32.dll').func('int __stdcall IsProcessorFeaturePresent(uint32_t ProcessorFeature)');
      return Number(present(feature)) !== 0;
    },
  };
}

let cached: CpuSimd | undefined;

/** {@link detectCpuSimd} of this machine, once per process. */
export function thisCpuSimd(): CpuSimd {
  cached ??= detectCpuSimd();
  return cached;
}

/** The variant to load, and why. */
export interface VariantChoice {
  readonly variant: WhisperVariant;
  readonly reason: string;
}

/**
 * Picks the addon build: the forced one (TINGXIE_WHISPER_VARIANT), else avx2 where the CPU has it and it
 * was built, else baseline. Never avx2 on a CPU not known to run it: a missing baseline then reads as
 * "engine not built", not as a crash.
 */
export function chooseWhisperVariant(opts: {
  readonly arch: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cpu: () => CpuSimd;
  readonly built: (variant: WhisperVariant) => boolean;
}): VariantChoice {
  const variants = whisperVariantsFor(opts.arch);
  const forced = opts.env[WHISPER_VARIANT_ENV];
  if (forced !== undefined && forced !== '') {
    if ((variants as readonly string[]).includes(forced)) return { variant: forced as WhisperVariant, reason: `${WHISPER_VARIANT_ENV}=${forced}` };
    // An unknown value is ignored, not fatal: the detection below still picks a build that runs.
  }
  if (variants.length === 1) return { variant: variants[0] as WhisperVariant, reason: `the only build for ${opts.arch}` };
  const cpu = opts.cpu();
  if (cpu.avx2 && opts.built('avx2')) return { variant: 'avx2', reason: cpu.source };
  return { variant: 'baseline', reason: cpu.avx2 ? `${cpu.source}, but the avx2 build is missing` : cpu.source };
}
