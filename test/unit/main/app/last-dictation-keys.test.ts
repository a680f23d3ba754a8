import { describe, expect, it } from 'vitest';
import { lastDictationShortcuts } from '../../../../src/main/app/hotkey-last-dictation.ts';
import { recentAppsOf } from '../../../../src/main/ipc/handlers/app-rules.ts';
import { configSchema } from '../../../../src/shared/config/config-schema.ts';
import type { ShortcutRegistry } from '../../../../src/main/dictation/recording-keys.ts';

/** A registry like Electron's globalShortcut: `taken` accelerators belong to another app. */
function registry(taken: readonly string[]) {
  const held = new Map<string, () => void>();
  const r: ShortcutRegistry = {
    register: (acc, fn) => {
      if (taken.includes(acc)) return false;
      held.set(acc, fn);
      return true;
    },
    unregister: (acc) => void held.delete(acc),
  } as ShortcutRegistry;
  return { r, held };
}

describe('the last-dictation shortcuts', () => {
  it('none by default; the configured ones act, are re-registered on a change, and one another app holds is a problem with its role', () => {
    const { r, held } = registry(['Control+Alt+C']);
    const calls: string[] = [];
    const keys = lastDictationShortcuts(r, { paste: () => calls.push('paste'), copy: () => calls.push('copy'), reopen: () => calls.push('reopen') });
    keys.register(configSchema.parse({}));
    expect([...held.keys()]).toEqual([]);
    keys.register(configSchema.parse({ recording: { paste_last_shortcut: 'Control+Alt+P', copy_last_shortcut: 'Control+Alt+C', reopen_last_shortcut: 'Control+Alt+Z' } }));
    expect([...held.keys()].sort()).toEqual(['Control+Alt+P', 'Control+Alt+Z']);
    held.get('Control+Alt+P')?.();
    held.get('Control+Alt+Z')?.();
    expect(calls).toEqual(['paste', 'reopen']);
    expect(keys.problems()).toEqual([{ key: 'Control+Alt+C', role: 'copy-last shortcut', error: expect.stringMatching(/another app/) }]);
    keys.register(configSchema.parse({ recording: { paste_last_shortcut: 'Control+Alt+V' } }));
    expect([...held.keys()]).toEqual(['Control+Alt+V']);
    keys.dispose();
    expect(held.size).toBe(0);
  });
});

describe('recent apps for the rules editor', () => {
  it('the distinct apps of the newest records, newest first, with counts; plain-string or missing contexts skipped', () => {
    const apps = recentAppsOf([
      { input_context: { app_name: 'Slack', bundle_id: 'slack' } },
      { input_context: 'old string form' },
      {},
      { input_context: { app_name: 'WeChat', bundle_id: 'wechat' } },
      { input_context: { app_name: 'slack', bundle_id: 'Slack' } },
    ]);
    expect(apps).toEqual([
      { app_name: 'slack', bundle_id: 'Slack', count: 2 },
      { app_name: 'WeChat', bundle_id: 'wechat', count: 1 },
    ]);
  });

  it('looks at the newest 500 records only (bounded work on a long history)', () => {
    const old = Array.from({ length: 10_000 }, () => ({ input_context: { app_name: 'Old', bundle_id: 'old' } }));
    const recent = Array.from({ length: 500 }, () => ({ input_context: { app_name: 'New', bundle_id: 'new' } }));
    expect(recentAppsOf([...old, ...recent])).toEqual([{ app_name: 'New', bundle_id: 'new', count: 500 }]);
  });
});
