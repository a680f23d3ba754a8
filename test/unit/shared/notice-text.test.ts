import { describe, expect, it } from 'vitest';
import { NOTICE_CODES, type HookFailureCause, type Notice, type NoticeCode, type NoticeOf, type UnreadHistory } from '../../../src/shared/notices/notice.ts';
import { NOTICE_TEXTS, noticeText } from '../../../src/shared/notices/notice-text.ts';
import { speechModelName } from '../../../src/shared/speech-model-name.ts';

/**
 * One example of every notice code. Typed as a mapped type over NoticeCode: adding a code without an
 * example here does not compile, and the run-time checks below then cover it in both languages.
 */
const EXAMPLES: { readonly [C in NoticeCode]: NoticeOf<C> } = {
  busy: { code: 'busy' },
  'mode-changed': { code: 'mode-changed', mode: 'translate_en' },
  'mode-by-rule': { code: 'mode-by-rule', rule: 'Slack', mode: 'proofread' },
  'max-recording': { code: 'max-recording' },
  'nothing-recognized': { code: 'nothing-recognized' },
  'silence-discarded': { code: 'silence-discarded', reason: 'rms-below-threshold' },
  'asr-failed': { code: 'asr-failed', reason: 'ECONNREFUSED 127.0.0.1:9' },
  'speech-model-missing': { code: 'speech-model-missing', model: 'base' },
  'asr-timeout': { code: 'asr-timeout' },
  'llm-fallback': { code: 'llm-fallback', reason: 'http 500: model crashed' },
  'llm-guarded': { code: 'llm-guarded', reason: 'answer-too-long' },
  'preview-timeout': { code: 'preview-timeout' },
  'paste-failed': { code: 'paste-failed', reason: 'xdotool is not installed', app: 'xterm' },
  'paste-timeout': { code: 'paste-timeout' },
  'copy-failed': { code: 'copy-failed', reason: 'clipboard busy' },
  'step-failed': { code: 'step-failed', reason: 'ENOSPC: no space left on device' },
  'history-save-failed': { code: 'history-save-failed', reason: 'EACCES: permission denied' },
  'history-degraded': { code: 'history-degraded', state: 'read-only', reason: 'EROFS: read-only file system', pending: 2 },
  'history-unreadable': { code: 'history-unreadable', problems: [{ kind: 'unreadable', path: '/data/conversation_history_archives/2026-03.jsonl', reason: 'EISDIR: it is a folder, not a file' }] },
  'vocabulary-degraded': { code: 'vocabulary-degraded', state: 'repaired', copy: '/data/vocabulary.db.damaged-2026-11-27T10-00-00-000Z', salvaged: 12, reason: 'database disk image is malformed' },
  'mode-invalid': { code: 'mode-invalid', file: '/data/enhance_modes/proofread.md', line: 3, reason: 'front matter line 3 is not "key: value"', fallback: 'proofread' },
  'recovery-no-audio': { code: 'recovery-no-audio' },
  'microphone-error': { code: 'microphone-error', reason: 'NotAllowedError: Permission denied' },
  'select-first': { code: 'select-first' },
  'copy-selection-failed': { code: 'copy-selection-failed', reason: 'xdotool failed' },
  'no-retry': { code: 'no-retry' },
  'no-last-dictation': { code: 'no-last-dictation' },
  'mode-switch-failed': { code: 'mode-switch-failed', reason: 'unknown mode' },
  'setting-save-failed': { code: 'setting-save-failed', reason: 'EROFS: read-only file system' },
  'launch-at-login-failed': { code: 'launch-at-login-failed', reason: 'autostart dir missing' },
  'permission-microphone': { code: 'permission-microphone' },
  'permission-accessibility': { code: 'permission-accessibility' },
  'hook-unavailable': { code: 'hook-unavailable', cause: 'start-failed', reason: 'XOpenDisplay failed', toggle: 'Alt+Space' },
  'toggle-failed': { code: 'toggle-failed', accelerator: 'Ctrl+Q', cause: 'invalid', reason: 'bad accelerator' },
  'key-problem': { code: 'key-problem', role: 'cancel key', key: 'nope', reason: 'unknown key name' },
};

