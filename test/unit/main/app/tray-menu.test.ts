import { describe, expect, it } from 'vitest';
import { DEFAULT_TRAY_LABELS, TRAY_STATUSES, buildTrayMenu, statusLine, trayIconFile } from '../../../../src/main/app/tray-menu.ts';

describe('buildTrayMenu', () => {
  it('has a disabled status line, Settings…, History…, Open logs and Quit, in that order', () => {
    const menu = buildTrayMenu({ status: 'idle' });
    expect(menu.map((i) => (i.type === 'action' ? i.action : i.type))).toEqual([
      'status',
      'separator',
      'open-settings',
      'open-history',
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
});
