import { afterEach, describe, expect, it } from 'vitest';
import { formatLine } from '../../../../src/main/platform/logger.ts';
import { forgetRememberedSecrets, rememberSecret } from '../../../../src/shared/redact.ts';

/* API keys stay out of the log, one of the places provider text lands: the shared redaction runs on every line. */

afterEach(() => forgetRememberedSecrets());

describe('logger: no key reaches main.log', () => {
  const when = new Date('2025-01-01T00:00:00Z');

  it('removes stored keys and credential-shaped text from the message and the fields, in both formats', () => {
    rememberSecret('stored-key-0123456789xyz');
    const err = new Error('401 Invalid key stored-key-0123456789xyz');
    for (const format of ['json', 'text'] as const) {
      const line = formatLine(format, when, 'warn', 'enhance', 'provider said: Bearer abcdefghijk', {
        error: err,
        url: 'https://user:pass1234@api.example.com/v1?api_key=qqqqqqqq',
        detail: '{"error":"bad key sk-proj-abcdefghijklmnop1234"}',
      });
      expect(line).not.toContain('stored-key-0123456789xyz');
      expect(line).not.toContain('abcdefghijk');
      expect(line).not.toContain('pass1234');
      expect(line).not.toContain('qqqqqqqq');
      expect(line).not.toContain('sk-proj-abcdefghijklmnop1234');
      expect(line).toContain('api.example.com');
      if (format === 'json') expect(() => JSON.parse(line)).not.toThrow();
    }
  });
});
