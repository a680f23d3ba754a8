import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeHostLauncher, type EngineHostHandle, type HostLauncher } from '../../../../src/main/asr/host-launcher.ts';
import { LocalWhisperEngine } from '../../../../src/main/asr/local-engine.ts';
import { whisperAddon, whisperHostEnv, whisperUsesGpu } from '../../../../src/main/asr/whisper-addon.ts';
import {
  chooseWhisperVariant,
  detectCpuSimd,
  parseCpuinfoFlags,
  parseMacSysctl,
  whisperAddonFileName,
  whisperVariantsFor,
  type CpuProbes,
  type CpuSimd,
} from '../../../../src/main/asr/whisper-variant.ts';
import { hasTool, readPcm, speechWav } from '../../../helpers/audio-fixtures.ts';
import { ensureRandomWhisperModel } from '../../../helpers/whisper-model.ts';

/*
 * The local engine runs on every x64 CPU (the baseline build) and at full speed where
 * AVX2 exists (the avx2 build), picked at load time by what the CPU reports.
 */

const root = path.resolve(import.meta.dirname, '../../../..');
const release = path.join(root, 'node_modules/smart-whisper/build/Release');
const baselineBuilt = fs.existsSync(path.join(release, whisperAddonFileName('baseline')));

const CPUINFO_AVX2 = 'processor\t: 0\nvendor_id\t: GenuineIntel\nflags\t\t: fpu sse sse2 pni ssse3 fma sse4_1 avx f16c avx2 bmi2\n\nprocessor\t: 1\n';
const CPUINFO_SANDY = 'processor\t: 0\nflags\t\t: fpu sse sse2 pni ssse3 sse4_1 sse4_2 avx\n';

function probes(over: Partial<CpuProbes>): CpuProbes {
  const unused = (): never => {
    throw new Error('not this platform');
  };
  return { platform: 'linux', arch: 'x64', readCpuinfo: unused, macSysctl: unused, windowsFeature: unused, ...over };
}

describe('which CPU runs the avx2 build', () => {
  it('Linux: /proc/cpuinfo must list avx, avx2, fma and f16c', () => {
    expect(parseCpuinfoFlags(CPUINFO_AVX2)).toContain('avx2');
    expect(detectCpuSimd(probes({ readCpuinfo: () => CPUINFO_AVX2 }))).toMatchObject({ avx2: true });
    // Sandy/Ivy Bridge: AVX without AVX2/FMA/F16C (and the kernel hides avx* when the OS does not save AVX state).
    expect(detectCpuSimd(probes({ readCpuinfo: () => CPUINFO_SANDY }))).toEqual({ avx2: false, source: '/proc/cpuinfo lacks avx2 fma f16c' });
    expect(detectCpuSimd(probes({ readCpuinfo: () => 'flags\t: fpu avx2 fma f16c\n' })).avx2).toBe(false); // no avx: not trusted
  });

  it('macOS x64: sysctl hw.optional must report avx1_0, avx2_0, fma and f16c', () => {
    const intel = 'hw.optional.avx1_0: 1\nhw.optional.avx2_0: 1\nhw.optional.fma: 1\nhw.optional.f16c: 1\n';
    expect(parseMacSysctl(intel)).toBe(true);
    expect(detectCpuSimd(probes({ platform: 'darwin', macSysctl: () => intel })).avx2).toBe(true);
    expect(detectCpuSimd(probes({ platform: 'darwin', macSysctl: () => 'hw.optional.avx1_0: 1\nhw.optional.avx2_0: 0\nhw.optional.fma: 0\nhw.optional.f16c: 1\n' })).avx2).toBe(false);
    expect(detectCpuSimd(probes({ platform: 'darwin', macSysctl: () => '' })).avx2).toBe(false); // sysctl missing or refused
  });

  it('Windows: IsProcessorFeaturePresent(PF_AVX=39, PF_AVX2=40); a failing call means baseline', () => {
    const asked: number[] = [];
    expect(detectCpuSimd(probes({ platform: 'win32', windowsFeature: (f) => (asked.push(f), true) })).avx2).toBe(true);
    expect(asked).toEqual([39, 40]);
    expect(detectCpuSimd(probes({ platform: 'win32', windowsFeature: (f) => f !== 40 })).avx2).toBe(false);
    const failing = detectCpuSimd(probes({ platform: 'win32', windowsFeature: () => { throw new Error('koffi missing'); } }));
    expect(failing).toEqual({ avx2: false, source: 'detection failed (koffi missing), baseline' });
  });

  it('other architectures have one build; other systems get the baseline', () => {
    expect(whisperVariantsFor('x64')).toEqual(['avx2', 'baseline']);
    expect(whisperVariantsFor('arm64')).toEqual(['default']);
    expect(detectCpuSimd(probes({ arch: 'arm64' })).avx2).toBe(false);
    expect(detectCpuSimd(probes({ platform: 'freebsd' })).avx2).toBe(false);
  });
});

