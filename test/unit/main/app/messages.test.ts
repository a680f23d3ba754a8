import { describe, expect, it, vi } from 'vitest';
import { MAIN_MESSAGES, format, messagesFor, noticeMessage } from '../../../../src/main/app/messages.ts';
import { NOTICE_TEXTS } from '../../../../src/shared/notices/notice-text.ts';
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
    expect(en.size).toBeGreaterThan(25);
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
        t.startDictation,
        t.mode,
        t.toggles.enhance,
        t.toggles.preview,
        t.toggles.history,
        t.toggles.vocabulary,
        t.enhanceSelection,
        t.retryLast,
        t.pasteLast,
        t.copyLast,
        t.reopenLast,
        t.history,
        t.setup,
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

  it("key-hook failures: the hook's cause codes become the right words in each language", () => {
    expect(hookBlocker('linux', { WAYLAND_DISPLAY: 'wayland-0' })).toBe('wayland');
    expect(hookBlocker('linux', {})).toBe('no-display');
    expect(hookBlocker('linux', { DISPLAY: ':0' })).toBeNull();
    expect(hookBlocker('darwin', {})).toBeNull();
    const wayland = { code: 'hook-unavailable', cause: 'wayland', reason: null, toggle: 'Alt+Space' } as const;
    expect(noticeMessage(wayland, 'en')).toMatch(/Wayland.*The toggle shortcut Alt\+Space works meanwhile\.$/);
    expect(noticeMessage(wayland, 'zh')).toMatch(/Wayland.*Alt\+Space/);
    const crashed = { code: 'hook-unavailable', cause: 'start-failed', reason: 'boom', toggle: null } as const;
    expect(noticeMessage(crashed, 'zh')).toContain('（boom）');
  });

  it('every role the hotkey router reports has words in both languages', () => {
    const { problems } = bindingsFromConfig({
      hotkeys: { 'no-such-key': true },
      recording: { mode: 'hold', prev_mode_key: 'nope1', next_mode_key: 'nope2' },
      feedback: { cancel_key: 'nope3', restart_key: 'nope4' },
    });
    expect(problems.length).toBe(5);
    for (const p of problems) {
      const zh = noticeMessage({ code: 'key-problem', role: p.role, key: p.key, reason: p.error }, 'zh');
      expect(zh).toContain(p.key);
      expect(zh).not.toContain(p.role); // the role is in Chinese words, not the English code
    }
  });

  it("the English permission texts match permissions.ts's (one source of meaning, two languages)", () => {
    const [mic, acc] = permissionProblems('denied', false);
    expect(NOTICE_TEXTS.en['permission-microphone']({ code: 'permission-microphone' })).toBe(mic!.message);
    expect(NOTICE_TEXTS.en['permission-accessibility']({ code: 'permission-accessibility' })).toBe(acc!.message);
  });

  it('a paste failure reads in the UI language with the technical reason in brackets', () => {
    const failure = { code: 'paste-failed', reason: 'xdotool failed', app: null } as const;
    expect(noticeMessage(failure, 'en')).toBe('Could not paste (xdotool failed): the text is on the clipboard, paste it yourself.');
    expect(noticeMessage(failure, 'zh')).toBe('无法粘贴（xdotool failed）：文字已在剪贴板上，请手动粘贴。');
  });
});
