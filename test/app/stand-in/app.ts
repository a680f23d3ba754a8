/**
 * `app`: lifecycle as Electron documents it — `whenReady` once the browser is up, `before-quit`
 * (preventable) → windows closed → `will-quit` → `quit` → exit 0; `exit(code)` at once. The
 * single-instance lock is a Unix socket in userData, as Electron's ProcessSingleton on Linux: the
 * second instance connects, hands over its argv, and gets `false`; the first emits `second-instance`.
 */
import { spawnSync } from 'node:child_process';
import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { StandInBrowserWindow, contentsCreated } from './browser-window.ts';
import { appPath, browserContext, closeBrowser, record, standInEnv } from './runtime.ts';
import { strict } from './strict.ts';

const paths = new Map<string, string>([
  ['home', os.homedir()],
  ['appData', process.env.XDG_CONFIG_HOME ?? path.join(os.homedir(), '.config')],
  ['temp', os.tmpdir()],
  ['exe', process.execPath],
]);
paths.set('userData', path.join(paths.get('appData') ?? '', 'tingxie'));

/**
 * `app.commandLine`: Chromium's switches as Electron exposes them. A switch's last value wins (as in
 * base::CommandLine); one appended after 'ready' is recorded as late, because Chromium has read its
 * switches by then and Electron documents it has no effect.
 */
class StandInCommandLine {
  private readonly switches = new Map<string, string>();
  private readonly isReady: () => boolean;
  constructor(isReady: () => boolean) {
    this.isReady = isReady;
  }
  appendSwitch(name: string, value?: string): void {
    if (typeof name !== 'string' || name === '') throw new TypeError('Error processing argument at index 0, conversion failure');
    this.switches.set(name, value ?? '');
    if (this.isReady()) record.lateSwitches.push(name);
    record.switches[name] = value ?? '';
  }
  appendArgument(value: string): void {
    record.arguments.push(value);
  }
  hasSwitch(name: string): boolean {
    return this.switches.has(name);
  }
  getSwitchValue(name: string): string {
    return this.switches.get(name) ?? '';
  }
  removeSwitch(name: string): void {
    this.switches.delete(name);
    delete record.switches[name];
  }
}

class StandInApp extends EventEmitter {
  readonly isPackaged = standInEnv.packaged;
  readonly commandLine = strict('app.commandLine', new StandInCommandLine(() => this.ready));
  /** Linux has no dock. */
  readonly dock = undefined;
  private ready = false;
  private readyPromise: Promise<void>;
  private quitting = false;
  private lockServer: net.Server | null = null;
  private lockPath = '';

  constructor() {
    super();
    this.readyPromise = browserContext().then(() => {
      this.ready = true;
      this.emit('ready');
    });
    contentsCreated.on('created', (contents) => this.emit('web-contents-created', { preventDefault: () => undefined }, contents));
  }

  whenReady(): Promise<void> {
    return this.readyPromise;
  }
  isReady(): boolean {
    return this.ready;
  }
  getPath(name: string): string {
    const p = paths.get(name === 'sessionData' && !paths.has('sessionData') ? 'userData' : name);
    if (p === undefined) throw new Error(`Failed to get '${name}' path`);
    return p;
  }
  setPath(name: string, value: string): void {
    paths.set(name, value);
  }
  getAppPath(): string {
    return appPath();
  }
  getVersion(): string {
    return (JSON.parse(fs.readFileSync(path.join(appPath(), 'package.json'), 'utf8')) as { version: string }).version;
  }
  getName(): string {
    return (JSON.parse(fs.readFileSync(path.join(appPath(), 'package.json'), 'utf8')) as { productName?: string; name: string }).productName ?? 'Electron';
  }
  getLocale(): string {
    return standInEnv.locale;
  }
  getPreferredSystemLanguages(): string[] {
    return [standInEnv.locale];
  }
  setLoginItemSettings(settings: unknown): void {
    record.loginItems.push(settings);
  }

  /** Synchronous, as Electron's: false when another instance holds userData. */
  requestSingleInstanceLock(): boolean {
    const dir = this.getPath('userData');
    fs.mkdirSync(dir, { recursive: true });
    this.lockPath = path.join(dir, 'SingletonSocket');
    if (fs.existsSync(this.lockPath) && handOver(this.lockPath)) return false;
    fs.rmSync(this.lockPath, { force: true });
    this.lockServer = net.createServer((socket) => {
      let data = '';
      socket.on('data', (c) => (data += c.toString()));
      socket.on('end', () => {
        socket.end('ACK');
        const argv = data === '' ? [] : (JSON.parse(data) as string[]);
        this.emit('second-instance', { preventDefault: () => undefined }, argv, process.cwd(), {});
      });
    });
    this.lockServer.listen(this.lockPath);
    this.lockServer.unref();
    return true;
  }

  quit(): void {
    if (this.quitting) return;
    let prevented = false;
    this.emit('before-quit', { preventDefault: () => (prevented = true) });
    if (prevented) return;
    this.quitting = true;
    for (const w of StandInBrowserWindow.getAllWindows()) w.close();
    this.emit('will-quit', { preventDefault: () => undefined });
    this.emit('quit', { preventDefault: () => undefined }, 0);
    void this.shutdown(0);
  }

  exit(code = 0): void {
    void this.shutdown(code);
  }

  private async shutdown(code: number): Promise<void> {
    this.lockServer?.close();
    if (this.lockServer !== null) fs.rmSync(this.lockPath, { force: true });
    await closeBrowser();
    process.exit(code);
  }
}

/**
 * Tries to hand this instance's argv to a running one over its socket (synchronously, as the lock call
 * is): true when one answered. A stale socket left by a killed process does not answer.
 */
function handOver(socketPath: string): boolean {
  const script = `const s=require('net').connect(${JSON.stringify(socketPath)});s.on('connect',()=>s.end(${JSON.stringify(JSON.stringify(process.argv))}));s.on('data',()=>process.exit(0));s.on('error',()=>process.exit(1));setTimeout(()=>process.exit(1),3000);`;
  return spawnSync(process.execPath, ['-e', script], { stdio: 'ignore' }).status === 0;
}

/** The `app` the app imports. */
export const app = strict('app', new StandInApp());
