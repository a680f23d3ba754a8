/**
 * The composition root (src/main/index.ts) wired against the real services — data lock, logger,
 * config store, secret store, IPC dispatcher, window factory, tray menu — with only the `electron`
 * module replaced by a recorder. A mock because no Electron binary can run here (the e2e suite runs
 * the real thing where one exists); everything behind the mock is real and writes real files.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

type Listener = (...args: unknown[]) => unknown;

/** The recorded stand-in for a WebContents. */
interface FakeContents {
  readonly id: number;
  readonly sent: unknown[][];
  windowOpen: Listener | null;
  emit(event: string, ...args: unknown[]): unknown[];
}

/** Minimal event-emitter recorder. */
class Emitter {
  readonly listeners = new Map<string, Listener[]>();
  on(event: string, fn: Listener): this {
    this.listeners.set(event, [...(this.listeners.get(event) ?? []), fn]);
    return this;
  }
  once(event: string, fn: Listener): this {
    return this.on(event, fn);
  }
  emit(event: string, ...args: unknown[]): unknown[] {
    return (this.listeners.get(event) ?? []).map((fn) => fn(...args));
  }
}

const h = vi.hoisted(() => ({
  state: {
    windows: [] as { options: Record<string, unknown>; url: string; contents: FakeContents }[],
    handlers: new Map<string, Listener>(),
    permissionRequest: null as null | Listener,
    permissionCheck: null as null | Listener,
    headers: null as null | Listener,
    privileged: [] as unknown[],
    protocolHandlers: new Map<string, Listener>(),
    menus: [] as { label?: string; click?: () => void; enabled?: boolean }[][],
    app: null as unknown as { emit: (e: string, ...a: unknown[]) => unknown[] },
    paths: new Map<string, string>(),
    exitCode: undefined as number | undefined,
    quitCalls: 0,
  },
}));

vi.mock('electron', () => {
  const s = h.state;
  let nextId = 1;
  const session = {
    setPermissionRequestHandler: (fn: Listener) => (s.permissionRequest = fn),
    setPermissionCheckHandler: (fn: Listener) => (s.permissionCheck = fn),
    webRequest: { onHeadersReceived: (fn: Listener) => (s.headers = fn) },
  };
  class BrowserWindow extends Emitter {
    readonly webContents: FakeContents;
    destroyed = false;
    constructor(options: Record<string, unknown>) {
      super();
      const contents = Object.assign(new Emitter(), {
        id: nextId++,
        session,
        sent: [] as unknown[][],
        isDestroyed: () => false,
        send: (...args: unknown[]) => contents.sent.push(args),
        setWindowOpenHandler: (fn: Listener) => (contents.windowOpen = fn),
        windowOpen: null as null | Listener,
      });
      this.webContents = contents;
      s.windows.push({ options, url: '', contents });
    }
    loadURL(url: string): Promise<void> {
      const rec = s.windows.find((w) => w.contents === this.webContents);
      if (rec) rec.url = url;
      return Promise.resolve();
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    show(): void {}
    focus(): void {}
    hide(): void {}
    showInactive(): void {}
    isVisible(): boolean {
      return false;
    }
    getSize(): number[] {
      return [168, 40];
    }
    setPosition(): void {}
    setIgnoreMouseEvents(): void {}
    setAlwaysOnTop(): void {}
    setVisibleOnAllWorkspaces(): void {}
  }
  const appEmitter = new Emitter();
  const app = Object.assign(appEmitter, {
    isPackaged: false,
    setPath: (name: string, value: string) => s.paths.set(name, value),
    requestSingleInstanceLock: () => true,
    whenReady: () => Promise.resolve(),
    getVersion: () => '0.1.0-test',
    getAppPath: () => process.cwd(),
    getLocale: () => 'zh-CN',
    quit: () => {
      s.quitCalls++;
      const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
      appEmitter.emit('before-quit', event);
    },
    exit: (code: number) => (s.exitCode = code),
    setLoginItemSettings: () => undefined,
    dock: undefined,
  });
  s.app = app;
  class Tray {
    setImage(): void {}
    setToolTip(): void {}
    setContextMenu(menu: unknown): void {
      s.menus.push(menu as (typeof s.menus)[number]);
    }
    destroy(): void {}
  }
  return {
    app,
    BrowserWindow,
    Tray,
    Menu: { buildFromTemplate: (t: unknown) => t },
    nativeImage: { createFromPath: () => ({ setTemplateImage: () => undefined }) },
    dialog: { showErrorBox: (title: string, body: string) => console.error(title, body) },
    ipcMain: { handle: (ch: string, fn: Listener) => s.handlers.set(ch, fn), removeHandler: (ch: string) => s.handlers.delete(ch) },
    shell: { openExternal: () => Promise.resolve(), openPath: () => Promise.resolve('') },
    safeStorage: { isEncryptionAvailable: () => false, encryptString: () => Buffer.alloc(0), decryptString: () => '' },
    // Dictation wiring: recorded no-ops (the hotkeys' native hook is kept off by an empty DISPLAY below).
    globalShortcut: { register: () => true, unregister: () => undefined },
    utilityProcess: { fork: () => ({ pid: 1, stderr: null, postMessage: () => undefined, on() { return this; }, kill: () => true }) },
    screen: { getCursorScreenPoint: () => ({ x: 0, y: 0 }), getDisplayNearestPoint: () => ({ workArea: { x: 0, y: 0, width: 1280, height: 800 } }) },
    systemPreferences: {},
    clipboard: {},
    ClipboardItem: class {},
    // The app:// scheme: registered before 'ready', its handler recorded (app-protocol.ts is tested on its own).
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => s.privileged.push(...schemes),
      handle: (scheme: string, fn: Listener) => s.protocolHandlers.set(scheme, fn),
    },
  };
});

