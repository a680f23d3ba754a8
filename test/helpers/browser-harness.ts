/**
 * Runs the built renderer (out/renderer, from `electron-vite build`) in real Chromium with the real
 * main-side IPC stack behind `window.tingxie`:
 *
 *   page ─ window.tingxie = createBridge(transport)   (src/preload/create-bridge.ts, bundled by Vite)
 *        └ transport.invoke ─ Playwright binding ─ handler registered by setupIpc() on an ipcMain stand-in
 *             ─ real dispatcher (sender check with the page's real frame URL, zod) ─ real handlers
 *             ─ real ConfigStore / SecretStore on a temp data folder
 *   ConfigStore.onChange ─ setupIpc's broadcaster ─ trusted "webContents" (this page) ─ page.evaluate
 *
 * Stand-ins (nothing real can run here): ipcMain itself (a map of handlers), safeStorage and the shell
 * actions (browser-fakes.ts). Console errors, page errors and CSP violations are collected per window.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { setupIpc, type IpcRuntime } from '../../src/main/ipc/setup.ts';
import { historyApiOf, historyChangesOf } from '../../src/main/ipc/handlers/history.ts';
import { HistoryService } from '../../src/main/history/history-service.ts';
import type { IpcMainLike } from '../../src/main/ipc/register.ts';
import { TrustedSenders, type TrustableContents } from '../../src/main/ipc/trusted-senders.ts';
import { ConfigStore } from '../../src/main/settings/config-store.ts';
import { SecretStore, SECRETS_FILE } from '../../src/main/settings/secrets.ts';
import { CONTENT_SECURITY_POLICY } from '../../src/shared/csp.ts';
import { bridgeInitScript } from './browser-bridge-bundle.ts';
import { fakeSafeStorage, recordingAppService, type ShellRecord } from './browser-fakes.ts';
import { startStaticServer, type StaticServer } from './browser-static-server.ts';
import { dialogRecorder, startModelMirror, type DialogRecorder } from './browser-settings-services.ts';
import { createSettingsApi } from '../../src/main/ipc/settings-services.ts';
import { recentAppsOf } from '../../src/main/ipc/handlers/app-rules.ts';
import { learningServices } from '../../src/main/app/learning-wiring.ts';
import { textRulesApiOf } from '../../src/main/ipc/handlers/text-rules.ts';
import { VocabularyStore, VOCABULARY_DB_FILE } from '../../src/main/enhance/vocabulary-store.ts';
import { ModelManager } from '../../src/main/asr/model-manager.ts';
import { llmCatalogEntries } from '../../src/main/app/llm-models.ts';
import { defaultConfig } from '../../src/shared/config/config-schema.ts';
import type { Broadcast } from '../../src/main/ipc/register.ts';
import type { Recordings } from '../../src/main/dictation/recordings/recordings.ts';
import { browserOnboarding, type BrowserOnboarding } from './browser-onboarding.ts';
import { harnessRecordings } from './browser-recordings.ts';
import { dictationConfigText, startHarnessDictation, type HarnessDictation } from './browser-dictation.ts';
import { CHROMIUM_TEST_FLAGS } from './chromium-flags.ts';
import { startOpenAiTestServer, type OpenAiTestServerOptions } from './openai-test-server.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
/** asr.local.models_mirror's default (Hugging Face), which the local model mirror stands in for. */
const DEFAULT_MODELS_MIRROR = defaultConfig().asr.local.models_mirror;
/** Where `electron-vite build` puts the renderer. */
export const rendererOutDir = path.join(repoRoot, 'out', 'renderer');

/** The renderer windows (one HTML entry each). */
export type WindowName = 'panel' | 'settings' | 'history' | 'capture' | 'indicator' | 'onboarding';

/** The Chromium flags of chromium-flags.ts, shared with the electron stand-in. */
export const chromiumArgs: readonly string[] = CHROMIUM_TEST_FLAGS;

/** A browser + static server shared by the tests of one file. */
export interface BrowserHarness {
  readonly browser: Browser;
  readonly server: StaticServer;
  /** Opens one renderer window over a fresh (or given) data folder. */
  open(name: WindowName, options?: OpenOptions): Promise<HarnessWindow>;
  /** Closes every window still open (a window closed by its test is not closed twice). */
  closeWindows(): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link BrowserHarness.open}. */
