/** Host and port of a base URL for messages (no path, no credentials); "the server" when it is not a URL. */
export function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).host;
  } catch {
    return 'the server';
  }
}
