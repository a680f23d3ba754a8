import { describe, expect, it } from 'vitest';
import { dictationEventFanOut } from '../../../../src/main/app/dictation-events.ts';
import type { TrayState } from '../../../../src/main/app/tray-menu.ts';
import type { DictationEvent } from '../../../../src/shared/ipc/dictation-types.ts';
import type { Notice } from '../../../../src/shared/notices/notice.ts';

function setup() {
  const calls: string[] = [];
  const tray: Partial<TrayState>[] = [];
  const session = { state: { state: 'idle' }, retryable: null as string | null };
  const emit = dictationEventFanOut({
    broadcast: () => (channel, payload) => calls.push(`broadcast ${channel} ${(payload as DictationEvent).kind}`),
    recordingChanged: (on) => calls.push(`recording ${on}`),
    indicator: { stateChanged: (s) => calls.push(`indicator ${s}`), notice: (n) => calls.push(`indicator notice ${n.code}`) },
    tray: () => ({ update: (p) => tray.push(p) }),
    words: (n: Notice) => `words for ${n.code}`,
    openOnboarding: () => calls.push('onboarding'),
    session: () => ({ state: session.state, lastRetryable: () => session.retryable }),
  });
  return { calls, tray, session, emit };
}

const state = (s: 'idle' | 'recording', previous: 'idle' | 'recording' = 'idle'): DictationEvent => ({ kind: 'state', sessionId: 's1', state: s, previous, mode: 'proofread' });

describe('dictationEventFanOut', () => {
  it('broadcasts first, then consumes the recording keys before the indicator says "recording"', () => {
    const t = setup();
    t.emit(state('recording'));
    expect(t.calls).toEqual(['broadcast dictation:event state', 'recording true', 'indicator recording']);
    expect(t.tray).toEqual([{ status: 'recording', detail: '', mode: 'proofread', canRetry: false }]);
  });

  it('an error notice stays on the tray as the last error until the next dictation starts', () => {
    const t = setup();
    t.session.retryable = 's1';
    t.emit({ kind: 'notice', sessionId: 's1', level: 'error', notice: { code: 'speech-model-missing', model: 'base' } } as DictationEvent);
    expect(t.calls).toContain('onboarding');
    expect(t.tray.at(-1)).toEqual({ status: 'error', detail: 'words for speech-model-missing', canRetry: true });
    t.emit(state('idle', 'recording'));
    expect(t.tray.at(-1)).toMatchObject({ status: 'error', detail: 'words for speech-model-missing' });
    t.emit(state('recording'));
    expect(t.tray.at(-1)).toMatchObject({ status: 'recording', detail: '' });
  });
});