export interface OpenOptions {
  /** Text written to config.json before the store opens (to test load issues). */
  readonly configText?: string;
  /** `navigator.language` of the page (Chromium's --lang / locale). Default en-US. */
  readonly locale?: string;
  readonly viewport?: { readonly width: number; readonly height: number };
  readonly colorScheme?: 'light' | 'dark';
  /** A data folder (history JSONL, archives, index.db) copied into the window's fresh temp folder first. */
  readonly seedDir?: string;
  /**
   * Whether the chosen local speech model counts as installed (default true: most windows are tested
   * as a set-up user sees them). A placeholder file: these windows only list models, nothing loads it.
   * False is a first start — Settings then opens on Speech with the "not installed" banner.
   */
  readonly speechModelInstalled?: boolean;
  /**
   * Runs the real dictation controller and service graph behind the window, with ASR and the LLM on a
   * local OpenAI-compatible test server scripted by these options (see browser-dictation.ts).
   */
  readonly dictation?: OpenAiTestServerOptions;
}

/** Something the page reported that a clean window must not: console error, page error, CSP violation. */
export interface PageProblem {
  readonly kind: 'console-error' | 'page-error' | 'csp-violation';
  readonly text: string;
}

/** One open window with the real services behind it. */
export interface HarnessWindow {
  readonly page: Page;
  readonly dataDir: string;
  readonly configStore: ConfigStore;
  readonly secretStore: SecretStore;
  /** The real history service behind the history channels (tests log records through it). */
  readonly history: HistoryService;
  /** The real vocabulary database behind `vocabulary:*` (the dictation graph's own, when there is one). */
  readonly vocabulary: VocabularyStore;
  /** The dictation controller and services, when opened with `dictation`. */
  readonly dictation: HarnessDictation | null;
  /** The real IPC broadcaster (setupIpc's): sends an event to every trusted window, as main does. */
  readonly broadcast: Broadcast;
  /** Stand-in for the OS file dialogs (see browser-settings-services.ts). */
  readonly dialogs: DialogRecorder;
  /** What the page asked of the onboarding window's owner (`open`, `close`); the speech test is real. */
  readonly onboardingCalls: string[];
  /** The onboarding owner: the OS its permission step sees, the panes opened, the key watch (browser-onboarding.ts). */
  readonly onboarding: BrowserOnboarding;
  readonly shell: ShellRecord;
  /** Console errors/warnings of every level, page errors and CSP violations, in order. */
  readonly problems: PageProblem[];
  /** Every console message (type: text), for debugging failures. */
  readonly consoleLog: string[];
  /** config.json as it is on disk now. */
  readConfigFile(): unknown;
  /** secrets.json as text ('' when absent). */
  readSecretsFile(): string;
  close(): Promise<void>;
}

/** Fails early with the command to run when the renderer has not been built. */
function assertBuilt(): void {
  const missing = (['panel', 'settings', 'history', 'capture'] as const).filter(
    (n) => !fs.existsSync(path.join(rendererOutDir, n, 'index.html')),
  );
  if (missing.length > 0) {
    throw new Error(`out/renderer is missing ${missing.join(', ')}: run \`npx electron-vite build\` first (npm run test:browser does).`);
  }
}

