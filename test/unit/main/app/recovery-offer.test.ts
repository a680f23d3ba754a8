import { describe, expect, it, vi } from 'vitest';
import type { MessageBoxOptions } from 'electron';
import type { Logger } from '../../../../src/main/platform/logger.ts';

vi.mock('electron', () => ({ systemPreferences: {} }));

const { offerRecovery, runStartupChecks } = await import('../../../../src/main/app/recovery-offer.ts');
const { messagesFor } = await import('../../../../src/main/app/messages.ts');

const log = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const session = (id: string, asrText: string | null) => ({ id, asrText, durationSeconds: 2.5, createdAt: '2026-01-01T10:00:00Z' });

describe('offerRecovery', () => {
  it('offers only the newest session and does what the answer says (0 finish, 1 discard, 2 later)', async () => {
    for (const [response, expected] of [[0, ['s2 finish']], [1, ['s2 discard']], [2, []]] as const) {
      const done: string[] = [];
      const asked: MessageBoxOptions[] = [];
      await offerRecovery({
        session: { recoverable: () => [session('s1', 'old'), session('s2', 'hello world')] as never, recover: (id, action) => void done.push(`${id} ${action}`) },
        messages: () => messagesFor('en').recovery,
        log,
        ask: async (o) => (asked.push(o), { response }),
      });
      expect(done).toEqual(expected);
      expect(asked[0]?.detail).toContain('"hello world"');
    }
  });

  it('asks nothing when there is nothing to recover', async () => {
    const ask = vi.fn();
    await offerRecovery({ session: { recoverable: () => [], recover: () => undefined }, messages: () => messagesFor('en').recovery, log, ask });
    expect(ask).not.toHaveBeenCalled();
  });
});

describe('runStartupChecks', () => {
  it('logs the journaled records before the offer, and a failing step does not stop the next', async () => {
    const order: string[] = [];
    await runStartupChecks({
      notify: () => undefined,
      session: { logJournaledRecords: async () => (order.push('journaled'), Promise.reject(new Error('disk'))) },
      log,
      offerRecovery: async () => void order.push('offer'),
    });
    expect(order).toEqual(['journaled', 'offer']);
  });
});
