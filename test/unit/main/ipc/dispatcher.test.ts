import { describe, expect, it } from 'vitest';
import { ipcContract } from '../../../../src/shared/ipc/contract.ts';
import { createIpcDispatcher } from '../../../../src/main/ipc/dispatcher.ts';
import type { IpcHandlers, IpcLog, IpcSender } from '../../../../src/main/ipc/dispatcher.ts';
import { IpcPayloadError } from '../../../../src/main/ipc/errors.ts';
import type { SenderScope } from '../../../../src/main/ipc/dispatcher.ts';
import { windowMayCall } from '../../../../src/shared/ipc/window-scopes.ts';

const sender: IpcSender = { id: 1, frameUrl: 'app://tingxie/settings/index.html' };
/** Sender 1 is the Settings window, sender 2 the capture window; any other id has no scope. */
const scopeOf = (s: IpcSender): SenderScope | undefined => {
  const kind = s.id === 1 ? 'settings' : s.id === 2 ? 'capture' : undefined;
  return kind === undefined ? undefined : { kind, mayCall: (ch) => windowMayCall(kind, ch) };
};

/** Handlers that record their calls; each test overrides the one it exercises. */
function recordingHandlers(calls: unknown[], overrides: Partial<IpcHandlers> = {}): IpcHandlers {
  const snapshot = { version: 1 };
  const status = { backend: 'memory' as const, secrets: [], issues: [] };
  // Every channel answers null by default (so a new channel needs no edit here); the ones the tests
  // look at answer like the real handlers would.
  const defaults = Object.fromEntries(Object.keys(ipcContract).map((c) => [c, () => null])) as unknown as IpcHandlers;
  return {
    ...defaults,
    'config:get': (req, ctx) => (calls.push(['config:get', req, ctx]), snapshot),
    'config:set': (req) => (calls.push(['config:set', req]), snapshot),
    'config:issues': () => ({ path: '/x/config.json', loadIssues: [], backupPath: null }),
    'secrets:status': () => status,
    'secrets:set': (req) => (calls.push(['secrets:set', req]), status),
    'secrets:delete': () => status,
    'app:info': () => ({ version: '0', platform: 'linux', dataDir: '/d', uiLanguage: 'en' }),
    'app:open-external': (req) => (calls.push(['app:open-external', req]), null),
    'app:open-logs': () => null,
    ...overrides,
  };
}

function setup(options: { overrides?: Partial<IpcHandlers>; trusted?: (s: IpcSender) => boolean; log?: IpcLog } = {}) {
  const calls: unknown[] = [];
  const logged: [string, string, unknown][] = [];
  const dispatcher = createIpcDispatcher({
    contract: ipcContract,
    handlers: recordingHandlers(calls, options.overrides),
    isTrustedSender: options.trusted ?? ((s) => s.id === 1),
    scopeOf,
    log: options.log ?? {
      warn: (m, f) => logged.push(['warn', m, f]),
      error: (m, f) => logged.push(['error', m, f]),
    },
  });
  return { dispatcher, calls, logged };
}

