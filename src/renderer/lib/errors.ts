import { isBridgeCallError } from '../../shared/ipc/envelope.ts';

/**
 * The text to show at a field for a failed bridge call: the validation messages when main returned
 * issues (config:set reports the rejected field there), otherwise the error message.
 */
export function errorText(error: unknown): string {
  if (isBridgeCallError(error) && error.issues && error.issues.length > 0) {
    return [...new Set(error.issues.map((i) => i.message))].join('; ');
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
