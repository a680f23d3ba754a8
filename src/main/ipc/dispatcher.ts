/**
 * The main-side IPC wrapper, pure (no electron): for every call it checks the channel, the sender, the
 * sender window's scope (window-scopes.ts) and the payload (size guard, then the contract's zod schema)
 * before a handler runs, and turns every
 * outcome, including a throwing handler, into an envelope. `dispatch` never throws.
 */
import type { z } from 'zod';
import type { BridgeIssue, Envelope } from '../../shared/ipc/bridge-types.ts';
import type { InvokeChannel } from '../../shared/ipc/channels.ts';
import type { ChannelSpec, RequestOf, ResponseOf } from '../../shared/ipc/contract.ts';
import { failure } from '../../shared/ipc/envelope.ts';
import { formatPath, inspectJson } from '../../shared/ipc/json-value.ts';
import { IpcPayloadError } from './errors.ts';

/** Who sent a call: the webContents id and the URL of the frame it came from. */
export interface IpcSender {
  readonly id: number;
  readonly frameUrl: string;
}

/** What a handler gets besides its validated request. */
export interface HandlerContext {
  readonly channel: InvokeChannel;
  readonly sender: IpcSender;
}

/** One handler per channel, receiving the parsed request. */
export type IpcHandlers = {
  readonly [C in InvokeChannel]: (request: RequestOf<C>, context: HandlerContext) => Promise<ResponseOf<C>> | ResponseOf<C>;
};

/** The part of the main logger the dispatcher uses (src/main/platform/logger.ts's Logger fits). */
export interface IpcLog {
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** Limits applied before the schema sees a payload. */
export interface DispatchLimits {
  /** Approximate serialized size above which a payload is refused unparsed. */
  readonly maxPayloadBytes: number;
  /** Nesting depth above which a payload is refused unparsed. */
  readonly maxPayloadDepth: number;
}

/** 1 MB and 40 levels: far above any real request, low enough that checking costs nothing. */
export const defaultDispatchLimits: DispatchLimits = { maxPayloadBytes: 1024 * 1024, maxPayloadDepth: 40 };

/** What a trusted sender's window may call: its kind and that kind's invoke channels. */
export interface SenderScope {
  readonly kind: string;
  readonly mayCall: (channel: InvokeChannel) => boolean;
}

/** Options of {@link createIpcDispatcher}. */
export interface IpcDispatcherOptions {
  readonly contract: { readonly [C in InvokeChannel]: ChannelSpec };
  readonly handlers: IpcHandlers;
  readonly isTrustedSender: (sender: IpcSender) => boolean;
  /**
   * The scope of a trusted sender's window (TrustedSenders.scopeOf). A call outside it, or from a sender
   * without a known scope, is refused as `out-of-scope` before its payload is even looked at.
   */
  readonly scopeOf: (sender: IpcSender) => SenderScope | undefined;
  readonly log: IpcLog;
  readonly limits?: DispatchLimits;
}

/** The dispatcher: one entry point for every call. */
export interface IpcDispatcher {
  /** The channels it serves (what register.ts hands to ipcMain). */
  readonly channels: readonly InvokeChannel[];
  /** Runs one call through every check; resolves to an envelope and never rejects. */
  dispatch(channel: string, sender: IpcSender, payload: unknown): Promise<Envelope<unknown>>;
}

const maxIssues = 20;

function readableIssues(error: z.ZodError): BridgeIssue[] {
  return error.issues.slice(0, maxIssues).map((issue) => ({
    path: formatPath(issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))),
    message: issue.message,
  }));
}

