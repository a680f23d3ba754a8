import { describe, expect, it } from 'vitest';
import { selectionShortcut, toggleShortcut } from '../../../../src/main/app/hotkey-shortcuts.ts';

function registry(taken: readonly string[] = []) {
  const registered = new Set<string>();
  return {
    registered,
    register: (acc: string) => {
      if (acc === 'Bad+') throw new Error('invalid accelerator');
      if (taken.includes(acc)) return false;
      registered.add(acc);
      return true;
    },
    unregister: (acc: string) => void registered.delete(acc),
  };
}

describe('toggleShortcut', () => {
  it('replaces the previous registration, says why one fails, and releases on dispose', () => {
    const r = registry(['Alt+T']);
    const t = toggleShortcut(r);
    expect(t.register('Alt+Space', () => undefined)).toEqual({ accelerator: 'Alt+Space', registered: true, error: null });
    expect(t.register('Alt+T', () => undefined)).toMatchObject({ registered: false });
    expect(t.cause()).toBe('taken');
    expect(r.registered.size).toBe(0);
    expect(t.register('Bad+', () => undefined)).toEqual({ accelerator: 'Bad+', registered: false, error: 'invalid accelerator' });
    expect(t.cause()).toBe('invalid');
    expect(t.register('', () => undefined)).toBeNull();
    expect(t.cause()).toBeNull();
    t.register('Alt+Space', () => undefined);
    t.dispose();
    expect(r.registered.size).toBe(0);
  });
});

describe('selectionShortcut', () => {
  it('registers only with a flow to run, and names a taken key as a problem', () => {
    const r = registry(['Alt+E']);
    expect((selectionShortcut(r, undefined).register('Alt+S'), r.registered.size)).toBe(0);
    const s = selectionShortcut(r, () => undefined);
    s.register('Alt+E');
    expect(s.problem()).toEqual({ key: 'Alt+E', role: 'enhance-selection shortcut', error: 'already used by another app or by the system' });
    s.register('Alt+S');
    expect(s.problem()).toBeNull();
    expect([...r.registered]).toEqual(['Alt+S']);
    s.dispose();
    expect(r.registered.size).toBe(0);
  });
});
