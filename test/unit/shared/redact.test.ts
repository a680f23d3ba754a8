import { afterEach, describe, expect, it } from 'vitest';
import { credentialPathIn, forgetRememberedSecrets, holdsCredential, isCredentialName, redact, rememberSecret, urlHoldsCredential } from '../../../src/shared/redact.ts';

afterEach(() => forgetRememberedSecrets());

describe('redact: one function for every text a provider can send back', () => {
  it('removes the given keys, whole and by their tail', () => {
    const key = 'k3y-THAT-HAS-NO-KNOWN-SHAPE-98765';
    expect(redact(`bad key ${key}.`, [key])).toBe('bad key ***.');
    expect(redact(`ends with …${key.slice(-8)}`, [key])).toBe('ends with …***');
  });

  it('removes every key the secret store remembered, without being told', () => {
    rememberSecret('plain-looking-value-12345');
    expect(redact('echo: plain-looking-value-12345')).toBe('echo: ***');
    rememberSecret('lm-studio'); // too short to be a secret: messages naming ollama stay readable
    expect(redact('cannot reach lm-studio')).toBe('cannot reach lm-studio');
  });

  it.each([
    ['Incorrect API key provided: sk-proj-abcDEF1234567890xyz', 'Incorrect API key provided: ***'],
    ['key sk-abcdefghijklmnopqrstuv rejected', 'key *** rejected'],
    ['Authorization: Bearer abc.def-ghi_jkl', 'Authorization: Bearer ***'],
    ['GET https://api.x.com/v1/models?key=AbC123secret&alt=json failed', 'GET https://api.x.com/v1/models?key=***&alt=json failed'],
    ['POST /v1?api_key=zzzzzzzz', 'POST /v1?api_key=***'],
    ['cannot reach https://me:hunter22@host.example/v1', 'cannot reach https://***@host.example/v1'],
    ['{"api_key": "abcdefgh12345", "model": "x"}', '{"api_key": "***", "model": "x"}'],
    ['x-api-key: abcdefgh12345', 'x-api-key: ***'],
    ['groq gsk_abcdefghijklmnopqrstu and google AIzaSyA1234567890abcdefghijklmnopqrstu', 'groq *** and google ***'],
  ])('%s', (input, output) => {
    expect(redact(input)).toBe(output);
    expect(redact(output)).toBe(output); // idempotent
  });

  it('leaves ordinary text alone', () => {
    for (const t of ['max_tokens: 100', 'prompt_cache_key=abc', 'http://localhost:11434/v1', 'task-manager-is-a-long-word', 'HTTP 404: model not found']) {
      expect(redact(t)).toBe(t);
    }
  });
});

describe('credential names and places', () => {
  it('names', () => {
    for (const n of ['api_key', 'apiKey', 'x-api-key', 'key', 'access_token', 'Authorization', 'client_secret', 'password', 'X-Goog-Api-Key', 'bearer_token']) expect(isCredentialName(n), n).toBe(true);
    for (const n of ['max_tokens', 'prompt_cache_key', 'idempotency_key', 'top_k', 'model', 'keychain', 'thinking']) expect(isCredentialName(n), n).toBe(false);
  });

  it('URLs', () => {
    expect(urlHoldsCredential('https://user:KEY@api.example.com/v1')).toBe(true);
    expect(urlHoldsCredential('https://TOKEN@api.example.com/v1')).toBe(true);
    expect(urlHoldsCredential('https://api.example.com/v1?key=abc')).toBe(true);
    expect(urlHoldsCredential('https://api.example.com/v1?api-version=2024')).toBe(false);
    expect(urlHoldsCredential('https://api.deepseek.com/v1')).toBe(false);
    expect(urlHoldsCredential('http://localhost:11434/v1')).toBe(false);
  });

  it('request fields', () => {
    expect(credentialPathIn({ top_p: 0.9, thinking: { type: 'disabled' }, max_tokens: 10 })).toBeNull();
    expect(credentialPathIn({ headers: { 'X-Api-Key': 'v' } })).toBe('headers.X-Api-Key');
    expect(credentialPathIn({ auth: { token: 'v' } })).toBe('auth');
    expect(credentialPathIn({ note: 'Bearer abcdefgh' })).toBe('note');
    expect(credentialPathIn({ list: ['ok', 'sk-abcdefghijklmnopqrst'] })).toBe('list.1');
    expect(holdsCredential('nothing here')).toBe(false);
  });
});
