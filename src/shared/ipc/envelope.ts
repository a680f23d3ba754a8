/** Runtime helpers around the envelope: recognising it and turning a failed one into a rejection. */
import type { BridgeError, BridgeErrorCode, BridgeIssue, Envelope } from './bridge-types.ts';

const codes: ReadonlySet<string> = new Set<BridgeErrorCode>([
  'invalid-payload',
  'untrusted-sender',
  'out-of-scope',
  'unknown-channel',
  'handler-failed',
]);

/** The error a bridge call rejects with: the main side's code, message and payload issues. */
export class BridgeCallError extends Error implements BridgeError {
  override readonly name = 'BridgeCallError';
  readonly code: BridgeErrorCode;
  readonly issues?: readonly BridgeIssue[];
  constructor(error: BridgeError) {
    super(error.message);
    this.code = error.code;
    if (error.issues) this.issues = error.issues;
  }
}

/** Whether a value is a {@link BridgeCallError} (also across realms, where `instanceof` fails). */
export function isBridgeCallError(value: unknown): value is BridgeCallError {
  return value instanceof Error && 'code' in value && typeof value.code === 'string' && codes.has(value.code);
}

function isIssueList(value: unknown): value is readonly BridgeIssue[] {
  return (
    Array.isArray(value) &&
    value.every((i: unknown) => typeof i === 'object' && i !== null && 'path' in i && 'message' in i && typeof i.path === 'string' && typeof i.message === 'string')
  );
}

/** Whether `value` has the envelope shape (a malformed reply is treated as a failure, never trusted). */
export function isEnvelope(value: unknown): value is Envelope<unknown> {
  if (typeof value !== 'object' || value === null || !('ok' in value)) return false;
  if (value.ok === true) return 'value' in value;
  if (value.ok !== false || !('error' in value)) return false;
  const error = value.error;
  return (
    typeof error === 'object' &&
    error !== null &&
    'code' in error &&
    typeof error.code === 'string' &&
    codes.has(error.code) &&
    'message' in error &&
    typeof error.message === 'string' &&
    (!('issues' in error) || error.issues === undefined || isIssueList(error.issues))
  );
}

/** The value of a successful envelope; throws a {@link BridgeCallError} for a failed or malformed one. */
export function unwrapEnvelope<T>(envelope: unknown, channel: string): T {
  if (!isEnvelope(envelope)) {
    throw new BridgeCallError({ code: 'handler-failed', message: `${channel}: malformed reply from the main process` });
  }
  if (envelope.ok) return envelope.value as T;
  throw new BridgeCallError(envelope.error);
}

/** A failed envelope (helper for the dispatcher and transports). */
export function failure(code: BridgeErrorCode, message: string, issues?: readonly BridgeIssue[]): Envelope<never> {
  return { ok: false, error: issues && issues.length > 0 ? { code, message, issues } : { code, message } };
}
