/**
 * The allow-list for links Tingxie hands to the system browser (`app:open-external`, and links a page
 * tries to open, via the window factory). Only https, no credentials, default port, and a host from
 * the list (or a subdomain of one). Pure, so the shell helper's window policy can reuse it.
 */

/** Hosts whose pages Tingxie links to: the project, model downloads, and the usual API providers' consoles. */
export const allowedExternalHosts: readonly string[] = [
  'github.com',
  'huggingface.co',
  'openai.com',
  'deepseek.com',
  'groq.com',
  'anthropic.com',
  'ollama.com',
  'openrouter.ai',
  'siliconflow.cn',
  'aliyun.com',
  'moonshot.cn',
];

/** Whether `url` may be opened in the system browser. */
export function isAllowedExternalUrl(url: string, hosts: readonly string[] = allowedExternalHosts): boolean {
  if (typeof url !== 'string' || url.length > 2048) return false;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (parsed.protocol !== 'https:' || parsed.username !== '' || parsed.password !== '' || parsed.port !== '') return false;
  const host = parsed.hostname.toLowerCase();
  return hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`));
}
