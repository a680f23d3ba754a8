/** Errors a handler may throw to shape the refusal the renderer sees. */
import type { BridgeIssue } from '../../shared/ipc/bridge-types.ts';

/**
 * The payload passed the contract's schema but the service rejected it (e.g. a config value of the
 * wrong type for its key): reported as `invalid-payload` with the service's issues, not `handler-failed`.
 */
export class IpcPayloadError extends Error {
  override readonly name = 'IpcPayloadError';
  readonly issues: readonly BridgeIssue[];
  constructor(message: string, issues: readonly BridgeIssue[] = []) {
    super(message);
    this.issues = issues;
  }
}
