import { describe, expect, it } from 'vitest';
import { createBridge } from '../../../src/preload/create-bridge.ts';
import type { BridgeTransport } from '../../../src/preload/create-bridge.ts';
import { camelCase, invokeChannels, splitChannel } from '../../../src/shared/ipc/channels.ts';
import { BridgeCallError, isBridgeCallError } from '../../../src/shared/ipc/envelope.ts';
import { unwrapBridge } from '../../../src/shared/ipc/unwrap-bridge.ts';
import type { EventChannel } from '../../../src/shared/ipc/channels.ts';

/** An in-process transport: records calls, answers from a table, and fans events out to listeners. */
function fakeTransport(reply: (channel: string, payload: unknown) => unknown) {
  const calls: { channel: string; args: unknown[] }[] = [];
  const listeners = new Map<EventChannel, Set<(p: unknown) => void>>();
  const transport: BridgeTransport = {
    invoke: async (channel, ...args: unknown[]) => {
      calls.push({ channel, args });
      return reply(channel, args[0]);
    },
    subscribe: (event, listener) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  };
  const emit = (event: EventChannel, payload: unknown) => {
    for (const l of listeners.get(event) ?? []) l(payload);
  };
  return { transport, calls, emit, listeners };
}

describe('createBridge', () => {
  it('has one method per channel, frozen', () => {
    const wire = createBridge(fakeTransport(() => ({ ok: true, value: null })).transport);
    const methods = Object.entries(wire)
      .filter(([k]) => k !== 'on')
      .flatMap(([domain, m]) => Object.keys(m as object).map((name) => `${domain}.${name}`));
    // Exactly the contract's channels, each as domain.camelCasedVerb (e.g. app:open-external → app.openExternal).
    const expected = invokeChannels.map((c) => {
      const { domain, verb } = splitChannel(c);
      return `${domain}.${camelCase(verb)}`;
    });
    expect(methods.sort()).toEqual(expected.sort());
    expect(methods).toContain('app.openExternal');
    expect(methods.length).toBe(invokeChannels.length);
    expect(Object.isFrozen(wire)).toBe(true);
    expect(Object.isFrozen(wire.config)).toBe(true);
  });

  it('sends one payload (none for payload-less channels), dropping extra arguments', async () => {
    const { transport, calls } = fakeTransport(() => ({ ok: true, value: null }));
    const wire = createBridge(transport);
    await (wire.app.openExternal as (...a: unknown[]) => Promise<unknown>)({ url: 'https://github.com/' }, 'extra', 3);
    await (wire.config.get as (...a: unknown[]) => Promise<unknown>)({ sneaky: true });
    expect(calls).toEqual([
      { channel: 'app:open-external', args: [{ url: 'https://github.com/' }] },
      { channel: 'config:get', args: [undefined] },
    ]);
  });

  it('turns a transport failure into a handler-failed envelope', async () => {
    const wire = createBridge({
      invoke: () => Promise.reject(new Error("No handler registered for 'app:info'")),
      subscribe: () => () => {},
    });
    expect(await wire.app.info()).toEqual({ ok: false, error: { code: 'handler-failed', message: "app:info: No handler registered for 'app:info'" } });
  });

  it('subscriptions deliver only the payload and unsubscribe once', () => {
    const { transport, emit, listeners } = fakeTransport(() => null);
    const wire = createBridge(transport);
    const got: unknown[] = [];
    const off = wire.on.configChanged((p) => got.push(p));
    emit('config:changed', { keyPath: 'a', config: {} });
    off();
    off();
    emit('config:changed', { keyPath: 'b', config: {} });
    expect(got).toEqual([{ keyPath: 'a', config: {} }]);
    expect(listeners.get('config:changed')?.size).toBe(0);
    expect(() => (wire.on.appNotice as (cb: unknown) => unknown)('not a function')).toThrow(TypeError);
  });
});

describe('unwrapBridge over createBridge (the renderer path)', () => {
  it('resolves values and rejects refusals with BridgeCallError carrying code and issues', async () => {
    const { transport } = fakeTransport((channel) =>
      channel === 'config:get'
        ? { ok: true, value: { version: 1 } }
        : { ok: false, error: { code: 'invalid-payload', message: 'Invalid payload for config:set: keyPath: must not be empty', issues: [{ path: 'keyPath', message: 'must not be empty' }] } },
    );
    const bridge = unwrapBridge(createBridge(transport));
    expect(await bridge.config.get()).toEqual({ version: 1 });
    const error = await bridge.config.set({ keyPath: '', value: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BridgeCallError);
    expect(isBridgeCallError(error)).toBe(true);
    expect(error).toMatchObject({ code: 'invalid-payload', message: 'Invalid payload for config:set: keyPath: must not be empty', issues: [{ path: 'keyPath', message: 'must not be empty' }] });
  });

  it('treats a malformed reply as a failure, never as a value', async () => {
    for (const reply of [undefined, null, 'ok', { ok: 'yes' }, { ok: false }, { ok: false, error: { code: 'weird', message: 'x' } }, { ok: false, error: { code: 'invalid-payload', message: 'x', issues: 'no' } }]) {
      const bridge = unwrapBridge(createBridge(fakeTransport(() => reply).transport));
      await expect(bridge.app.info()).rejects.toMatchObject({ code: 'handler-failed', message: 'app:info: malformed reply from the main process' });
    }
  });

  it('names a capability the exposed bridge lacks', async () => {
    const wire = createBridge(fakeTransport(() => ({ ok: true, value: null })).transport);
    const partial = { ...wire, app: {} } as unknown as typeof wire;
    await expect(unwrapBridge(partial).app.info()).rejects.toThrow(/no app\.info \(channel app:info\)/);
  });

  it('passes subscriptions through', () => {
    const { transport, emit } = fakeTransport(() => null);
    const bridge = unwrapBridge(createBridge(transport));
    const got: unknown[] = [];
    const off = bridge.on.appNotice((n) => got.push(n.notice.code));
    emit('app:notice', { level: 'info', notice: { code: 'select-first' } });
    off();
    expect(got).toEqual(['select-first']);
  });
});