describe('chooseWhisperVariant', () => {
  const avx2: CpuSimd = { avx2: true, source: 'test cpu with AVX2' };
  const old: CpuSimd = { avx2: false, source: 'test cpu without AVX2' };
  const all = (): boolean => true;

  it('avx2 where the CPU has it and it was built, else baseline; never avx2 on a CPU without it', () => {
    expect(chooseWhisperVariant({ arch: 'x64', env: {}, cpu: () => avx2, built: all })).toEqual({ variant: 'avx2', reason: 'test cpu with AVX2' });
    expect(chooseWhisperVariant({ arch: 'x64', env: {}, cpu: () => old, built: all }).variant).toBe('baseline');
    expect(chooseWhisperVariant({ arch: 'x64', env: {}, cpu: () => avx2, built: (v) => v === 'baseline' })).toEqual({
      variant: 'baseline',
      reason: 'test cpu with AVX2, but the avx2 build is missing',
    });
    // Only the avx2 build exists and the CPU lacks AVX2: the baseline path is returned (→ "engine not built"), not a crash.
    expect(chooseWhisperVariant({ arch: 'x64', env: {}, cpu: () => old, built: (v) => v === 'avx2' }).variant).toBe('baseline');
  });

  it('TINGXIE_WHISPER_VARIANT forces a build; an unknown value is ignored', () => {
    expect(chooseWhisperVariant({ arch: 'x64', env: { TINGXIE_WHISPER_VARIANT: 'baseline' }, cpu: () => avx2, built: all })).toEqual({
      variant: 'baseline',
      reason: 'TINGXIE_WHISPER_VARIANT=baseline',
    });
    expect(chooseWhisperVariant({ arch: 'x64', env: { TINGXIE_WHISPER_VARIANT: 'avx2' }, cpu: () => old, built: all }).variant).toBe('avx2');
    expect(chooseWhisperVariant({ arch: 'x64', env: { TINGXIE_WHISPER_VARIANT: 'avx512' }, cpu: () => old, built: all }).variant).toBe('baseline');
    expect(chooseWhisperVariant({ arch: 'arm64', env: {}, cpu: () => old, built: all })).toEqual({ variant: 'default', reason: 'the only build for arm64' });
  });

  it('the path: build/Release/smart-whisper-<variant>.node, unpacked in a packaged app', () => {
    const packaged = (id: string): string => `/opt/Tingxie/resources/app.asar/node_modules/${id}`;
    const a = whisperAddon({}, { resolve: packaged, arch: 'x64', cpu: () => avx2, exists: () => true });
    expect(a).toEqual({ variant: 'avx2', reason: 'test cpu with AVX2', path: '/opt/Tingxie/resources/app.asar.unpacked/node_modules/smart-whisper/build/Release/smart-whisper-avx2.node' });
    // The existence check looks at the unpacked file, where the build really is.
    const seen: string[] = [];
    whisperAddon({}, { resolve: packaged, arch: 'x64', cpu: () => avx2, exists: (f) => (seen.push(f), true) });
    expect(seen).toEqual(['/opt/Tingxie/resources/app.asar.unpacked/node_modules/smart-whisper/build/Release/smart-whisper-avx2.node']);
    expect(whisperAddon({}, { resolve: packaged, arch: 'arm64' }).path).toMatch(/app\.asar\.unpacked\/node_modules\/smart-whisper\/build\/Release\/smart-whisper-default\.node$/);
    expect(whisperAddon({ TINGXIE_WHISPER_ADDON: '/x/y.node' }).path).toBe('/x/y.node');
  });

  it('GPU (Metal) only on Apple silicon, and TINGXIE_WHISPER_GPU=0 turns it off', () => {
    expect(whisperUsesGpu({}, 'darwin', 'arm64')).toBe(true);
    expect(whisperUsesGpu({ TINGXIE_WHISPER_GPU: '0' }, 'darwin', 'arm64')).toBe(false);
    expect(whisperUsesGpu({}, 'darwin', 'x64')).toBe(false);
    expect(whisperUsesGpu({}, 'linux', 'x64')).toBe(false);
    expect(whisperUsesGpu({}, 'win32', 'x64')).toBe(false);
  });

  it('Apple silicon: the engine host starts with GGML_METAL_PATH_RESOURCES at the addon\'s folder, where Metal\'s shader source is', () => {
    const env = whisperHostEnv({ PATH: '/bin' }, 'darwin', 'arm64');
    expect(env.GGML_METAL_PATH_RESOURCES).toBe(release);
    expect(env.PATH).toBe('/bin');
    expect(whisperHostEnv({ GGML_METAL_PATH_RESOURCES: '/mine' }, 'darwin', 'arm64').GGML_METAL_PATH_RESOURCES).toBe('/mine');
    expect(whisperHostEnv({ TINGXIE_WHISPER_GPU: '0' }, 'darwin', 'arm64').GGML_METAL_PATH_RESOURCES).toBeUndefined();
    expect(whisperHostEnv({}, 'linux', 'x64').GGML_METAL_PATH_RESOURCES).toBeUndefined();
  });
});

