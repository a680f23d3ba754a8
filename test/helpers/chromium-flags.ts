/**
 * Chromium flags every test browser starts with: no sandbox (containers), no GPU, and
 * nothing that phones home — this machine's closed network refuses those connections many at a time.
 * Shared by the browser harness and the electron stand-in's runtime.
 */
export const CHROMIUM_TEST_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-gpu',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-quic',
];
