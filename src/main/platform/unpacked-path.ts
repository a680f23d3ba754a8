/*
 * In a packaged app, modules load from resources/app.asar, so a path computed from a module
 * (require.resolve, import.meta.dirname) points into that archive. Electron's patched fs and dlopen read
 * such paths, but native code opening a file itself (sherpa-onnx loading the Silero model, whisper.cpp)
 * sees app.asar as a plain file and fails. electron-builder.yml's asarUnpack puts those files in
 * resources/app.asar.unpacked at the same relative path; every path handed to native code goes through
 * here first. Outside a packaged app there is no app.asar segment and the path is returned unchanged.
 */

// The archive as a path segment (followed by a separator); `app.asar.unpacked/` does not match.
const ARCHIVE_SEGMENT = /([\\/])app\.asar(?=[\\/])/;

/** The on-disk path native code can open for a file shipped with the app (`app.asar/x` → `app.asar.unpacked/x`). */
export function unpackedPath(p: string): string {
  return p.replace(ARCHIVE_SEGMENT, '$1app.asar.unpacked');
}