/** Mnemonics of every instruction in a shared object (objdump), counted. */
function mnemonics(file: string): Map<string, number> {
  const r = spawnSync('objdump', ['-d', '--no-show-raw-insn', file], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
  const counts = new Map<string, number>();
  for (const line of r.stdout.split('\n')) {
    const ins = line.split('\t')[1]?.trim().split(/\s+/)[0];
    if (ins) counts.set(ins, (counts.get(ins) ?? 0) + 1);
  }
  return counts;
}

const onX64Linux = process.platform === 'linux' && process.arch === 'x64';

describe.skipIf(!onX64Linux || !baselineBuilt)('the baseline build (x64 Linux, built by scripts/build-whisper.mjs)', () => {
  it.skipIf(!hasTool('objdump'))('contains no AVX, AVX2, FMA, F16C, SSSE3 or SSE4 instruction; the avx2 build does use them', () => {
    const base = mnemonics(path.join(release, whisperAddonFileName('baseline')));
    expect(base.size).toBeGreaterThan(100);
    // Every VEX/EVEX-encoded instruction (AVX and later, FMA, F16C) has a mnemonic starting with v.
    expect([...base.keys()].filter((m) => m.startsWith('v'))).toEqual([]);
    // (pminub/pmaxub/pminsw/pmaxsw are SSE2 and allowed.)
    const ssse3OrSse4 = /^(pshufb|palignr|pabs[bwd]|phadd|phsub|pmaddubsw|pmulhrsw|psign|pblendvb|blendv?p[sd]|ptest|pmulld|pmin(sb|uw|ud|sd)|pmax(sb|uw|ud|sd)|round[ps][sd]|insertps|extractps|pextr[bdq]|pinsr[bdq]|dpp[sd]|pmov[sz]x|pcmpeqq|packusdw|pcmpgtq|crc32|popcnt)/;
    expect([...base.keys()].filter((m) => ssse3OrSse4.test(m))).toEqual([]);
    const avx2Build = path.join(release, whisperAddonFileName('avx2'));
    if (fs.existsSync(avx2Build)) {
      const fast = mnemonics(avx2Build);
      expect([...fast.keys()].some((m) => m.startsWith('vfmadd'))).toBe(true);
      expect(fast.has('vcvtph2ps')).toBe(true);
    }
  }, 60_000);

  it('forced with TINGXIE_WHISPER_VARIANT=baseline, the engine host loads it and transcribes the random-weight model', async () => {
    const model = ensureRandomWhisperModel();
    const speech = hasTool('espeak-ng') && hasTool('sox')
      ? readPcm(speechWav('hello world this is a test')).samples
      : new Float32Array(32000).map((_, i) => 0.2 * Math.sin(i / 7) * Math.sin(i / 900));
    let host: EngineHostHandle | undefined;
    const inner = nodeHostLauncher({ env: { ...process.env, TINGXIE_WHISPER_VARIANT: 'baseline' } });
    const launcher: HostLauncher = () => (host = inner());
    const engine = new LocalWhisperEngine({ modelPath: model, threads: 2, launcher });
    try {
      const r = await engine.transcribe(speech, { language: 'en' });
      // The generated model's scripted words: load → mel → encoder → decoder all ran in the baseline build.
      expect(r.text).toBe('hello world');
      expect(r.segments).toEqual([{ startMs: 0, endMs: 2000, text: ' hello world', confidence: 1 }]);
      expect(host?.stderrTail()).toContain('tingxie engine: whisper addon baseline (TINGXIE_WHISPER_VARIANT=baseline)');
      // The file the process really mapped: the baseline build, not the avx2 one.
      const maps = fs.readFileSync(`/proc/${engine.status().pid}/maps`, 'utf8');
      expect(maps).toContain(whisperAddonFileName('baseline'));
      expect(maps).not.toContain(whisperAddonFileName('avx2'));
    } finally {
      await engine.dispose();
    }
  }, 60_000);

  it('unforced, this machine picks by its own CPU', () => {
    const flags = parseCpuinfoFlags(fs.readFileSync('/proc/cpuinfo', 'utf8'));
    const expected = ['avx', 'avx2', 'fma', 'f16c'].every((f) => flags.has(f)) && fs.existsSync(path.join(release, whisperAddonFileName('avx2'))) ? 'avx2' : 'baseline';
    expect(whisperAddon({}).variant).toBe(expected);
  });
});