/** The validator's code and bounds of an issue, only when well-typed (they cross IPC). */
function issueDetail(i: BridgeIssue): Omit<BridgeIssue, 'path' | 'message'> {
  const word = (v: unknown) => (typeof v === 'string' && /^[a-z_]{1,40}$/.test(v) ? v : undefined);
  const out: { code?: string; origin?: string; limit?: number; inclusive?: boolean; expected?: string } = {};
  if (word(i.code) !== undefined) out.code = word(i.code);
  if (word(i.origin) !== undefined) out.origin = word(i.origin);
  if (word(i.expected) !== undefined) out.expected = word(i.expected);
  if (typeof i.limit === 'number' && Number.isFinite(i.limit)) out.limit = i.limit;
  if (typeof i.inclusive === 'boolean') out.inclusive = i.inclusive;
  return out;
}

function summary(channel: string, issues: readonly BridgeIssue[]): string {
  const parts = issues.slice(0, 3).map((i) => (i.path === '(root)' ? i.message : `${i.path}: ${i.message}`));
  const more = issues.length > 3 ? ` (+${issues.length - 3} more)` : '';
  return `Invalid payload for ${channel}: ${parts.join('; ')}${more}`;
}

function messageOf(error: unknown): string {
  if (error instanceof Error && error.message !== '') return error.message;
  if (typeof error === 'string' && error !== '') return error;
  return 'unknown error';
}

function safeMessage(error: unknown): string {
  try {
    return messageOf(error);
  } catch {
    return 'unprintable error';
  }
}

// Messages are bounded: a handler error could quote a huge value back (e.g. an invalid 1 MB string).
function clip(text: string, max = 2000): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function describeSender(sender: unknown): Record<string, unknown> {
  if (typeof sender !== 'object' || sender === null) return { sender: String(sender) };
  const s = sender as { id?: unknown; frameUrl?: unknown };
  return { senderId: s.id, frameUrl: typeof s.frameUrl === 'string' ? clip(s.frameUrl, 300) : s.frameUrl };
}

type SafeLog = (level: 'warn' | 'error', message: string, fields: Record<string, unknown>) => void;

/** The log, made unable to throw: logging must never turn a refused call into a crash. */
function safeLogOf(log: IpcLog): SafeLog {
  return (level, message, fields) => {
    try {
      log[level](message, fields);
    } catch {
      // Logging must never turn a refused call into a crash.
    }
  };
}

/** The refusal of a call from an untrusted sender or outside its window's scope; null when the sender may make it. */
function refuseSender(options: IpcDispatcherOptions, safeLog: SafeLog, ch: InvokeChannel, sender: IpcSender): Envelope<never> | null {
  let trusted = false;
  try {
    trusted = options.isTrustedSender(sender);
  } catch (error) {
    safeLog('error', 'IPC sender check failed', { channel: ch, error: safeMessage(error) });
  }
  if (!trusted) {
    // Electron security checklist item 17: only our own windows may call main.
    safeLog('warn', 'IPC call from an untrusted sender refused', { channel: ch, ...describeSender(sender) });
    return failure('untrusted-sender', `${ch} refused: the call did not come from a Tingxie window`);
  }

  // Per-window scope: a trusted window may still call only what its job needs
  // (src/shared/ipc/window-scopes.ts): the indicator and capture windows cannot store a key or delete history.
  let scope: SenderScope | undefined;
  try {
    scope = options.scopeOf(sender);
  } catch (error) {
    safeLog('error', 'IPC scope lookup failed', { channel: ch, error: safeMessage(error) });
  }
  if (scope === undefined || !scope.mayCall(ch)) {
    const kind = scope?.kind ?? 'unknown';
    safeLog('warn', 'IPC call outside the window\'s scope refused', { channel: ch, windowKind: kind, ...describeSender(sender) });
    return failure('out-of-scope', `${ch} refused: the ${kind} window may not call it`);
  }
  return null;
}

