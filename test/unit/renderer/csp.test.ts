import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { CONTENT_SECURITY_POLICY, DEV_CONTENT_SECURITY_POLICY, META_CONTENT_SECURITY_POLICY } from '../../../src/shared/csp.ts';
import config, { rendererEntries } from '../../../electron.vite.config.ts';

const rendererRoot = path.resolve(import.meta.dirname, '../../../src/renderer');

/** Every `<meta http-equiv="Content-Security-Policy" content="…">` value in an HTML text. */
function metaPolicies(html: string): string[] {
  const tags = html.match(/<meta\b[^>]*>/gi) ?? [];
  return tags
    .filter((tag) => /http-equiv\s*=\s*"content-security-policy"/i.test(tag))
    .map((tag) => /content\s*=\s*"([^"]*)"/i.exec(tag)?.[1] ?? '');
}

describe('content security policy', () => {
  it('is the strict policy of the design, with no unsafe-inline or unsafe-eval', () => {
    expect(CONTENT_SECURITY_POLICY).toBe(
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; " +
        "connect-src 'self'; media-src 'self' blob: mediastream:; worker-src 'self' blob:; base-uri 'none'; " +
        "form-action 'none'; frame-ancestors 'none'",
    );
    expect(CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-|\*/);
  });

  it('meta copy is the header minus frame-ancestors (ignored, and logged as an error, in a meta tag)', () => {
    expect(`${META_CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`).toBe(CONTENT_SECURITY_POLICY);
  });

  it.each(rendererEntries)('the %s entry carries exactly that policy and no inline script or style', (name) => {
    const html = readFileSync(path.join(rendererRoot, name, 'index.html'), 'utf8');
    expect(metaPolicies(html)).toEqual([META_CONTENT_SECURITY_POLICY]);
    // Inline code would be blocked by the policy anyway; catching it here gives a clearer failure.
    for (const script of html.match(/<script\b[^>]*>/gi) ?? []) expect(script).toMatch(/\bsrc\s*=/i);
    expect(html).not.toMatch(/<style\b/i);
    expect(html).not.toMatch(/\sstyle\s*=/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('is relaxed only by the dev-server plugin, and only for inline dev scripts/styles and HMR', () => {
    const plugins = (config as { renderer?: { plugins?: unknown[] } }).renderer?.plugins ?? [];
    const devCsp = plugins.flat().find((p): p is Plugin => (p as Plugin | null)?.name === 'tingxie-dev-csp');
    expect(devCsp?.apply).toBe('serve');
    const html = readFileSync(path.join(rendererRoot, 'settings', 'index.html'), 'utf8');
    const transform = devCsp?.transformIndexHtml as (html: string) => string;
    expect(metaPolicies(transform(html))).toEqual([DEV_CONTENT_SECURITY_POLICY]);
    expect(DEV_CONTENT_SECURITY_POLICY).not.toMatch(/unsafe-eval/);
    expect(DEV_CONTENT_SECURITY_POLICY).toContain("default-src 'none'");
  });
});
