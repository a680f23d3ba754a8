/**
 * Technical failure reasons (an SDK's error message, a provider's reply, an OS error) in words of the
 * UI language. The headline of every notice is already translated; this turns the common reasons into a
 * plain cause, and keeps the original text as a detail for whoever needs it. Pure, unit-tested.
 */
import type { UiLanguage } from './i18n.ts';

/** A kind of cause a person can act on. */
export type FailureCause = 'network' | 'timeout' | 'auth' | 'quota' | 'not-found' | 'server' | 'refused' | 'disk' | 'audio' | 'cancelled';

const RULES: readonly [FailureCause, RegExp][] = [
  ['cancelled', /\b(abort(ed)?|cancel(l)?ed)\b/i],
  ['timeout', /time[ -]?d? ?out|timed out|ETIMEDOUT|deadline/i],
  ['network', /fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|socket hang up|network|connection (error|refused|reset)|getaddrinfo/i],
  ['auth', /\b401\b|\b403\b|unauthori[sz]ed|forbidden|invalid api key|incorrect api key|api key/i],
  ['quota', /\b402\b|\b429\b|quota|rate limit|insufficient|balance|too many requests/i],
  ['not-found', /\b404\b|not found|no such|ENOENT|does not exist/i],
  ['server', /\b5\d\d\b|server error|bad gateway|service unavailable|overloaded/i],
  ['disk', /ENOSPC|EROFS|EACCES|EPERM|read-only|disk full|no space/i],
  ['audio', /audio|wav|sample rate|pcm|microphone|decode/i],
  ['refused', /\b400\b|\b422\b|bad request|invalid/i],
];

/** The cause a reason text points to, or null when it says nothing recognisable. */
export function failureCause(reason: string | null | undefined): FailureCause | null {
  if (!reason) return null;
  for (const [cause, re] of RULES) if (re.test(reason)) return cause;
  return null;
}

const WORDS: Readonly<Record<FailureCause, Readonly<Record<UiLanguage, string>>>> = {
  network: { en: 'The server could not be reached: check the network connection and the address in Settings.', zh: '无法连接到服务器：请检查网络连接和设置中的地址。' },
  timeout: { en: 'The server took too long to answer.', zh: '服务器响应超时。' },
  auth: { en: 'The API key was refused: check it in Settings.', zh: 'API 密钥被拒绝：请在设置中检查。' },
  quota: { en: 'The service is limiting requests or the account has no quota left.', zh: '服务限制了请求频率，或账户额度已用完。' },
  'not-found': { en: 'The model or address was not found: check Settings.', zh: '找不到模型或地址：请检查设置。' },
  server: { en: 'The service had a server error: try again later.', zh: '服务出现服务器错误：请稍后再试。' },
  refused: { en: 'The service refused the request: check the settings of this service.', zh: '服务拒绝了请求：请检查该服务的设置。' },
  disk: { en: 'The disk did not accept the data (full or read-only).', zh: '磁盘无法写入（已满或只读）。' },
  audio: { en: 'The recording could not be read.', zh: '无法读取录音。' },
  cancelled: { en: 'It was stopped before it finished.', zh: '在完成前被中止了。' },
};

/** The plain-language cause of `reason` in `lang`, or null when the reason is not recognised. */
export function failureCauseText(reason: string | null | undefined, lang: UiLanguage): string | null {
  const cause = failureCause(reason);
  return cause === null ? null : WORDS[cause][lang];
}
