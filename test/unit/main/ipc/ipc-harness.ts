/**
 * Builds the real IPC stack for tests: the dispatcher over the real contract and the real handlers,
 * on a real ConfigStore and SecretStore in a temp data folder. Only two things are fakes, because
 * nothing real can run under Node without an Electron binary: safeStorage (a reversible in-memory
 * cipher standing in for the OS keyring) and the shell actions (recorded, not performed).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ipcContract } from '../../../../src/shared/ipc/contract.ts';
import type { InvokeChannel } from '../../../../src/shared/ipc/channels.ts';
import type { RequestInput } from '../../../../src/shared/ipc/contract.ts';
import { createIpcDispatcher } from '../../../../src/main/ipc/dispatcher.ts';
import type { IpcDispatcher, IpcSender } from '../../../../src/main/ipc/dispatcher.ts';
import { createHandlers } from '../../../../src/main/ipc/handlers/index.ts';
import { historyApiOf } from '../../../../src/main/ipc/handlers/history.ts';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import type { AppService } from '../../../../src/main/ipc/services.ts';
import { TrustedSenders } from '../../../../src/main/ipc/trusted-senders.ts';
import type { TrustableContents } from '../../../../src/main/ipc/trusted-senders.ts';
import { ConfigStore } from '../../../../src/main/settings/config-store.ts';
import { windowInvokeScopes } from '../../../../src/shared/ipc/window-scopes.ts';
import type { ScopedWindowKind } from '../../../../src/shared/ipc/window-scopes.ts';
import { SecretStore } from '../../../../src/main/settings/secrets.ts';
import type { SafeStorageLike } from '../../../../src/main/settings/secrets.ts';

/** A keyring stand-in: XOR with a fixed byte, so stored bytes differ from the plain text but round-trip. */
export const fakeSafeStorage: SafeStorageLike = {
  isEncryptionAvailable: () => true,
  encryptString: (plain) => Buffer.from(Buffer.from(plain, 'utf8').map((b) => b ^ 0x5a)),
  decryptString: (encrypted) => Buffer.from(encrypted.map((b) => b ^ 0x5a)).toString('utf8'),
  getSelectedStorageBackend: () => 'gnome_libsecret',
};

/** A webContents stand-in for TrustedSenders (ids and the 'destroyed' event are all it uses). */
export class FakeContents implements TrustableContents {
  readonly id: number;
  readonly sent: { channel: string; args: unknown[] }[] = [];
  private destroyed = false;
  private readonly onDestroyed: (() => void)[] = [];
  constructor(id: number) {
    this.id = id;
  }
  once(_event: 'destroyed', listener: () => void): this {
    this.onDestroyed.push(listener);
    return this;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
  }
  destroy(): void {
    this.destroyed = true;
    for (const l of this.onDestroyed.splice(0)) l();
  }
}

/** One valid request per channel; typed so a new channel without an example fails to compile. */
export const validRequests: { readonly [C in InvokeChannel]: RequestInput<C> } = {
  'config:get': undefined,
  'config:set': { keyPath: 'ai_enhance.conversation_history.max_entries', value: 12 },
  'config:issues': undefined,
  'secrets:status': undefined,
  'secrets:set': { name: 'provider:openai', value: 'sk-test-123' },
  'secrets:delete': { name: 'provider:openai' },
  'app:info': undefined,
  'app:open-external': { url: 'https://github.com/tingxie/tingxie' },
  'app:open-logs': undefined,
  'app:copy-text': { text: '果果 hello' },
  'history:query': { text: '萍萍', includeArchived: true },
  'history:count': { text: '萍萍', includeArchived: true, facets: false },
  'history:update': { key: 'ts:2026-03-12T10:30:00+00:00', final_text: '果果今天在公园里遇到了萍萍。' },
  'history:delete': { key: 'ts:2026-03-12T10:30:00+00:00' },
  'history:delete-day': { day: '2026-03-12', tzOffsetMinutes: 480 },
  'history:delete-all': { confirm: true },
  'history:stats': { days: 7, tzOffsetMinutes: 480 },
  'capture:frames': { sessionId: '01TESTSESSION', seq: 0, sampleRate: 16000, pcm: 'AAAAAA==' },
  'capture:status': { state: 'ready', sampleRate: 16000, deviceLabel: 'Default microphone' },
  'dictation:status': undefined,
  'dictation:confirm': { sessionId: '01TESTSESSION', text: '你好 world', action: 'paste' },
  'dictation:cancel': { sessionId: '01TESTSESSION' },
  'dictation:recoverable': undefined,
  'dictation:recover': { id: '01TESTSESSION', action: 'discard' },
  'dictation:hotkeys': undefined,
  'dictation:modes': undefined,
  'dictation:set-mode': { sessionId: '01TESTSESSION', mode: 'translate_en' },
  'dictation:prompt': { sessionId: '01TESTSESSION', mode: 'proofread' },
  'dictation:deliver': { text: '你好 world', action: 'copy', sessionId: '01TESTSESSION' },
  'dictation:hide-panel': undefined,
  'dictation:retry': { sessionId: '01TESTSESSION' },
  'dictation:retry-last': undefined,
  'modes:delete': { id: 'my-mode' },
  'dictation:rerun': { text: '你好 world', mode: 'proofread' },
  'vocabulary:list': { filter: '萍' },
  'vocabulary:add': { wrong: '平平', right: '萍萍', note: 'a name' },
  'vocabulary:update': { id: 1, right: '萍萍' },
  'vocabulary:remove': { id: 1 },
  'vocabulary:export': undefined,
  'vocabulary:import': undefined,
  'models:list': undefined,
  'models:download': { name: 'base' },
  'models:cancel': { name: 'base' },
  'models:delete': { name: 'base' },
  'modes:list': undefined,
  'modes:save': { id: 'proofread', text: '---\nlabel: Proofread\n---\nFix the text.' },
  'providers:verify': { providerId: 'ollama' },
  'providers:models': { providerId: 'ollama' },
  'providers:presets': undefined,
  'providers:prompt-report': undefined,
  'history:export': { format: 'csv' },
  'history:import': undefined,
  'learning:propose': { before: '明天跟平平开会', after: '明天跟萍萍开会' },
  'learning:accept': { wrong: '平平', right: '萍萍', always: false },
  'onboarding:open': undefined,
  'onboarding:close': undefined,
  'onboarding:verify-speech': undefined,
  'onboarding:mic-test': undefined,
  'onboarding:permissions': undefined,
  'onboarding:open-permission': { id: 'microphone' },
  'onboarding:watch-keys': { on: false },
  'recordings:info': { key: 'k1' },
  'recordings:save': { key: 'k1' },
  'recordings:retranscribe': { key: 'k1', choice: { engine: 'local', model: 'tiny' } },
  'recordings:apply': { key: 'k1', how: 'replace', text: 'x', sttModel: 'whisper-tiny', language: 'en' },
  'recordings:usage': undefined,
  'apps:recent': undefined,
  'rules:list': undefined,
  'rules:save-replacement': { heard: '平平', written: '萍萍', samePinyin: true, anywhere: false },
  'rules:save-snippet': { trigger: '签名', text: '张三' },
  'rules:remove': { id: 'r1' },
  'rules:try': { text: '嗯，明天三点，不对，四点' },
};

