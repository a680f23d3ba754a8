/*
 * Where every built Tingxie page is served from: `app://tingxie/` (the protocol itself is
 * src/main/app/app-protocol.ts). Kept here so the IPC layer can check a sender's URL without importing
 * the app layer above it (docs/dev/ARCHITECTURE.md, "Dependency direction").
 */

/** The scheme of our pages. */
export const APP_SCHEME = 'app';
/** The one host under it: the built renderer folder. */
export const APP_HOST = 'tingxie';
/** The origin of every built page (`'self'` in the CSP). */
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;