/** The payload checked by the size and shape guard, then parsed by the channel's schema; or the refusal. */
function parsePayload(
  contract: IpcDispatcherOptions['contract'],
  limits: DispatchLimits,
  ch: InvokeChannel,
  payload: unknown,
): { readonly ok: true; readonly data: unknown } | { readonly ok: false; readonly refusal: Envelope<never> } {
  // Size and shape guard before zod: refuses huge or deeply nested payloads without walking them fully.
  const problem = inspectJson(payload, {
    maxBytes: limits.maxPayloadBytes,
    maxDepth: limits.maxPayloadDepth,
    allowUndefinedRoot: true,
  });
  if (problem) {
    const where = formatPath(problem.path);
    const issues = [{ path: where, message: problem.message }];
    const subject = where === '(root)' ? 'the payload' : where;
    return { ok: false, refusal: failure('invalid-payload', `Invalid payload for ${ch}: ${subject} ${problem.message}`, issues) };
  }

  const parsed = contract[ch].request.safeParse(payload);
  if (!parsed.success) {
    const issues = readableIssues(parsed.error);
    return { ok: false, refusal: failure('invalid-payload', summary(ch, issues), issues) };
  }
  return { ok: true, data: parsed.data };
}

/** Runs the channel's handler on the parsed request; a throw becomes an envelope, its stack goes to the log only. */
async function runHandler(handlers: IpcHandlers, safeLog: SafeLog, ch: InvokeChannel, sender: IpcSender, data: unknown): Promise<Envelope<unknown>> {
  const handler = handlers[ch] as (request: unknown, context: HandlerContext) => unknown;
  try {
    const value = await handler(data, { channel: ch, sender });
    return { ok: true, value };
  } catch (error) {
    if (error instanceof IpcPayloadError) {
      // The code and bounds go along (clipped, typed) so the window can say the problem in its language.
      const issues = error.issues.slice(0, maxIssues).map((i) => ({ ...issueDetail(i), path: clip(i.path, 300), message: clip(i.message, 500) }));
      return failure('invalid-payload', clip(`${ch}: ${error.message}`), issues);
    }
    // The message goes back to the renderer, the stack only into the log.
    safeLog('error', 'IPC handler failed', {
      channel: ch,
      error: safeMessage(error),
      stack: error instanceof Error ? error.stack : undefined,
    });
    return failure('handler-failed', clip(`${ch} failed: ${safeMessage(error)}`));
  }
}

/** Creates the dispatcher over the contract and one handler per channel. */
export function createIpcDispatcher(options: IpcDispatcherOptions): IpcDispatcher {
  const { contract, handlers } = options;
  const limits = options.limits ?? defaultDispatchLimits;
  const channels = Object.keys(contract) as InvokeChannel[];
  const known: ReadonlySet<string> = new Set(channels);
  const safeLog = safeLogOf(options.log);

  const run = async (channel: string, sender: IpcSender, payload: unknown): Promise<Envelope<unknown>> => {
    if (typeof channel !== 'string' || !known.has(channel)) {
      const name = typeof channel === 'string' ? clip(channel, 100) : typeof channel;
      safeLog('warn', 'IPC call on an unknown channel', { channel: name, ...describeSender(sender) });
      return failure('unknown-channel', `Unknown IPC channel: ${JSON.stringify(name)}`);
    }
    const ch = channel as InvokeChannel;
    const refusal = refuseSender(options, safeLog, ch, sender);
    if (refusal) return refusal;
    const parsed = parsePayload(contract, limits, ch, payload);
    if (!parsed.ok) return parsed.refusal;
    return runHandler(handlers, safeLog, ch, sender, parsed.data);
  };

  return {
    channels,
    dispatch: async (channel, sender, payload) => {
      try {
        return await run(channel, sender, payload);
      } catch (error) {
        // Only reachable through truly exotic input (e.g. a Proxy whose traps throw); still an envelope.
        const name = typeof channel === 'string' ? clip(channel, 100) : typeof channel;
        safeLog('error', 'IPC dispatch failed unexpectedly', { channel: name, error: safeMessage(error) });
        return failure('invalid-payload', `${name} refused: the payload could not be inspected`);
      }
    },
  };
}
