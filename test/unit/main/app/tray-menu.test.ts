import { describe, expect, it } from 'vitest';
import {
  DEFAULT_TRAY_LABELS,
  TRAY_STATUSES,
  TRAY_TOGGLES,
  buildTrayMenu,
  downloadLine,
  statusLine,
  trayIconFile,
  trayIconStatus,
  trayStatusOf,
  trayTooltip,
} from '../../../../src/main/app/tray-menu.ts';

describe('buildTrayMenu', () => {
  it('has a disabled status line, Start Dictation, enhance selection, retry, History…, Set Up…, Settings…, Open logs and Quit, in that order', () => {
    const menu = buildTrayMenu({ status: 'idle' });
    expect(menu.map((i) => (i.type === 'action' ? i.action : i.type))).toEqual([
      'status',
      'separator',
      'start-dictation',
      'enhance-selection',
      'retry-last',
      'paste-last',
      'copy-last',
      'reopen-last',
      'separator',
      'open-history',
      'open-setup',
      'open-settings',
      'open-logs',
      'separator',
      'quit',
    ]);
    expect(menu[0]).toEqual({ type: 'status', label: 'Tingxie — Ready' });
    expect(menu.find((i) => i.type === 'action' && i.action === 'quit')).toMatchObject({ label: 'Quit Tingxie', accelerator: 'CmdOrCtrl+Q' });
  });

  it('the status line follows every state and uses the given labels', () => {
    for (const status of TRAY_STATUSES) {
      expect(buildTrayMenu({ status })[0]).toEqual({ type: 'status', label: `Tingxie — ${DEFAULT_TRAY_LABELS.status[status]}` });
    }
    const zh = { ...DEFAULT_TRAY_LABELS, tooltip: '听写', quit: '退出', status: { ...DEFAULT_TRAY_LABELS.status, idle: '就绪' } };
    const menu = buildTrayMenu({ status: 'idle' }, zh);
    expect(menu[0]).toEqual({ type: 'status', label: '听写 — 就绪' });
    expect(menu.at(-1)).toMatchObject({ label: '退出' });
  });

  it('error details are flattened to one line and shortened', () => {
    expect(statusLine({ status: 'error', detail: 'network\n  down' })).toBe('Tingxie — Something went wrong: network down');
    const long = statusLine({ status: 'error', detail: 'x'.repeat(500) });
    expect(long.length).toBeLessThan(120);
    expect(long.endsWith('…')).toBe(true);
    expect(statusLine({ status: 'idle', detail: '   ' })).toBe('Tingxie — Ready');
  });

  it('macOS uses template images, other platforms the coloured ones', () => {
    expect(trayIconFile('recording', 'darwin')).toBe('tray-recordingTemplate.png');
    expect(trayIconFile('recording', 'linux')).toBe('tray-recording.png');
    expect(trayIconFile('error', 'win32')).toBe('tray-error.png');
  });

  it('mode submenu marks the current mode; the four toggles follow the config', () => {
    const menu = buildTrayMenu({
      status: 'idle',
      mode: 'translate_en',
      modes: [
        { id: 'proofread', label: 'Proofread' },
        { id: 'translate_en', label: 'Translate to English' },
      ],
      toggles: { enhance: true, preview: false, history: true, vocabulary: false },
    });
    const modes = menu.find((i) => i.type === 'modes');
    expect(modes).toEqual({
      type: 'modes',
      label: 'Enhancement Mode',
      enabled: true,
      items: [
        { id: 'proofread', label: 'Proofread', checked: false },
        { id: 'translate_en', label: 'Translate to English', checked: true },
      ],
    });
    expect(menu.filter((i) => i.type === 'toggle').map((i) => (i.type === 'toggle' ? [i.toggle, i.checked] : null))).toEqual([
      ['enhance', true],
      ['preview', false],
      ['history', true],
      ['vocabulary', false],
    ]);
    expect(TRAY_TOGGLES.map((t) => t.keyPath)).toEqual(['ai_enhance.enabled', 'output.preview', 'ai_enhance.conversation_history.enabled', 'ai_enhance.vocabulary.enabled']);
  });

  it('retry is enabled only with a retryable dictation and an idle pipeline; enhance selection only when idle', () => {
    const find = (m: ReturnType<typeof buildTrayMenu>, a: string) => m.find((i) => i.type === 'action' && i.action === a);
    expect(find(buildTrayMenu({ status: 'idle', canRetry: true }), 'retry-last')).toMatchObject({ enabled: true });
    expect(find(buildTrayMenu({ status: 'idle', canRetry: false }), 'retry-last')).toMatchObject({ enabled: false });
    expect(find(buildTrayMenu({ status: 'recording', canRetry: true }), 'retry-last')).toMatchObject({ enabled: false });
    expect(find(buildTrayMenu({ status: 'transcribing' }), 'enhance-selection')).toMatchObject({ enabled: false });
    expect(find(buildTrayMenu({ status: 'error' }), 'enhance-selection')).toMatchObject({ enabled: true });
  });

  it('a download shows its percentage (line, tooltip) and the busy icon; a problem gets its own line', () => {
    const s = { status: 'idle' as const, download: { name: 'large-v3-turbo', percent: 41.6 }, problem: 'Hold-to-talk is off: no Accessibility permission' };
    const menu = buildTrayMenu(s);
    expect(menu[1]).toEqual({ type: 'status', label: 'Downloading large-v3-turbo… 42%' });
    expect(menu[2]).toMatchObject({ type: 'status', label: expect.stringMatching(/^⚠ Hold-to-talk is off/) });
    expect(trayTooltip(s)).toBe('Tingxie — Ready\nDownloading large-v3-turbo… 42%');
    expect(trayIconStatus(s)).toBe('transcribing');
    expect(trayIconStatus({ status: 'recording', download: s.download })).toBe('recording');
    expect(downloadLine({ name: 'x', percent: 140 })).toBe('Downloading x… 100%');
    expect(downloadLine({ name: 'x', percent: Number.NaN })).toBe('Downloading x… 0%');
  });

  it('maps dictation states to tray statuses', () => {
    expect(trayStatusOf('output')).toBe('preview');
    expect(trayStatusOf('recording')).toBe('recording');
  });
});

