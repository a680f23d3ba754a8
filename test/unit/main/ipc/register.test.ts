import { describe, expect, it } from 'vitest';
import type { IpcMainInvokeEvent } from 'electron';
import { ipcContract } from '../../../../src/shared/ipc/contract.ts';
import { createIpcDispatcher } from '../../../../src/main/ipc/dispatcher.ts';
import type { IpcHandlers } from '../../../../src/main/ipc/dispatcher.ts';
import { createBroadcaster, registerIpc } from '../../../../src/main/ipc/register.ts';
import type { IpcMainLike } from '../../../../src/main/ipc/register.ts';
import { TrustedSenders } from '../../../../src/main/ipc/trusted-senders.ts';
import { FakeContents, ownFrameUrl, rendererDir } from './ipc-harness.ts';

type Listener = (event: IpcMainInvokeEvent, ...args: unknown[]) => unknown;

/** Records what register.ts does with ipcMain (there is no Electron binary under Node). */
class RecordingIpcMain {
  readonly handlers = new Map<string, Listener>();
  handle(channel: string, listener: Listener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  invoke(channel: string, sender: { id: number; url: string | null }, ...args: unknown[]): unknown {
    const listener = this.handlers.get(channel);
    if (!listener) throw new Error(`No handler registered for '${channel}'`);
    const event = { sender: { id: sender.id }, senderFrame: sender.url === null ? null : { url: sender.url } };
    return listener(event as unknown as IpcMainInvokeEvent, ...args);
  }
}

describe('registerIpc', () => {
  const setup = () => {
    const trusted = new TrustedSenders({ rendererDir });
    trusted.add(new FakeContents(3), 'settings');
    const seen: unknown[] = [];
    const handlers = Object.fromEntries(
      Object.keys(ipcContract).map((c) => [c, (req: unknown) => (seen.push([c, req]), null)]),
    ) as unknown as IpcHandlers;
    const dispatcher = createIpcDispatcher({ contract: ipcContract, handlers, isTrustedSender: trusted.isTrustedSender, scopeOf: trusted.scopeOf, log: { warn: () => {}, error: () => {} } });
    const ipcMain = new RecordingIpcMain();
    const dispose = registerIpc(ipcMain as unknown as IpcMainLike, dispatcher);
    return { ipcMain, dispose, seen };
  };

  it('registers one handler per contract channel and removes them again', () => {
    const { ipcMain, dispose } = setup();
    expect([...ipcMain.handlers.keys()].sort()).toEqual(Object.keys(ipcContract).sort());
    dispose();
    expect(ipcMain.handlers.size).toBe(0);
  });

  it('forwards sender id and frame URL, and only the first argument', async () => {
    const { ipcMain, seen } = setup();
    expect(await ipcMain.invoke('app:open-external', { id: 3, url: ownFrameUrl }, { url: 'https://github.com/' }, 'extra', 'args')).toEqual({
      ok: true,
      value: null,
    });
    expect(seen).toEqual([['app:open-external', { url: 'https://github.com/' }]]);
  });

  it('treats a missing sender frame as untrusted', async () => {
    const { ipcMain, seen } = setup();
    expect(await ipcMain.invoke('config:get', { id: 3, url: null })).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
    expect(seen).toEqual([]);
  });
});

describe('createBroadcaster', () => {
  it('sends to live trusted windows only, and survives a failing send', () => {
    const trusted = new TrustedSenders({ rendererDir });
    const a = new FakeContents(1);
    const b = new FakeContents(2);
    const c = new FakeContents(3);
    c.send = () => {
      throw new Error('render process gone');
    };
    for (const w of [a, b, c]) trusted.add(w, 'settings');
    b.destroy();
    const warnings: string[] = [];
    const broadcast = createBroadcaster(trusted, { warn: (m) => warnings.push(m), error: () => {} });
    broadcast('app:notice', { level: 'warning', notice: { code: 'no-retry' } });
    expect(a.sent).toEqual([{ channel: 'app:notice', args: [{ level: 'warning', notice: { code: 'no-retry' } }] }]);
    expect(b.sent).toEqual([]);
    expect(warnings).toEqual(['IPC event could not be sent']);
  });
});