describe('createIpcDispatcher: per-window scopes', () => {
  it('refuses a trusted window calling outside its scope, before the payload or the handler, and logs it', async () => {
    const { dispatcher, calls, logged } = setup({ trusted: (s) => s.id === 1 || s.id === 2 });
    const capture = { id: 2, frameUrl: 'app://tingxie/capture/index.html' };
    const attempts: [string, unknown][] = [
      ['secrets:set', { name: 'provider:openai', value: 'sk-stolen' }],
      ['history:delete-all', { confirm: true }],
      ['dictation:deliver', { text: 'rm -rf ~', action: 'paste', sessionId: 'x' }],
      ['config:set', { keyPath: 'a', value: 1 }],
      // An invalid payload too: the scope is checked first, so the page learns nothing about the schema.
      ['secrets:set', 'garbage'],
    ];
    for (const [channel, payload] of attempts) {
      const r = await dispatcher.dispatch(channel, capture, payload);
      expect(r, channel).toEqual({ ok: false, error: { code: 'out-of-scope', message: `${channel} refused: the capture window may not call it` } });
    }
    expect(calls).toEqual([]);
    expect(logged.filter(([level, m]) => level === 'warn' && /outside the window's scope/.test(m))).toHaveLength(attempts.length);
    expect(logged[0]?.[2]).toMatchObject({ channel: 'secrets:set', windowKind: 'capture', senderId: 2 });
    // Its own job still works.
    expect(await dispatcher.dispatch('capture:status', capture, { state: 'ready', sampleRate: 16000, deviceLabel: 'mic' })).toMatchObject({ ok: true });
  });

  it('refuses a trusted sender without a known scope, and survives a throwing scope lookup', async () => {
    const noScope = setup({ trusted: () => true });
    expect(await noScope.dispatcher.dispatch('config:get', { id: 9, frameUrl: sender.frameUrl }, undefined)).toMatchObject({
      ok: false,
      error: { code: 'out-of-scope', message: 'config:get refused: the unknown window may not call it' },
    });
    const throwing = createIpcDispatcher({
      contract: ipcContract,
      handlers: recordingHandlers([]),
      isTrustedSender: () => true,
      scopeOf: () => {
        throw new Error('boom');
      },
      log: { warn: () => {}, error: () => {} },
    });
    expect(await throwing.dispatch('config:get', sender, undefined)).toMatchObject({ ok: false, error: { code: 'out-of-scope' } });
  });
});

describe('createIpcDispatcher', () => {
  it('serves exactly the contract channels', () => {
    expect([...setup().dispatcher.channels].sort()).toEqual(Object.keys(ipcContract).sort());
  });

  it('passes the parsed request and the sender to the handler and wraps the value', async () => {
    const { dispatcher, calls } = setup();
    const r = await dispatcher.dispatch('config:set', sender, { keyPath: 'a.b', value: [1, { c: 'd' }] });
    expect(r).toEqual({ ok: true, value: { version: 1 } });
    expect(calls).toEqual([['config:set', { keyPath: 'a.b', value: [1, { c: 'd' }] }]]);
    await dispatcher.dispatch('config:get', sender, undefined);
    expect(calls[1]).toEqual(['config:get', undefined, { channel: 'config:get', sender }]);
  });

  it('checks the channel first, then the sender, then the payload, and only then runs the handler', async () => {
    const { dispatcher, calls, logged } = setup();
    expect(await dispatcher.dispatch('config:nope', { id: 99, frameUrl: '' }, 'junk')).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    expect(await dispatcher.dispatch('config:set', { id: 99, frameUrl: 'https://evil.example/' }, 'junk')).toMatchObject({
      ok: false,
      error: { code: 'untrusted-sender' },
    });
    expect(await dispatcher.dispatch('config:set', sender, 'junk')).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(calls).toEqual([]);
    const untrusted = logged.find(([, m]) => /untrusted/.test(m));
    expect(untrusted?.[2]).toMatchObject({ channel: 'config:set', senderId: 99, frameUrl: 'https://evil.example/' });
  });

  it('reports every schema issue with a readable path', async () => {
    const { dispatcher } = setup();
    const r = await dispatcher.dispatch('secrets:set', sender, { name: 'nope', value: 3, more: true });
    if (r.ok) throw new Error('expected a refusal');
    expect(r.error.code).toBe('invalid-payload');
    expect(r.error.message).toMatch(/^Invalid payload for secrets:set: /);
    const paths = r.error.issues?.map((i) => i.path).sort();
    expect(paths).toEqual(['(root)', 'name', 'value']);
  });

  it('refuses oversized and deeply nested payloads before parsing', async () => {
    const { dispatcher } = setup();
    const big = await dispatcher.dispatch('config:set', sender, { keyPath: 'a', value: 'x'.repeat(2 * 1024 * 1024) });
    expect(big).toMatchObject({ ok: false, error: { code: 'invalid-payload', message: 'Invalid payload for config:set: value is too large (over 1 MB)' } });
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    const r = await dispatcher.dispatch('config:set', sender, { keyPath: 'a', value: deep });
    expect(r).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    if (!r.ok) expect(r.error.message).toMatch(/nested too deeply/);
  });

  it('turns a thrown handler error into handler-failed with its message and no stack', async () => {
    const { dispatcher, logged } = setup({
      overrides: {
        'app:open-logs': () => {
          throw new Error('the logs folder is gone');
        },
      },
    });
    const r = await dispatcher.dispatch('app:open-logs', sender, undefined);
    expect(r).toEqual({ ok: false, error: { code: 'handler-failed', message: 'app:open-logs failed: the logs folder is gone' } });
    // The stack goes to the log only.
    const entry = logged.find(([level]) => level === 'error');
    expect(String((entry?.[2] as { stack?: string }).stack)).toMatch(/the logs folder is gone\n\s+at /);
  });

  it('handles rejected promises, non-Error throws and huge messages', async () => {
    const { dispatcher } = setup({
      overrides: {
        'app:open-logs': () => Promise.reject('plain string'),
        'app:info': () => {
          throw new Error('y'.repeat(100_000));
        },
        'secrets:status': () => {
          throw undefined;
        },
      },
    });
    expect(await dispatcher.dispatch('app:open-logs', sender, undefined)).toEqual({
      ok: false,
      error: { code: 'handler-failed', message: 'app:open-logs failed: plain string' },
    });
    const huge = await dispatcher.dispatch('app:info', sender, undefined);
    if (huge.ok) throw new Error('expected a refusal');
    expect(huge.error.message.length).toBeLessThanOrEqual(2001);
    expect(await dispatcher.dispatch('secrets:status', sender, undefined)).toMatchObject({
      ok: false,
      error: { code: 'handler-failed', message: 'secrets:status failed: unknown error' },
    });
  });

  it('maps IpcPayloadError from a handler to invalid-payload with its issues', async () => {
    const { dispatcher } = setup({
      overrides: {
        'config:set': () => {
          throw new IpcPayloadError('invalid value for a.b', [{ path: 'a.b', message: 'expected number' }]);
        },
      },
    });
    expect(await dispatcher.dispatch('config:set', sender, { keyPath: 'a.b', value: 'x' })).toEqual({
      ok: false,
      error: { code: 'invalid-payload', message: 'config:set: invalid value for a.b', issues: [{ path: 'a.b', message: 'expected number' }] },
    });
  });

  it('never throws: a throwing sender check, a throwing logger and a throwing Proxy all give envelopes', async () => {
    const throwing = {
      warn: () => {
        throw new Error('log down');
      },
      error: () => {
        throw new Error('log down');
      },
    };
    const { dispatcher } = setup({
      trusted: () => {
        throw new Error('check failed');
      },
      log: throwing,
    });
    expect(await dispatcher.dispatch('config:get', sender, undefined)).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
    const trustedButThrowingLog = setup({ log: throwing }).dispatcher;
    const proxy = new Proxy(
      {},
      {
        ownKeys: () => {
          throw new Error('trap');
        },
        getPrototypeOf: () => {
          throw new Error('trap');
        },
      },
    );
    expect(await trustedButThrowingLog.dispatch('config:set', sender, proxy)).toMatchObject({ ok: false, error: { code: 'invalid-payload' } });
    expect(await trustedButThrowingLog.dispatch(Symbol('x') as unknown as string, sender, undefined)).toMatchObject({
      ok: false,
      error: { code: 'unknown-channel' },
    });
  });

  it('does not mistake Object.prototype names for channels', async () => {
    const { dispatcher } = setup();
    for (const name of ['toString', '__proto__', 'constructor', 'hasOwnProperty']) {
      expect(await dispatcher.dispatch(name, sender, undefined)).toMatchObject({ ok: false, error: { code: 'unknown-channel' } });
    }
  });
});