describe('the last-dictation items', () => {
  it('are enabled when idle (or after an error), show their shortcuts, and are off while a dictation runs', () => {
    const idle = buildTrayMenu({ status: 'idle', lastKeys: { paste: 'Control+Alt+P', copy: '', reopen: '' } });
    const items = idle.filter((i) => i.type === 'action' && i.action.endsWith('-last') && i.action !== 'retry-last');
    expect(items).toEqual([
      { type: 'action', action: 'paste-last', label: 'Paste Last Dictation', enabled: true, accelerator: 'Control+Alt+P' },
      { type: 'action', action: 'copy-last', label: 'Copy Last Dictation', enabled: true },
      { type: 'action', action: 'reopen-last', label: 'Reopen Last Preview', enabled: true },
    ]);
    const busy = buildTrayMenu({ status: 'recording' });
    expect(busy.filter((i) => i.type === 'action' && i.action === 'paste-last').map((i) => (i.type === 'action' ? i.enabled : null))).toEqual([false]);
  });
});

describe('first start and the way in', () => {
  it('before set-up the status line says so instead of "Ready", above the problem line', () => {
    const menu = buildTrayMenu({ status: 'idle', setupNeeded: true, problem: 'No speech model is installed yet' });
    expect(menu[0]).toEqual({ type: 'status', label: 'Tingxie — Set-up needed' });
    expect(menu[1]).toMatchObject({ label: '⚠ No speech model is installed yet' });
    expect(menu.find((i) => i.type === 'action' && i.action === 'open-setup')).toMatchObject({ label: 'Set Up…' });
    // Set up, it is ready again; a dictation under way says what it does.
    expect(buildTrayMenu({ status: 'idle', setupNeeded: false })[0]).toEqual({ type: 'status', label: 'Tingxie — Ready' });
    expect(buildTrayMenu({ status: 'recording', setupNeeded: true })[0]).toEqual({ type: 'status', label: 'Tingxie — Listening…' });
  });

  it('Start Dictation names the hold key (or shows the toggle shortcut) and becomes Stop while recording', () => {
    const find = (m: ReturnType<typeof buildTrayMenu>) => m.find((i) => i.type === 'action' && i.action === 'start-dictation');
    expect(find(buildTrayMenu({ status: 'idle', holdKey: 'Right Alt' }))).toEqual({ type: 'action', action: 'start-dictation', label: 'Start Dictation (or hold Right Alt)', enabled: true });
    expect(find(buildTrayMenu({ status: 'idle', toggleShortcut: 'CommandOrControl+Shift+Space' }))).toMatchObject({ label: 'Start Dictation', accelerator: 'CommandOrControl+Shift+Space' });
    expect(find(buildTrayMenu({ status: 'recording', holdKey: 'Right Alt' }))).toEqual({ type: 'action', action: 'start-dictation', label: 'Stop Dictation' });
    expect(find(buildTrayMenu({ status: 'transcribing' }))).toMatchObject({ enabled: false });
  });

  it('the mode submenu is greyed out while AI Enhancement is off', () => {
    const modes = (enhance: boolean) =>
      buildTrayMenu({ status: 'idle', mode: 'proofread', modes: [{ id: 'proofread', label: 'Proofread' }], toggles: { enhance, preview: true, history: false, vocabulary: false } }).find((i) => i.type === 'modes');
    expect(modes(false)).toMatchObject({ enabled: false });
    expect(modes(true)).toMatchObject({ enabled: true });
  });
});
