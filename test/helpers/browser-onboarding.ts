/**
 * The onboarding window's owner for the browser tests: open/close recorded, the cloud speech check real,
 * the microphone test the app's own tester (src/main/app/mic-test.ts) over a stand-in capture link that
 * feeds a spoken-level tone (the whole-app scenarios run it over the real capture window and Chromium's
 * fake microphone), the permission checks the app's pure `permissionChecks` over an OS the test sets, and
 * the key watch recorded (the test sends `onboarding:key` as the hook would).
 */
import { createMicTester } from '../../src/main/app/mic-test.ts';
import { permissionChecks } from '../../src/main/app/permission-checks.ts';
import { REMOTE_SPEECH_SECRET, verifyRemoteSpeech } from '../../src/main/asr/verify-remote-speech.ts';
import type { Broadcast } from '../../src/main/ipc/register.ts';
import type { OnboardingService } from '../../src/main/ipc/services.ts';
import type { ConfigStore } from '../../src/main/settings/config-store.ts';
import type { SecretStore } from '../../src/main/settings/secrets.ts';
import type { PermissionCheck, PermissionId } from '../../src/shared/ipc/onboarding-contract.ts';

/** The OS the permission step sees; tests change it to watch a check turn green. */
export interface ScriptedOs {
  platform: string;
  session: 'x11' | 'wayland' | 'none' | null;
  microphone: PermissionCheck['state'];
  trusted: boolean;
  hook: boolean;
  /** Silence instead of the tone (the "nothing came in" path). */
  silentMic: boolean;
}

/** The service and what the page did with it. */
export interface BrowserOnboarding {
  readonly service: OnboardingService;
  readonly calls: string[];
  readonly os: ScriptedOs;
  readonly opened: PermissionId[];
  /** The last watch-keys request (null: never asked). */
  watching: boolean | null;
}

/** A 220 Hz tone at speaking level, in 100 ms batches at 16 kHz. */
function toneBatch(seq: number, silent: boolean): Float32Array {
  const out = new Float32Array(1600);
  if (silent) return out;
  for (let i = 0; i < out.length; i++) out[i] = 0.2 * Math.sin((2 * Math.PI * 220 * (seq * 1600 + i)) / 16_000) * (0.5 + 0.5 * Math.sin(seq));
  return out;
}

/** Builds the onboarding owner over the window's real stores. */
export function browserOnboarding(deps: { readonly config: ConfigStore; readonly secrets: SecretStore; readonly broadcast: () => Broadcast | null }): BrowserOnboarding {
  const os: ScriptedOs = { platform: 'linux', session: 'x11', microphone: 'granted', trusted: true, hook: true, silentMic: false };
  const timers = new Map<string, ReturnType<typeof setInterval>>();
  const tester = createMicTester({
    link: {
      status: null,
      start: (id) => {
        let seq = 0;
        timers.set(id, setInterval(() => tester.frames(id, seq, 16_000, toneBatch(seq++, os.silentMic)), 100));
      },
      stop: (id) => {
        clearInterval(timers.get(id));
        timers.delete(id);
        return Promise.resolve();
      },
    },
    idle: () => true,
    level: (level) => deps.broadcast()?.('onboarding:mic-level', { level }),
  });
  const me: BrowserOnboarding = {
    calls: [],
    os,
    opened: [],
    watching: null,
    service: {
      open: () => void me.calls.push('open'),
      close: () => void me.calls.push('close'),
      verifySpeech: () => verifyRemoteSpeech(deps.config.get(), deps.secrets.get(REMOTE_SPEECH_SECRET), 5000),
      micTest: () => tester.run(),
      permissions: () =>
        Promise.resolve({
          platform: os.platform,
          session: os.session,
          checks: permissionChecks(os.platform, { os: os.platform === 'linux' ? null : os.microphone, capture: os.platform === 'linux' ? os.microphone : 'unknown', trusted: os.trusted, hook: os.hook }),
        }),
      openPermission: (id) => {
        me.opened.push(id);
        return Promise.resolve(os.platform !== 'linux');
      },
      watchKeys: (on) => {
        me.watching = on;
      },
    },
  };
  return me;
}
