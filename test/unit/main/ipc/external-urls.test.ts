import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl } from '../../../../src/main/ipc/external-urls.ts';

describe('isAllowedExternalUrl', () => {
  it('allows https links to listed hosts and their subdomains', () => {
    for (const url of ['https://github.com/x/y', 'https://huggingface.co/ggerganov/whisper.cpp', 'https://platform.openai.com/api-keys', 'https://GITHUB.com/']) {
      expect(isAllowedExternalUrl(url), url).toBe(true);
    }
  });
  it('refuses everything else', () => {
    for (const url of [
      'http://github.com/',
      'file:///etc/passwd',
      'javascript:alert(1)',
      'data:text/html,x',
      'https://evil.example/',
      'https://github.com.evil.example/',
      'https://evilgithub.com/',
      'https://user:pw@github.com/',
      'https://github.com:8443/',
      'github.com',
      '',
      `https://github.com/${'a'.repeat(3000)}`,
    ]) {
      expect(isAllowedExternalUrl(url), url).toBe(false);
    }
  });
});
