import { describe, expect, it } from 'vitest';
import { unpackedPath } from '../../../../src/main/platform/unpacked-path.ts';
import { defaultVadModelPath } from '../../../../src/main/audio/vad.ts';
import { whisperAddonPath } from '../../../../src/main/asr/whisper-addon.ts';

describe('unpackedPath: native assets of a packaged app are read from app.asar.unpacked', () => {
  it('maps a path inside app.asar to the same path inside app.asar.unpacked', () => {
    expect(unpackedPath('/opt/Tingxie/resources/app.asar/node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx')).toBe(
      '/opt/Tingxie/resources/app.asar.unpacked/node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx',
    );
    expect(unpackedPath('C:\\Program Files\\Tingxie\\resources\\app.asar\\node_modules\\x.node')).toBe('C:\\Program Files\\Tingxie\\resources\\app.asar.unpacked\\node_modules\\x.node');
  });

  it('leaves paths outside an archive, already unpacked, or only named like it unchanged', () => {
    for (const p of [
      '/work/main/node_modules/smart-whisper/build/Release/smart-whisper.node',
      '/opt/Tingxie/resources/app.asar.unpacked/node_modules/x.node',
      '/opt/Tingxie/resources/app.asar', // the archive itself: nothing inside it is named
      '/home/u/my-app.asar-notes/x.onnx',
      'node_modules/x.node',
    ]) {
      expect(unpackedPath(p)).toBe(p);
    }
  });

  it('is idempotent', () => {
    const once = unpackedPath('/r/app.asar/node_modules/a/b.node');
    expect(unpackedPath(once)).toBe(once);
  });

  it('is what the native asset paths go through: the VAD model and the whisper binding of a packaged app', () => {
    const packaged = (id: string): string => `/opt/Tingxie/resources/app.asar/node_modules/${id}`;
    // Regression: the default model path pointed into app.asar, sherpa-onnx could not open it, and with
    // VAD on every dictation of the packaged app came out as "no speech".
    expect(defaultVadModelPath(packaged)).toBe('/opt/Tingxie/resources/app.asar.unpacked/node_modules/@ricky0123/vad-web/dist/silero_vad_v5.onnx');
    const avx2Cpu = { resolve: packaged, arch: 'x64', cpu: () => ({ avx2: true, source: 'test' }), exists: () => true };
    expect(whisperAddonPath({}, avx2Cpu)).toBe('/opt/Tingxie/resources/app.asar.unpacked/node_modules/smart-whisper/build/Release/smart-whisper-avx2.node');
    expect(whisperAddonPath({ TINGXIE_WHISPER_VARIANT: 'baseline' }, avx2Cpu)).toBe(
      '/opt/Tingxie/resources/app.asar.unpacked/node_modules/smart-whisper/build/Release/smart-whisper-baseline.node',
    );
    // From a checkout nothing changes.
    expect(defaultVadModelPath()).toMatch(/[\\/]node_modules[\\/]@ricky0123[\\/]vad-web[\\/]dist[\\/]silero_vad_v5\.onnx$/);
    expect(defaultVadModelPath()).not.toContain('app.asar');
  });
});