/**
 * Every hook-failure and toggle-failure cause, as mapped types over the exported unions (like EXAMPLES):
 * a cause added to notice.ts without an entry here does not compile, so the test below covers it.
 */
const HOOK_CAUSES: { readonly [C in HookFailureCause]: true } = { wayland: true, 'wayland-partial': true, 'no-display': true, 'load-failed': true, 'start-failed': true, accessibility: true };
const TOGGLE_CAUSES: { readonly [C in NoticeOf<'toggle-failed'>['cause']]: true } = { taken: true, invalid: true };

/** The technical parameters a notice carries (shown untranslated; a speech model by its human name, speech-model-name.ts); `state` is a case the text words, not shown as is. */
const technical = (n: Notice, lang: 'en' | 'zh'): string[] =>
  Object.entries(n)
    .filter(([k, v]) => k !== 'code' && k !== 'cause' && k !== 'role' && k !== 'state' && typeof v === 'string')
    .map(([k, v]) => (n.code === 'speech-model-missing' && k === 'model' ? speechModelName(v as string, lang) : (v as string)));
const hasHan = (s: string): boolean => /\p{Script=Han}/u.test(s);

describe('notice codes in words', () => {
  it('the code list and the examples name the same codes, each once', () => {
    expect(new Set(NOTICE_CODES).size).toBe(NOTICE_CODES.length);
    expect(Object.keys(EXAMPLES).sort()).toEqual([...NOTICE_CODES].sort());
  });

  it.each(['en', 'zh'] as const)('every code has words in %s', (lang) => {
    expect(Object.keys(NOTICE_TEXTS[lang]).sort()).toEqual([...NOTICE_CODES].sort());
    for (const code of NOTICE_CODES) {
      expect(typeof NOTICE_TEXTS[lang][code], code).toBe('function');
      const text = noticeText(lang, EXAMPLES[code]);
      expect(text.trim(), code).not.toBe('');
      expect(text, code).not.toMatch(/undefined|null|\[object/);
      // Chinese notices are Chinese; English ones have no Han characters.
      expect(hasHan(text), `${lang} ${code}: ${text}`).toBe(lang === 'zh');
      // Technical reasons and names travel untranslated.
      for (const v of technical(EXAMPLES[code], lang)) expect(text, code).toContain(v);
    }
  });

  it('a technical reason is shown in brackets, and left out cleanly when there is none', () => {
    expect(noticeText('en', { code: 'llm-fallback', reason: 'timeout' })).toBe('Enhancement failed (timeout): using the raw transcript.');
    expect(noticeText('zh', { code: 'llm-fallback', reason: 'timeout' })).toBe('AI 润色失败（timeout）：改用原始识别文本。');
    expect(noticeText('en', { code: 'llm-fallback', reason: null })).toBe('Enhancement failed: using the raw transcript.');
    expect(noticeText('zh', { code: 'paste-failed', reason: null, app: null })).toBe('无法粘贴：文字已在剪贴板上，请手动粘贴。');
  });

  it('every hook-failure cause and toggle-failure cause has its own words', () => {
    const hookCauses = Object.keys(HOOK_CAUSES) as HookFailureCause[];
    const toggleCauses = Object.keys(TOGGLE_CAUSES) as (keyof typeof TOGGLE_CAUSES)[];
    for (const lang of ['en', 'zh'] as const) {
      const hook = hookCauses.map((cause) => noticeText(lang, { code: 'hook-unavailable', cause, reason: null, toggle: null }));
      const toggle = toggleCauses.map((cause) => noticeText(lang, { code: 'toggle-failed', accelerator: 'Alt+Space', cause, reason: null }));
      for (const text of [...hook, ...toggle]) expect(text, lang).toMatch(/\S/);
      expect(new Set(hook).size, `${lang}: ${hook.join(' | ')}`).toBe(hookCauses.length);
      expect(new Set(toggle).size, `${lang}: ${toggle.join(' | ')}`).toBe(toggleCauses.length);
    }
  });
});

describe('history that could not be read, named with what is wrong with each piece', () => {
  const dir = '/data/conversation_history_archives';
  const notice = (...problems: UnreadHistory[]): Notice => ({ code: 'history-unreadable', problems });

  // Before: every kind but an unreadable file was called "a line too long to read, set aside".
  it('lines that are not valid UTF-8: the file and line numbers, left unchanged', () => {
    const n = notice({ kind: 'invalid-utf8', path: `${dir}/2025-11.jsonl`, lines: [2, 5] });
    expect(noticeText('en', n)).toBe(
      `Some history could not be read and is not shown: ${dir}/2025-11.jsonl lines 2, 5: not valid UTF-8 text; left unchanged in the file (edits and deletes of its records wait until it is fixed). Everything else is shown; see the log for details.`,
    );
    expect(noticeText('zh', n)).toBe(`部分历史记录无法读取，未显示：${dir}/2025-11.jsonl 第 2、5 行不是有效的 UTF-8 文本，已原样留在文件中（修好之前，该文件中的记录无法编辑或删除）。其余记录照常显示；详情见日志。`);
    const many = notice({ kind: 'invalid-utf8', path: 'a.jsonl', lines: Array.from({ length: 14 }, (_, i) => i + 1) });
    expect(noticeText('en', many)).toContain('a.jsonl lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 4 more: not valid UTF-8 text');
    expect(noticeText('zh', many)).toContain('a.jsonl 第 1、2、3、4、5、6、7、8、9、10 行等 14 行不是有效的 UTF-8 文本');
    expect(noticeText('en', notice({ kind: 'invalid-utf8', path: 'b.jsonl', lines: [7] }))).toContain('b.jsonl line 7: not valid UTF-8 text');
  });

  it('a symbolic link and an odd name in the archives folder: not read, each with what to do', () => {
    const n = notice({ kind: 'skipped', path: `${dir}/2025-12.jsonl`, cause: 'symbolic-link' }, { kind: 'skipped', path: `${dir}/2025-1.jsonl`, cause: 'not-an-archive-name' });
    const en = noticeText('en', n);
    expect(en).toContain(`${dir}/2025-12.jsonl is a symbolic link and is not read; put the file itself there`);
    expect(en).toContain(`${dir}/2025-1.jsonl is not read: its name is not an archive’s (YYYY-MM.jsonl); rename it to the month of its records`);
    const zh = noticeText('zh', n);
    expect(zh).toContain(`${dir}/2025-12.jsonl 是符号链接，未读取；请把文件本身放在那里`);
    expect(zh).toContain(`${dir}/2025-1.jsonl 未读取：文件名不是归档名（YYYY-MM.jsonl）；请按其中记录的月份重命名`);
    for (const text of [en, zh]) expect(text).not.toMatch(/too long|过长/);
  });

  it('every kind has its own words in both languages, and more than five pieces are counted', () => {
    const kinds: UnreadHistory[] = [
      { kind: 'unreadable', path: 'u.jsonl', reason: 'EACCES: permission denied' },
      { kind: 'oversized', path: 'o.jsonl', line: 11, bytes: 157286400 },
      { kind: 'invalid-utf8', path: 'i.jsonl', lines: [3] },
      { kind: 'skipped', path: 's.jsonl', cause: 'symbolic-link' },
      { kind: 'skipped', path: 'n.jsonl', cause: 'not-an-archive-name' },
    ];
    for (const lang of ['en', 'zh'] as const) {
      const texts = kinds.map((k) => noticeText(lang, notice(k)));
      expect(new Set(texts).size, lang).toBe(kinds.length);
      for (const t of texts) expect(hasHan(t), `${lang}: ${t}`).toBe(lang === 'zh');
      expect(texts[0]).toContain('EACCES: permission denied');
      expect(texts[1]).toContain('157286400');
    }
    const six = notice(...kinds, { kind: 'unreadable', path: 'sixth.jsonl', reason: 'EIO' });
    expect(noticeText('en', six)).toContain('; and 1 more. Everything else');
    expect(noticeText('en', six)).not.toContain('sixth.jsonl');
    expect(noticeText('zh', six)).toContain('；另有 1 处。其余记录');
  });
});