describe('src/main/index.ts wiring (electron recorded, services real)', () => {
  const s = h.state;
  let dataDir: string;
  const logText = (): string => readFileSync(join(dataDir, 'logs', 'main.log'), 'utf8');

  // index.ts installs SIGINT/SIGTERM handlers (they quit the app); take them off again after the test.
  const signalListenersBefore = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'tingxie-'));
    vi.stubEnv('TINGXIE_DATA_DIR', dataDir);
    vi.stubEnv('ELECTRON_RENDERER_URL', '');
    // No global key hook in a test worker, and no autostart file outside the temp folder.
    vi.stubEnv('DISPLAY', '');
    vi.stubEnv('WAYLAND_DISPLAY', '');
    vi.stubEnv('XDG_CONFIG_HOME', dataDir);
    await import('../../../../src/main/index.ts');
    await vi.waitFor(() => expect(logText()).toContain('"msg":"ready"'), { timeout: 10_000 });
  }, 20_000);
  afterAll(() => {
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const l of process.listeners(signal)) if (!signalListenersBefore[signal].includes(l)) process.removeListener(signal, l);
    }
    vi.unstubAllEnvs();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('points userData at the data folder, locks it, and logs to <dataDir>/logs/main.log', () => {
    expect(s.paths.get('userData')).toBe(dataDir);
    expect(JSON.parse(readFileSync(join(dataDir, 'tingxie.lock'), 'utf8')).pid).toBe(process.pid);
    expect(existsSync(join(dataDir, 'config.json'))).toBe(true);
  });

  it('registers every IPC channel, and a call from an untrusted sender is refused', async () => {
    for (const ch of ['config:get', 'config:set', 'config:issues', 'secrets:status', 'app:info', 'app:open-external', 'app:open-logs']) {
      expect(s.handlers.has(ch), ch).toBe(true);
    }
    const res = (await s.handlers.get('config:get')!({ sender: { id: 999 }, senderFrame: { url: 'https://evil.example/' } }, undefined)) as {
      ok: boolean;
      error?: { code: string };
    };
    expect(res).toMatchObject({ ok: false, error: { code: 'untrusted-sender' } });
  });

  it('creates the capture and panel windows hidden, through the secure factory, loading their own pages', () => {
    const kinds = s.windows.map((w) => w.url.match(/^app:\/\/tingxie\/(\w+)\/index\.html$/)?.[1]);
    expect(kinds.slice(0, 3)).toEqual(['capture', 'panel', 'indicator']);
    for (const w of s.windows) {
      expect(w.options.show).toBe(false);
      expect(w.options.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
      expect(String((w.options.webPreferences as { preload: string }).preload)).toMatch(/preload[\\/]index\.cjs$/);
    }
  });

  it('a trusted window can call through IPC; app:info resolves the system language', async () => {
    const indicator = s.windows[2]!;
    const res = await s.handlers.get('app:info')!({ sender: indicator.contents, senderFrame: { url: indicator.url } }, undefined);
    expect(res).toMatchObject({ ok: true, value: { dataDir, uiLanguage: 'zh', version: '0.1.0-test' } });
  });

  it('serves pages on app://tingxie/ and scopes each window: the capture window may not call app:info', async () => {
    expect(s.privileged).toEqual([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true, stream: true } }]);
    expect(s.protocolHandlers.has('app')).toBe(true);
    // Not packaged here: DevTools stay available for development.
    for (const w of s.windows) expect(w.options.webPreferences).toMatchObject({ devTools: true });
    const capture = s.windows[0]!;
    const res = await s.handlers.get('app:info')!({ sender: capture.contents, senderFrame: { url: capture.url } }, undefined);
    expect(res).toMatchObject({ ok: false, error: { code: 'out-of-scope' } });
  });

  it('the session guards deny everything but audio for the capture window', () => {
    const [capture, panel] = s.windows;
    const ask = (contents: unknown, permission: string, mediaTypes: string[], url: string): boolean => {
      let granted: boolean | undefined;
      s.permissionRequest!(contents, permission, (v: boolean) => (granted = v), { mediaTypes, requestingUrl: url, isMainFrame: true });
      return granted!;
    };
    expect(ask(capture!.contents, 'media', ['audio'], capture!.url)).toBe(true);
    expect(ask(capture!.contents, 'media', ['video'], capture!.url)).toBe(false);
    expect(ask(panel!.contents, 'media', ['audio'], panel!.url)).toBe(false);
    expect(ask(capture!.contents, 'notifications', [], capture!.url)).toBe(false);
    expect(s.permissionCheck!(null, 'media', '', { mediaType: 'audio', isMainFrame: true })).toBe(false);
    let headers: Record<string, string[]> = {};
    s.headers!({ responseHeaders: {} }, (r: { responseHeaders: Record<string, string[]> }) => (headers = r.responseHeaders));
    expect(headers['Content-Security-Policy']?.[0]).toContain("script-src 'self'");
  });

  it('navigation away and window.open are refused', () => {
    const panel = s.windows[1]!;
    let prevented = false;
    panel.contents.emit('will-navigate', { preventDefault: () => (prevented = true) }, 'https://evil.example/');
    expect(prevented).toBe(true);
    const open = (panel.contents.windowOpen as Listener)({ url: 'https://github.com/' });
    expect(open).toEqual({ action: 'deny' });
  });

  it('the tray menu (in the system language, zh-CN here) opens Settings through the factory; a config change is broadcast to the windows', async () => {
    const menu = s.menus.at(-1)!;
    expect(menu.map((i) => i.label).filter(Boolean)).toEqual(expect.arrayContaining(['设置…', '历史记录…', '退出 Tingxie']));
    menu.find((i) => i.label === '设置…')!.click!();
    const settings = s.windows.find((w) => w.url.endsWith('/settings/index.html'));
    expect(settings).toBeDefined();

    const res = await s.handlers.get('config:set')!(
      { sender: settings!.contents, senderFrame: { url: settings!.url } },
      { keyPath: 'ai_enhance.conversation_history.max_entries', value: 12 },
    );
    expect(res).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(settings!.contents.sent.some((m) => m[0] === 'config:changed')).toBe(true));
    expect(JSON.parse(readFileSync(join(dataDir, 'config.json'), 'utf8')).ai_enhance.conversation_history.max_entries).toBe(12);
  });

  it('dictation is wired: hotkey status over IPC (hook failure reported, toggle shortcut as fallback), capture configured on load, tray items', async () => {
    const capture = s.windows[0]!;
    const settings = s.windows.find((w) => w.url.endsWith('/settings/index.html'))!;
    const res = (await s.handlers.get('dictation:hotkeys')!({ sender: settings.contents, senderFrame: { url: settings.url } }, undefined)) as { ok: boolean; value: Record<string, unknown> };
    expect(res.ok).toBe(true);
    expect(res.value).toMatchObject({ hook: 'failed', hookError: expect.stringMatching(/DISPLAY/), toggle: { accelerator: 'CommandOrControl+Shift+Space', registered: true } });
    // The failure was said to the user, not only logged: as a code to the windows (they translate it)…
    await vi.waitFor(() =>
      expect(
        capture.contents.sent.some((m) => m[0] === 'app:notice' && JSON.stringify((m[1] as { notice: unknown }).notice) === JSON.stringify({ code: 'hook-unavailable', cause: 'no-display', reason: null, toggle: 'CommandOrControl+Shift+Space' })),
      ).toBe(true),
    );
    // …and in words on the tray, in the UI language (system → zh-CN).
    await vi.waitFor(() => expect(s.menus.at(-1)!.some((i) => /^⚠ 按住说话需要图形会话/.test(String(i.label)))).toBe(true));
    capture.contents.emit('did-finish-load');
    expect(capture.contents.sent.some((m) => m[0] === 'capture:command' && (m[1] as { action: string }).action === 'configure')).toBe(true);
    const labels = s.menus.at(-1)!.map((i) => i.label);
    expect(labels).toEqual(expect.arrayContaining(['增强模式', 'AI 增强', '增强选中的文字', '重试上一次听写']));
  });

  it('the tray follows a change of the UI language', async () => {
    const settings = s.windows.find((w) => w.url.endsWith('/settings/index.html'))!;
    const set = (value: string) => s.handlers.get('config:set')!({ sender: settings.contents, senderFrame: { url: settings.url } }, { keyPath: 'ui.language', value });
    expect(await set('en')).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(s.menus.at(-1)!.map((i) => i.label)).toEqual(expect.arrayContaining(['Settings…', 'History…', 'Enhancement Mode', 'Quit Tingxie'])));
    // No speech model is installed here, so the status line asks for the set-up.
    expect(s.menus.at(-1)![0]!.label).toBe('Tingxie — Set-up needed');
    expect(await set('zh')).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(s.menus.at(-1)![0]!.label).toBe('Tingxie — 需要设置'));
    expect(await set('en')).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(s.menus.at(-1)![0]!.label).toBe('Tingxie — Set-up needed'));
  });

  it("a model download started from Settings shows on the tray and is cleared when it ends", async () => {
    const settings = s.windows.find((w) => w.url.endsWith('/settings/index.html'))!;
    const before = s.menus.length;
    // A name the catalog does not know: the real model manager fails it at once, without any network.
    const res = await s.handlers.get('models:download')!({ sender: settings.contents, senderFrame: { url: settings.url } }, { name: 'no-such-model' });
    expect(res).toMatchObject({ ok: true });
    await vi.waitFor(() => expect(settings.contents.sent.some((m) => m[0] === 'models:progress' && (m[1] as { download: { state: string } }).download.state === 'failed')).toBe(true));
    const shown = s.menus.slice(before).map((menu) => menu.map((i) => i.label));
    // First the progress line, then a menu without it.
    expect(shown.some((labels) => labels.includes('Downloading no-such-model… 0%'))).toBe(true);
    expect(shown.at(-1)!.some((l) => l?.startsWith('Downloading'))).toBe(false);
  });

  it('a second instance opens Settings; Quit releases the data-folder lock', async () => {
    const before = s.windows.length;
    s.app.emit('second-instance');
    await Promise.resolve();
    expect(s.windows.length).toBe(before); // Settings already open: focused, not duplicated
    s.menus.at(-1)!.find((i) => i.label === 'Quit Tingxie')!.click!();
    await vi.waitFor(() => expect(existsSync(join(dataDir, 'tingxie.lock'))).toBe(false));
    expect(logText()).toContain('"msg":"quitting"');
    expect(s.exitCode).toBeUndefined();
  });
});