/** Every channel of the contract (so new channels are covered without editing the tests). */
export const allChannels = Object.keys(ipcContract) as InvokeChannel[];

/** The built renderer folder (what app://tingxie/ serves). */
export const rendererDir = path.join(os.tmpdir(), 'tingxie-test-out', 'renderer');
/** The frame URL of one of our pages (the Settings window's). */
export const ownFrameUrl = 'app://tingxie/settings/index.html';

/** Every window kind with an IPC scope, in a stable order. */
export const scopedKinds = Object.keys(windowInvokeScopes) as ScopedWindowKind[];
/** The first window kind whose scope allows `channel` (settings first: the widest). */
export function kindFor(channel: InvokeChannel): ScopedWindowKind {
  const kind = (['settings', ...scopedKinds] as ScopedWindowKind[]).find((k) => (windowInvokeScopes[k] as readonly string[]).includes(channel));
  if (kind === undefined) throw new Error(`no window may call ${channel}: give it a scope in src/shared/ipc/window-scopes.ts`);
  return kind;
}

/** Everything a test needs to call the stack and check what it did. */
export interface IpcHarness {
  readonly dataDir: string;
  readonly dispatcher: IpcDispatcher;
  readonly config: ConfigStore;
  readonly secrets: SecretStore;
  readonly history: HistoryService;
  readonly trusted: TrustedSenders;
  /** The Settings window. */
  readonly trustedSender: IpcSender;
  /** A trusted window whose scope allows `channel`. */
  senderFor(channel: InvokeChannel): IpcSender;
  /** The trusted window of `kind`. */
  senderOf(kind: ScopedWindowKind): IpcSender;
  readonly opened: string[];
  readonly logsOpened: { count: number };
  readonly logLines: { level: string; message: string; fields?: unknown }[];
  cleanup(): Promise<void>;
}

/** Opens the real stores in a fresh temp folder and builds the dispatcher with the real handlers. */
export async function openHarness(): Promise<IpcHarness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-'));
  const config = await ConfigStore.open({ dataDir });
  const secrets = await SecretStore.open({
    file: path.join(dataDir, 'secrets.json'),
    safeStorage: fakeSafeStorage,
    plaintextConsent: false,
    platform: 'linux',
  });
  // The real history service (JSONL + SQLite index) in the same temp folder, index built inline.
  const history = await HistoryService.open({ dataDir, enabled: true, rebuildInline: true, warn: () => {} });
  const opened: string[] = [];
  const logsOpened = { count: 0 };
  const app: AppService = {
    version: '0.1.0',
    platform: process.platform,
    dataDir,
    uiLanguage: () => 'en',
    openExternal: async (url) => {
      opened.push(url);
    },
    openLogs: async () => {
      logsOpened.count += 1;
    },
    copyText: () => undefined,
  };
  const trusted = new TrustedSenders({ rendererDir });
  // One trusted window per kind (Settings is id 7), each on its own page, so every call goes through its scope.
  const windows = new Map<ScopedWindowKind, IpcSender>();
  scopedKinds.forEach((kind, i) => {
    const id = kind === 'settings' ? 7 : 100 + i;
    trusted.add(new FakeContents(id), kind);
    windows.set(kind, { id, frameUrl: `app://tingxie/${kind}/index.html` });
  });
  const senderOf = (kind: ScopedWindowKind): IpcSender => windows.get(kind)!;
  const logLines: IpcHarness['logLines'] = [];
  const dispatcher = createIpcDispatcher({
    contract: ipcContract,
    handlers: createHandlers({ config, secrets, app, history: historyApiOf(history) }),
    isTrustedSender: trusted.isTrustedSender,
    scopeOf: trusted.scopeOf,
    log: {
      warn: (message, fields) => logLines.push({ level: 'warn', message, fields }),
      error: (message, fields) => logLines.push({ level: 'error', message, fields }),
    },
  });
  return {
    dataDir,
    dispatcher,
    config,
    secrets,
    history,
    trusted,
    trustedSender: senderOf('settings'),
    senderFor: (channel) => senderOf(kindFor(channel)),
    senderOf,
    opened,
    logsOpened,
    logLines,
    cleanup: async () => {
      await history.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
