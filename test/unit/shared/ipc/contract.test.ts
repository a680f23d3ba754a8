import { describe, expect, it } from 'vitest';
import { camelCase, eventChannels, eventMethodName, invokeChannelArity, invokeChannels, splitChannel } from '../../../../src/shared/ipc/channels.ts';
import { ipcContract, ipcEvents, keyPathSchema, secretNameSchema } from '../../../../src/shared/ipc/contract.ts';

describe('IPC contract', () => {
  it('has the same channels as the zod-free list, all domain:verb in kebab case', () => {
    expect(Object.keys(ipcContract)).toEqual([...invokeChannels]);
    expect(Object.keys(ipcEvents)).toEqual([...eventChannels]);
    for (const channel of [...invokeChannels, ...eventChannels]) expect(channel).toMatch(/^[a-z]+:[a-z]+(-[a-z]+)*$/);
  });

  it('arity 0 exactly when the schema accepts no payload', () => {
    for (const channel of invokeChannels) {
      const acceptsNone = ipcContract[channel].request.safeParse(undefined).success;
      expect(acceptsNone, channel).toBe(invokeChannelArity[channel] === 0);
      // No channel takes a bare primitive or null.
      for (const v of [null, 0, '', [], {}]) {
        if (invokeChannelArity[channel] === 0) expect(ipcContract[channel].request.safeParse(v).success, channel).toBe(false);
      }
    }
  });

  it('no domain is called "on" (that name holds the event subscriptions)', () => {
    expect(invokeChannels.map((c) => splitChannel(c).domain)).not.toContain('on');
  });

  it('derives bridge method names', () => {
    expect(camelCase('open-external')).toBe('openExternal');
    expect(eventMethodName('config:changed')).toBe('configChanged');
    expect(eventMethodName('app:notice')).toBe('appNotice');
  });

  it('key paths: dotted names, no prototype segments, bounded', () => {
    for (const ok of ['ui.language', 'ai_enhance.providers.my provider.model', 'a']) expect(keyPathSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['', '.a', 'a.', 'a..b', '__proto__', 'a.constructor.b', 'a.prototype', 'a\nb', 'x'.repeat(257)]) {
      expect(keyPathSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it('secret names: provider:<id> or asr:remote', () => {
    for (const ok of ['provider:openai', 'provider:deep-seek_2.x', 'asr:remote']) expect(secretNameSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['', 'provider:', 'provider:a b', 'asr:local', 'ssh:key', `provider:${'a'.repeat(65)}`]) {
      expect(secretNameSchema.safeParse(bad).success, bad).toBe(false);
    }
  });
});
