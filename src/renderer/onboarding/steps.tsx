import type { ReactNode } from 'react';
import type { TingxieBridge } from '../../shared/ipc/bridge-types.ts';
import type { ConfigSnapshot } from '../../shared/ipc/wire-types.ts';
import type { ConfigSaver } from '../hooks/use-config-saver.ts';
import { AiStep } from './ai-step.tsx';
import { ChooseStep, type SpeechPath } from './choose-step.tsx';
import { CloudStep } from './cloud-step.tsx';
import { HotkeyStep } from './hotkey-step.tsx';
import { LocalStep } from './local-step.tsx';
import { MicrophoneStep } from './microphone-step.tsx';
import { PermissionsStep } from './permissions-step.tsx';
import { TryStep } from './try-step.tsx';

/** What every step is given. */
export interface StepContext {
  readonly bridge: TingxieBridge;
  readonly config: ConfigSnapshot;
  readonly saver: ConfigSaver;
  /** The OS (app:info's platform), for key names and permission panes. */
  readonly platform: string;
  readonly path: SpeechPath;
  readonly setPath: (p: SpeechPath) => void;
  /** Whether Next may be pressed (only read for steps with `gated`). */
  readonly onReady: (ready: boolean) => void;
}

/** One step of the guide. */
export interface SetupStep {
  readonly id: string;
  /** Next waits for the step's `onReady(true)` (the speech engine works, a usable key is chosen). */
  readonly gated: boolean;
  readonly render: (ctx: StepContext) => ReactNode;
}

/**
 * The guide's steps, in order: where speech is recognised, setting it up, the AI that tidies the text and
 * learns from confirmed dictations, the microphone, the permissions the OS wants, the hotkey, one real
 * dictation. A new step is one entry here.
 */
export const SETUP_STEPS: readonly SetupStep[] = [
  { id: 'choose', gated: false, render: (c) => <ChooseStep path={c.path} onChange={c.setPath} /> },
  {
    id: 'speech',
    gated: true,
    render: (c) => (c.path === 'local' ? <LocalStep bridge={c.bridge} config={c.config} saver={c.saver} onReady={c.onReady} /> : <CloudStep bridge={c.bridge} config={c.config} saver={c.saver} onReady={c.onReady} />),
  },
  { id: 'ai', gated: false, render: (c) => <AiStep bridge={c.bridge} config={c.config} saver={c.saver} /> },
  { id: 'microphone', gated: false, render: (c) => <MicrophoneStep bridge={c.bridge} config={c.config} saver={c.saver} /> },
  { id: 'permissions', gated: false, render: (c) => <PermissionsStep bridge={c.bridge} /> },
  { id: 'hotkey', gated: true, render: (c) => <HotkeyStep bridge={c.bridge} config={c.config} saver={c.saver} platform={c.platform} onReady={c.onReady} /> },
  { id: 'try', gated: false, render: (c) => <TryStep bridge={c.bridge} config={c.config} platform={c.platform} /> },
];
