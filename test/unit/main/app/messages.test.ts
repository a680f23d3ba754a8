import { describe, expect, it, vi } from 'vitest';
import { MAIN_MESSAGES, format, hookErrorMessage, localizeDictationNotice, messagesFor, roleName } from '../../../../src/main/app/messages.ts';
import { buildTrayMenu, downloadLine, trayTooltip, TRAY_STATUSES } from '../../../../src/main/app/tray-menu.ts';
import { bindingsFromConfig } from '../../../../src/main/dictation/hotkey-router.ts';
import { hookBlocker } from '../../../../src/main/platform/key-hook.ts';

// permissions.ts imports electron for systemPreferences (no Electron binary here); only its pure part is used.
vi.mock('electron', () => ({ systemPreferences: {} }));
const { permissionProblems } = await import('../../../../src/main/platform/permissions.ts');

/** Every string leaf of a messages object, by dotted path. */
function leaves(o: unknown, prefix = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const [k, v] of Object.entries(o as Record<string, unknown>)) {
    const p = prefix === '' ? k : `${prefix}.${k}`;
    if (typeof v === 'string') out.set(p, v);
    else for (const [kk, vv] of leaves(v, p)) out.set(kk, vv);
  }
  return out;
}
const placeholders = (s: string): string[] => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
const hasHan = (s: string): boolean => /\p{Script=Han}/u.test(s);

describe('main-side messages', () => {
  const en = leaves(MAIN_MESSAGES.en);
  const zh = leaves(MAIN_MESSAGES.zh);

  it('both languages have every key, non-empty, with the same placeholders', () => {
    expect(en.size).toBeGreaterThan(40);
    expect([...zh.keys()].sort()).toEqual([...en.keys()].sort());
    for (const [key, text] of en) {
      const other = zh.get(key)!;
      expect(text.trim(), key).not.toBe('');
      expect(other.trim(), key).not.toBe('');
      expect(placeholders(other), key).toEqual(placeholders(text));
    }
  });

  it('the Chinese strings are Chinese (apart from the app name) and the English ones are not', () => {
    for (const [key, text] of zh) if (key !== 'tray.tooltip') expect(hasHan(text), key).toBe(true);
    for (const [key, text] of en) expect(hasHan(text), key).toBe(false);
  });

  it('the tray builder uses the chosen language for every item', () => {
    const state = {
      status: 'idle' as const,
      download: { name: 'base', percent: 42 },
      mode: 'proofread',
      modes: [{ id: 'proofread', label: '纠错' }],
      toggles: { enhance: true, preview: true, history: false, vocabulary: true },
    };
    for (const lang of ['en', 'zh'] as const) {
      const t = messagesFor(lang).tray;
      const menu = buildTrayMenu(state, t);
      const labels = menu.flatMap((i) => ('label' in i ? [i.label] : []));
      expect(labels).toEqual([
        `Tingxie — ${t.status.idle}`,
        format(t.downloading, { name: 'base', percent: 42 }),
        t.mode,
        t.toggles.enhance,
        t.toggles.preview,
        t.toggles.history,
        t.toggles.vocabulary,
        t.enhanceSelection,
        t.retryLast,
        t.history,
        t.settings,
        t.openLogs,
        t.quit,
      ]);
      for (const status of TRAY_STATUSES) expect(buildTrayMenu({ status }, t)[0]).toMatchObject({ label: `Tingxie — ${t.status[status]}` });
    }
    const zh = messagesFor('zh').tray;
    expect(downloadLine({ name: 'base', percent: 41.6 }, zh)).toBe('正在下载 base… 42%');
    expect(trayTooltip({ status: 'recording' }, zh)).toBe('Tingxie — 正在聆听…');
  });

  it('format fills placeholders and leaves unknown ones visible', () => {
    expect(format('{a} and {b}', { a: 1, b: 'x' })).toBe('1 and x');
    expect(format('{a} {missing}', { a: 'y' })).toBe('y {missing}');
  });

  it("key-hook failures: the hook's own known reasons get their own text in each language", () => {
    const wayland = hookBlocker('linux', { WAYLAND_DISPLAY: 'wayland-0' })!;
    const none = hookBlocker('linux', {})!;
    for (const lang of ['en', 'zh'] as const) {
      const m = messagesFor(lang);
      expect(hookErrorMessage(wayland, m)).toBe(m.notices.hookWayland);
      expect(hookErrorMessage(none, m)).toBe(m.notices.hookNoDisplay);
      expect(hookErrorMessage('The global key hook could not start: boom.', m)).toBe(format(m.notices.hookFailed, { error: 'The global key hook could not start: boom.' }));
    }
    // The English texts stay what key-hook.ts says.
    expect(messagesFor('en').notices.hookWayland).toBe(wayland);
    expect(messagesFor('en').notices.hookNoDisplay).toBe(none);
  });

  it('every role the hotkey router reports has words in both languages', () => {
    const { problems } = bindingsFromConfig({
      hotkeys: { 'no-such-key': true },
      recording: { mode: 'hold', prev_mode_key: 'nope1', next_mode_key: 'nope2' },
      feedback: { cancel_key: 'nope3', restart_key: 'nope4' },
    });
    expect(problems.length).toBe(5);
    for (const p of problems) {
      expect(Object.keys(MAIN_MESSAGES.en.notices.roles)).toContain(p.role);
      expect(hasHan(roleName(p.role, messagesFor('zh')))).toBe(true);
    }
    expect(roleName('future key', messagesFor('zh'))).toBe('future key');
  });

  it("the English permission texts match permissions.ts's (one source of meaning, two languages)", () => {
    const [mic, acc] = permissionProblems('denied', false);
    expect(messagesFor('en').notices.permissionMicrophone).toBe(mic!.message);
    expect(messagesFor('en').notices.permissionAccessibility).toBe(acc!.message);
  });

  it('a paste failure from the controller reads in Chinese; English and other notices pass through', () => {
    const failure = 'Could not paste (xdotool failed): the text is on the clipboard.';
    expect(localizeDictationNotice(failure, messagesFor('en'), 'en')).toBe(failure);
    const zh = localizeDictationNotice(failure, messagesFor('zh'), 'zh');
    expect(zh).toMatch(/^无法粘贴：文字已在剪贴板上/);
    expect(zh).toContain('xdotool failed');
    expect(localizeDictationNotice('Something else', messagesFor('zh'), 'zh')).toBe('Something else');
  });
});
