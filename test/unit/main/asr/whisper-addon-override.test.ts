/**
 * TINGXIE_WHISPER_ADDON (a path to any `.node` file) is a development aid: a packaged app ignores it in the
 * engine host and does not even pass it to the host process, so no
 * environment variable can load foreign native code into the signed app.
 */
import { describe, expect, it } from 'vitest';
import { utilityHostLauncher, type UtilityFork } from '../../../../src/main/asr/host-launcher.ts';
import { NATIVE_PATH_OVERRIDES, runsPackaged, whisperAddon, whisperHostEnv } from '../../../../src/main/asr/whisper-addon.ts';

const evil = { TINGXIE_WHISPER_ADDON: '/tmp/evil.node' };
const packagedResolve = (id: string): string => `/opt/Tingxie/resources/app.asar/node_modules/${id}`;

describe('the whisper addon path override', () => {
  it('is honoured in development only', () => {
    expect(whisperAddon(evil, { packaged: false })).toEqual({ path: '/tmp/evil.node', variant: 'default', reason: 'TINGXIE_WHISPER_ADDON' });
    const packaged = whisperAddon(evil, { packaged: true, resolve: packagedResolve, arch: 'arm64' });
    expect(packaged.path).toBe('/opt/Tingxie/resources/app.asar.unpacked/node_modules/smart-whisper/build/Release/smart-whisper-default.node');
    expect(packaged.reason).not.toBe('TINGXIE_WHISPER_ADDON');
  });

  it('knows a packaged app by its code living in app.asar (what the engine host can see)', () => {
    expect(runsPackaged('/opt/Tingxie/resources/app.asar/out/main')).toBe(true);
    expect(runsPackaged('C:\\Program Files\\Tingxie\\resources\\app.asar\\out\\main')).toBe(true);
    expect(runsPackaged('/opt/Tingxie/resources/app.asar')).toBe(true);
    expect(runsPackaged('/opt/Tingxie/resources/app.asar.unpacked/out/main')).toBe(false);
    expect(runsPackaged('/home/dev/tingxie/out/main')).toBe(false);
    // These tests run from the source tree: development.
    expect(runsPackaged()).toBe(false);
  });

  it('is not handed to the engine host process by a packaged app', () => {
    for (const name of NATIVE_PATH_OVERRIDES) {
      expect(whisperHostEnv({ [name]: '/tmp/evil.node', PATH: '/usr/bin' }, 'linux', 'x64', true)).toEqual({ PATH: '/usr/bin' });
      expect(whisperHostEnv({ [name]: '/tmp/evil.node' }, 'linux', 'x64', false)).toEqual({ [name]: '/tmp/evil.node' });
    }
    const seen: (NodeJS.ProcessEnv | undefined)[] = [];
    const fork: UtilityFork = (_path, _args, options) => {
      seen.push(options?.env);
      return { pid: 1, stderr: null, postMessage: () => undefined, on() { return this; }, kill: () => true } as unknown as ReturnType<UtilityFork>;
    };
    const saved = process.env.TINGXIE_WHISPER_ADDON;
    process.env.TINGXIE_WHISPER_ADDON = '/tmp/evil.node';
    try {
      utilityHostLauncher(fork, '/x/engine-host.js', true)();
      utilityHostLauncher(fork, '/x/engine-host.js', false)();
    } finally {
      if (saved === undefined) delete process.env.TINGXIE_WHISPER_ADDON;
      else process.env.TINGXIE_WHISPER_ADDON = saved;
    }
    expect(seen[0]).not.toHaveProperty('TINGXIE_WHISPER_ADDON');
    expect(seen[1]).toHaveProperty('TINGXIE_WHISPER_ADDON', '/tmp/evil.node');
  });
});
