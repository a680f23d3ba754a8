/**
 * The one Content-Security-Policy of every Tingxie window. Main sends it as a response header and
 * each renderer HTML entry carries it in a `<meta http-equiv>` tag, so a page stays locked down even
 * if one of the two is missing. No 'unsafe-inline' or 'unsafe-eval': the built renderer loads only
 * its own bundled scripts and stylesheets (test/unit/renderer/csp.test.ts checks the HTML; the
 * browser tests check that real Chromium reports no violation).
 *
 * `media-src blob: mediastream:` and `worker-src blob:` are for the capture window (getUserMedia
 * streams and the AudioWorklet module); `img-src data:` for small inline icons.
 */

/** Directive → sources, in the order they appear in the policy string. */
export const CSP_DIRECTIVES: readonly (readonly [directive: string, sources: string])[] = [
  ['default-src', "'none'"],
  ['script-src', "'self'"],
  ['style-src', "'self'"],
  ['img-src', "'self' data:"],
  ['font-src', "'self'"],
  ['connect-src', "'self'"],
  ['media-src', "'self' blob: mediastream:"],
  ['worker-src', "'self' blob:"],
  ['base-uri', "'none'"],
  ['form-action', "'none'"],
  ['frame-ancestors', "'none'"],
];

/**
 * Directives the CSP spec ignores inside a `<meta>` tag. Chromium logs a console *error* for each
 * one it finds there, so the meta copy leaves them out; the header (which main sends) keeps them.
 */
export const HEADER_ONLY_CSP_DIRECTIVES: readonly string[] = ['frame-ancestors'];

const join = (entries: readonly (readonly [string, string])[]): string => entries.map(([d, s]) => `${d} ${s}`).join('; ');

/** The full policy: main sends it as the `Content-Security-Policy` response header. */
export const CONTENT_SECURITY_POLICY: string = join(CSP_DIRECTIVES);

/** The same policy minus header-only directives: what every renderer HTML entry carries in its meta tag. */
export const META_CONTENT_SECURITY_POLICY: string = join(
  CSP_DIRECTIVES.filter(([d]) => !HEADER_ONLY_CSP_DIRECTIVES.includes(d)),
);

/**
 * Development only (`npm run dev`, never a build): Vite's React refresh preamble is an inline script,
 * its dev CSS is injected as inline styles, and hot reload talks over a websocket. Everything else
 * stays as strict as the production policy.
 */
export const DEV_CONTENT_SECURITY_POLICY: string = join(
  CSP_DIRECTIVES.map(([d, s]): readonly [string, string] => {
    if (d === 'script-src' || d === 'style-src') return [d, `${s} 'unsafe-inline'`];
    if (d === 'connect-src') return [d, `${s} ws: http://localhost:* http://127.0.0.1:*`];
    return [d, s];
  }).filter(([d]) => !HEADER_ONLY_CSP_DIRECTIVES.includes(d)),
);