/** Starts Chromium (/usr/bin/chromium) and the static server; bundles the bridge once. */
export async function startBrowserHarness(): Promise<BrowserHarness> {
  assertBuilt();
  const executablePath = process.env.TINGXIE_CHROMIUM || '/usr/bin/chromium';
  if (!fs.existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: run \`node scripts/ensure-system-deps.mjs\` (installs Debian's chromium).`);
  }
  // Main sends the CSP as a header too (src/shared/csp.ts); serve it the same way so both copies are in force.
  const server = await startStaticServer(rendererOutDir, { 'content-security-policy': CONTENT_SECURITY_POLICY });
  const [browser, initScript, mirror] = await Promise.all([
    chromium.launch({ executablePath, headless: true, args: [...chromiumArgs] }),
    bridgeInitScript(),
    startModelMirror(),
  ]);
  const version = (JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
  const opened = new Set<HarnessWindow>();
  let nextId = 1;

  const open = async (name: WindowName, options: OpenOptions = {}): Promise<HarnessWindow> => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
    if (options.seedDir !== undefined) fs.cpSync(options.seedDir, dataDir, { recursive: true, preserveTimestamps: true });
    const llm = options.dictation ? await startOpenAiTestServer(options.dictation) : null;
    if (llm !== null) fs.writeFileSync(path.join(dataDir, 'config.json'), dictationConfigText(llm.baseURL, options.configText ? (JSON.parse(options.configText) as Record<string, unknown>) : {}));
    else if (options.configText !== undefined) fs.writeFileSync(path.join(dataDir, 'config.json'), options.configText);
    const configStore = await ConfigStore.open({ dataDir });
    const modelFile = path.join(dataDir, 'models', `ggml-${configStore.get().asr.local.model}.bin`);
    if (options.speechModelInstalled !== false && !fs.existsSync(modelFile)) {
      fs.mkdirSync(path.dirname(modelFile), { recursive: true });
      fs.writeFileSync(modelFile, 'placeholder: a set-up user has a model here');
    }
    const secretStore = await SecretStore.open({
      file: path.join(dataDir, SECRETS_FILE),
      safeStorage: fakeSafeStorage,
      plaintextConsent: configStore.get().secrets.plaintext_consent,
      platform: 'linux',
    });
    const { service: app, shell } = recordingAppService({
      version,
      dataDir,
      uiLanguage: () => {
        const l = configStore.get().ui.language;
        return l === 'system' ? ((options.locale ?? 'en-US').startsWith('zh') ? 'zh' : 'en') : l;
      },
    });

    // The renderer is served over http, so the page URL is trusted through the dev-server branch.
    const trusted = new TrustedSenders({ rendererDir: rendererOutDir, devServerUrl: `${server.origin}/` });
    const handlers = new Map<string, (event: unknown, payload: unknown) => unknown>();
    // Stand-in for Electron's ipcMain: setupIpc/registerIpc register into it exactly as in the app.
    const ipcMain: IpcMainLike = {
      handle: ((channel: string, fn: (event: unknown, payload: unknown) => unknown) => {
        handlers.set(channel, fn);
      }) as IpcMainLike['handle'],
      removeHandler: (channel: string) => {
        handlers.delete(channel);
      },
    };
    const problems: PageProblem[] = [];
    const consoleLog: string[] = [];
    const log = {
      warn: (m: string, f?: Readonly<Record<string, unknown>>) => consoleLog.push(`[main warn] ${m} ${JSON.stringify(f ?? {})}`),
      error: (m: string, f?: Readonly<Record<string, unknown>>) => consoleLog.push(`[main error] ${m} ${JSON.stringify(f ?? {})}`),
    };
    // The real history service over the same temp folder (the History Browser's data).
    const history = await HistoryService.open({ dataDir, enabled: true, rebuildInline: true, warn: (m) => consoleLog.push(`[history] ${m}`) });
    let ipcRef: { readonly broadcast: Broadcast } | null = null;
    // The app shares one VocabularyStore between dictation and Settings; so does the harness.
    const dictation =
      llm === null
        ? null
        : await startHarnessDictation({ dataDir, config: configStore, history, server: llm, broadcast: () => ipcRef?.broadcast ?? null, log: (m) => consoleLog.push(m) });
    const vocabulary = dictation?.graph.vocabulary ?? VocabularyStore.open(path.join(dataDir, VOCABULARY_DB_FILE));
    const dialogs = dialogRecorder();
    // The real settings services: vocabulary DB, model manager over a local HTTP mirror, modes folder, export/import.
    const settings = createSettingsApi({
      dataDir,
      config: configStore,
      secretValue: (n) => secretStore.get(n),
      vocabulary,
      // The local mirror stands in for the default host (no internet here); a mirror set in the UI is used as set.
      models: new ModelManager({
        dataDir,
        mirror: () => {
          const set = configStore.get().asr.local.models_mirror;
          return set === DEFAULT_MODELS_MIRROR ? mirror.origin : set;
        },
        // The built-in LLM engine's GGUF models join the list as in the app (llm-models.ts), for the AI step.
        catalog: [...mirror.catalog, ...llmCatalogEntries()],
        recommended: mirror.recommended,
      }),
      historyStore: history.store,
      history,
      dialogs,
      promptLanguage: () => (configStore.get().ui.language === 'zh' ? 'zh' : 'en'),
      onModelProgress: (name, download) => ipcRef?.broadcast('models:progress', { name, download }),
    });
    const owner = browserOnboarding({ config: configStore, secrets: secretStore, broadcast: () => ipcRef?.broadcast ?? null });
    const onboardingCalls = owner.calls;
    const onboarding = owner.service;
    // The History's recordings (play, save, re-transcribe): built once the page's context exists, below.
    let recordingsRef: Awaited<ReturnType<typeof harnessRecordings>> | null = null;
    const recordings = {
      info: (key: string) => recordingsRef!.recordings.info(key),
      saveAs: (key: string) => recordingsRef!.recordings.saveAs(key),
      retranscribe: (...a: Parameters<Recordings['retranscribe']>) => recordingsRef!.recordings.retranscribe(...a),
      apply: (...a: Parameters<Recordings['apply']>) => recordingsRef!.recordings.apply(...a),
      usage: () => recordingsRef!.recordings.usage(),
    };
    const ipc: IpcRuntime = setupIpc(ipcMain, {
      // Learning from edits as the app wires it (src/main/app/learning-wiring.ts): History's edits feed it, `learning:*` answers.
      services: { config: configStore, secrets: secretStore, app, settings, onboarding, recordings, textRules: textRulesApiOf(dataDir, () => configStore.get()), appRules: { recentApps: async () => recentAppsOf(await history.store.readFile('active')) }, ...(dictation ? { dictation: dictation.ipc } : {}), ...learningServices({ dataDir, config: configStore, vocabulary, dictation, history: historyApiOf(history), warn: (m) => consoleLog.push(`[learning] ${m}`) }) },
      historyChanges: historyChangesOf(history),
      trusted,
      log,
    });
    ipcRef = ipc;

    const context: BrowserContext = await browser.newContext({
      locale: options.locale ?? 'en-US',
      viewport: options.viewport ?? { width: 860, height: 620 },
      colorScheme: options.colorScheme ?? 'light',
      serviceWorkers: 'block',
    });
    recordingsRef = await harnessRecordings({ dataDir, config: configStore, history, asr: () => dictation?.graph.asr ?? null, dialogs, context });
    const page = await context.newPage();
    const contentsId = nextId++;
    const contents: TrustableContents = {
      id: contentsId,
      once: (_event, listener) => page.once('close', () => listener()),
      isDestroyed: () => page.isClosed(),
      // webContents.send: deliver to the bridge's subscribers in the page.
      send: (channel, payload) => {
        page.evaluate(([c, p]) => (window as unknown as { __tingxie_emit: (c: string, p: unknown) => number }).__tingxie_emit(c, p), [channel, payload] as const)
          .catch((e: unknown) => consoleLog.push(`[harness] event ${channel} not delivered: ${String(e)}`));
      },
    };
    // Trusted as the window it shows, so its calls go through that window's IPC scope as in the app.
    trusted.add(contents, name);

    await page.exposeBinding('__tingxie_invoke', async (source, channel: string, payload: unknown) => {
      const handler = handlers.get(channel);
      // Electron rejects invoke() on a channel nobody handles; so does the stand-in.
      if (!handler) throw new Error(`No handler registered for '${channel}'`);
      return handler({ sender: { id: contentsId }, senderFrame: { url: source.frame.url() } }, payload);
    });
    await page.exposeBinding('__tingxie_csp_violation', (_source, text: string) => {
      problems.push({ kind: 'csp-violation', text });
    });
    await page.addInitScript({
      content:
        `window.addEventListener('securitypolicyviolation', (e) => window.__tingxie_csp_violation(` +
        `e.violatedDirective + ' blocked ' + (e.blockedURI || 'inline') + ' at ' + e.sourceFile + ':' + e.lineNumber), true);`,
    });
    await page.addInitScript({ content: initScript });
    page.on('console', (m) => {
      consoleLog.push(`${m.type()}: ${m.text()}`);
      if (m.type() === 'error' || m.type() === 'warning') problems.push({ kind: 'console-error', text: `${m.type()}: ${m.text()}` });
    });
    page.on('pageerror', (e) => problems.push({ kind: 'page-error', text: e.stack ?? e.message }));

    await page.goto(`${server.origin}/${name}/index.html`, { waitUntil: 'load' });

    const win: HarnessWindow = {
      page,
      dataDir,
      configStore,
      secretStore,
      history,
      vocabulary,
      dictation,
      broadcast: ipc.broadcast,
      dialogs,
      onboardingCalls,
      onboarding: owner,
      shell,
      problems,
      consoleLog,
      readConfigFile: () => JSON.parse(fs.readFileSync(configStore.path, 'utf8')) as unknown,
      readSecretsFile: () => {
        try {
          return fs.readFileSync(path.join(dataDir, SECRETS_FILE), 'utf8');
        } catch {
          return '';
        }
      },
      close: async () => {
        opened.delete(win);
        await context.close();
        recordingsRef?.stop();
        ipc.dispose();
        if (dictation) await dictation.close(); // closes the shared vocabulary too
        else vocabulary.close();
        await history.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
    opened.add(win);
    return win;
  };

  const closeWindows = async (): Promise<void> => {
    for (const w of [...opened]) await w.close();
  };

  return {
    browser,
    server,
    open,
    closeWindows,
    close: async () => {
      await closeWindows();
      await browser.close();
      await server.close();
      await mirror.close();
    },
  };
}

/**
 * One harness for the calling test file: started before its tests, every window a test opened closed
 * after that test, the harness closed after the file. The returned harness may be used inside tests only.
 */
export function useBrowserHarness(): BrowserHarness {
  let started: BrowserHarness | undefined;
  const current = (): BrowserHarness => {
    if (started === undefined) throw new Error('the browser harness starts in beforeAll: use it inside tests and hooks');
    return started;
  };
  beforeAll(async () => {
    started = await startBrowserHarness();
  });
  afterEach(async () => {
    await started?.closeWindows();
  });
  afterAll(async () => {
    await started?.close();
  });
  return {
    get browser() {
      return current().browser;
    },
    get server() {
      return current().server;
    },
    open: (name, options) => current().open(name, options),
    closeWindows: () => current().closeWindows(),
    close: () => current().close(),
  };
}
