/** Vite's `?url` import of a sound file: its URL in the built renderer. */
declare module '*.wav?url' {
  const url: string;
  export default url;
}
