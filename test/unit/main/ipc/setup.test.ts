import { afterEach, describe, expect, it } from 'vitest';
import { setupIpc } from '../../../../src/main/ipc/setup.ts';
import { historyApiOf, historyChangedEvent } from '../../../../src/main/ipc/handlers/history.ts';
import type { IpcMainLike } from '../../../../src/main/ipc/register.ts';
import { FakeContents, openHarness, ownFrameUrl } from './ipc-harness.ts';
import type { IpcHarness } from './ipc-harness.ts';

describe('setupIpc', () => {
  let h: IpcHarness | undefined;
  afterEach(() => h?.cleanup());

  it('registers the channels, answers through them, and forwards config changes to trusted windows', async () => {
    h = await openHarness();
    const handlers = new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>();
    // Stand-in for Electron's ipcMain (no Electron binary under Node): a map of handlers.
    const ipcMain = {
      handle: (channel: string, fn: (event: unknown, payload: unknown) => Promise<unknown>) => handlers.set(channel, fn),
      removeHandler: (channel: string) => handlers.delete(channel),
    } as unknown as IpcMainLike;
    const window = new FakeContents(21);
    h.trusted.add(window, 'settings');
    const ipc = setupIpc(ipcMain, {
      services: {
        config: h.config,
        secrets: h.secrets,
        app: { version: '1', platform: 'linux', dataDir: h.dataDir, uiLanguage: () => 'zh', openExternal: async () => {}, openLogs: async () => {}, copyText: () => undefined },
        history: historyApiOf(h.history),
      },
      historyChanges: (listener) => h!.history.store.onChange((e) => listener(historyChangedEvent(e))),
      trusted: h.trusted,
      log: { warn: () => {}, error: () => {} },
    });
    const event = { sender: { id: 21 }, senderFrame: { url: ownFrameUrl } };
    const reply = await handlers.get('config:set')?.(event, { keyPath: 'output.preview', value: false });
    expect(reply).toMatchObject({ ok: true });
    const changed = window.sent.filter((s) => s.channel === 'config:changed');
    expect(changed).toHaveLength(1);
    expect(changed[0]?.args[0]).toMatchObject({ keyPath: 'output.preview', config: { output: { preview: false } } });
    expect(await handlers.get('app:info')?.(event, undefined)).toMatchObject({ ok: true, value: { uiLanguage: 'zh' } });

    const { record } = await h.history.log({
      asr_text: 'a', enhanced_text: null, final_text: 'a', enhance_mode: 'proofread', preview_enabled: true,
      stt_model: 'm', llm_model: '', user_corrected: false, audio_duration: 1, language: 'en', source: 'voice',
    });
    expect(window.sent.filter((s) => s.channel === 'history:changed').map((s) => s.args[0])).toEqual([
      { change: 'appended', keys: [record.id] },
    ]);

    ipc.dispose();
    expect(handlers.size).toBe(0);
    await h.config.set('output.preview', true);
    expect(window.sent.filter((s) => s.channel === 'config:changed')).toHaveLength(1);
  });
});
