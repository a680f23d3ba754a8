import type { ProviderRefusal, ProviderRefusalKind } from '../../shared/notices/notice.ts';

/**
 * Provider error bodies, of every shape the OpenAI-compatible APIs Tingxie talks to document or are seen
 * to send, read into one structured refusal (what was refused: a field, a model, the key, the quota…)
 * that notice-text.ts says in one sentence per UI language. Pure: no I/O, no SDK import; the raw body is
 * the caller's to log, it never goes into the refusal except as a trimmed one-line provider message.
 *
 * Shapes handled (each seen in the cited source):
 * - OpenAI `{error:{message,type,param,code}}`, e.g. `unsupported_parameter` / `max_tokens` —
 *   github.com/griptape-ai/ComfyUI-Griptape/issues/312, `unknown_parameter` —
 *   github.com/teabranch/open-responses-server/issues/41, `model_not_found` — github.com/zh-plus/openlrc/issues/63,
 *   `insufficient_quota` (429) — github.com/chatanywhere/GPT_API_free/issues/229. The same envelope from
 *   Azure ("Unrecognized request argument supplied: …" — github.com/songquanpeng/one-api/issues/1978),
 *   Groq (`{error:{message:"property 'chat_template_kwargs' is unsupported…",type}}` —
 *   github.com/immersive-translate/immersive-translate/issues/3003), DeepSeek ("Model Not Exist" —
 *   github.com/langbot-app/LangBot/issues/1643; "The supported API model names are … but you passed …" —
 *   github.com/QuantumNous/new-api/pull/4428), Moonshot ("invalid temperature: only 1 is allowed…" —
 *   github.com/lobehub/lobehub/issues/14122; `exceeded_current_quota_error` — forum.moonshot.ai/t/429-insufficient-balance/244),
 *   DashScope compatible mode (`{error:{code:"invalid_parameter_error",…},request_id}` —
 *   github.com/tencentmusic/supersonic/issues/2355), Ollama `/v1` (`model "x" not found, try pulling it first` —
 *   github.com/netease-youdao/QAnything/issues/555), vLLM (`{error:{message,type:"BadRequestError",param,code:400}}` —
 *   github.com/harbor-framework/harbor/pull/996), llama.cpp server (`exceed_context_size_error` —
 *   github.com/ggml-org/llama.cpp/pull/15780).
 * - Cerebras, flat: `{message:"… property '…' is unsupported",type,param,code:"wrong_api_format"}` —
 *   github.com/egoist/chatwise-releases/issues/1442, github.com/OpenWhispr/openwhispr/issues/831.
 * - OpenRouter `{error:{message:"Provider returned error",code,metadata:{raw,provider_name}}}`, the real
 *   reason inside `metadata.raw` (a JSON string or text) — github.com/reVrost/go-openrouter/pull/21,
 *   github.com/open-webui/computer/issues/293.
 * - Gemini's OpenAI endpoint answers with a JSON *array* `[{"error":{code,message,status,details}}]` —
 *   github.com/Alishahryar1/free-claude-code/issues/542, github.com/MinLL/SkyrimNet-GamePlugin/issues/77;
 *   a bad key is a 400 with `details[].reason: "API_KEY_INVALID"` — github.com/cequence-io/openai-scala-client/issues/109.
 * - Mistral 422 (pydantic): `{object:"error",message:{detail:[{type:"extra_forbidden",loc,msg,input}]},type,…}` —
 *   github.com/Gage-Technologies/mistral-go/pull/2; the same with `message` as a JSON *string* —
 *   github.com/mistralai/platform-docs-public/issues/7; newer `{object:"Error",detail:[…],message:[…],code:3001}` —
 *   github.com/partITech/php-mistral/issues/76; the Python-repr string from vLLM-based hosts
 *   (`"[{'type': 'extra_forbidden', 'loc': ('body', 'test'), …}]"`) — support.huaweicloud.com/intl/zh-cn/usermanual-maas-modelarts/maas-modelarts-0080.html.
 * - DashScope native `{code,message,request_id}` (`InvalidApiKey`) — github.com/dinoanderson/qwen_cli_coder/issues/1;
 *   SiliconFlow `{code:20012,message,data}` — github.com/666ghj/BettaFish/issues/313.
 * - Zhipu `{error:{code:"1211",message:"模型不存在，请检查模型代码。"}}` — github.com/Tencent/WeKnora/issues/176 (1211),
 *   `{error:{code:"1214",message:"messages 参数非法。…"}}` — github.com/MetaGLM/zhipuai-sdk-python-v4/issues/14;
 *   z.ai flat `{code:"1210",message}` — github.com/charmbracelet/crush/issues/1237.
 * - Ollama native `{error:"…"}` (a string) — docs.ollama.com/api/errors.md.
 * - Plain text and HTML from gateways (Cloudflare "502: Bad gateway" pages) —
 *   github.com/smallmain/vscode-unify-chat-provider/issues/59.
 */

/** A refusal plus the provider's raw body text (for the log only). */
export interface ReadProviderError {
  readonly refusal: ProviderRefusal;
  readonly raw: string;
}

/** What the parser collected from a body before classifying it. */
interface Collected {
  message: string;
  code: string;
  type: string;
  param: string;
  status: string;
  reason: string;
  provider: string;
  field?: string;
  extraForbidden: boolean;
  html: boolean;
}

const MAX_MESSAGE = 200;
const MAX_DEPTH = 6;

/**
 * Reads an error the `openai` SDK threw for an HTTP status: its parsed body (`error`, which the SDK
 * unwraps from `{error: …}` or keeps whole) or, for a body that was not JSON, the text in its message.
 * Returns null for errors without an HTTP status (network, abort). `scrub` removes secrets from the raw
 * text before anything is read from it, so neither the refusal nor the log can carry a key; it may also cut
 * the text to a length (llm-client.ts cuts before it redacts), so a huge body costs no more than a short one.
 */
export function readProviderError(err: unknown, scrub: (text: string) => string): ReadProviderError | null {
  const e = err as { status?: unknown; error?: unknown; message?: unknown } | null;
  if (e === null || typeof e !== 'object' || typeof e.status !== 'number') return null;
  const status = e.status;
  let raw: string;
  if (e.error !== undefined && e.error !== null) raw = typeof e.error === 'string' ? JSON.stringify({ error: e.error }) : JSON.stringify(e.error);
  else raw = String(e.message ?? '').replace(new RegExp(`^${status}\\s+`), '');
  raw = scrub(raw);
  return { refusal: parseProviderError(status, raw), raw };
}

/** Parses a provider's error body (text, or already-parsed JSON) into a refusal. */
export function parseProviderError(status: number | undefined, body: unknown): ProviderRefusal {
  const c: Collected = { message: '', code: '', type: '', param: '', status: '', reason: '', provider: '', extraForbidden: false, html: false };
  collect(body, c, 0);
  const message = oneLine(c.message) || (status !== undefined ? `HTTP ${status}` : 'no details');
  const providerMessage = clip(c.provider ? `${c.provider}: ${message}` : message);
  const { kind, field, model } = classify(status, c, message);
  return { kind, ...(field ? { field } : {}), ...(model ? { model } : {}), providerMessage };
}

function collect(v: unknown, c: Collected, depth: number): void {
  if (depth > MAX_DEPTH || v === null || v === undefined) return;
  if (typeof v === 'string') return collectText(v, c, depth);
  if (typeof v === 'number' || typeof v === 'boolean') return;
  if (Array.isArray(v)) {
    if (v.some(isPydanticItem)) return collectPydantic(v.filter(isPydanticItem), c);
    // Gemini's array of envelopes, Gemini `details`: the first object carries the error.
    const first = v.find((x) => typeof x === 'object' && x !== null);
    return collect(first, c, depth + 1);
  }
  if (typeof v !== 'object') return;
  const o = v as Record<string, unknown>;
  // The envelope first, so its message wins over the outer generic one ("Provider returned error").
  if (typeof o.error === 'string') setMessage(c, o.error);
  else if (typeof o.error === 'object' && o.error !== null) collect(o.error, c, depth + 1);
  const meta = o.metadata as { raw?: unknown; provider_name?: unknown } | undefined;
  if (meta && typeof meta === 'object') {
    if (typeof meta.provider_name === 'string' && !c.provider) c.provider = meta.provider_name;
    if (meta.raw !== undefined) {
      // OpenRouter: the upstream body is the real reason; read it into a fresh record, prefer its message.
      const inner: Collected = { ...c, message: '' };
      collect(meta.raw, inner, depth + 1);
      Object.assign(c, { ...inner, message: inner.message || c.message, provider: c.provider });
    }
  }
  if (Array.isArray(o.detail)) collect(o.detail, c, depth + 1);
  else if (typeof o.detail === 'string') setMessage(c, o.detail);
  if (typeof o.message === 'string') collectText(o.message, c, depth);
  else if (typeof o.message === 'object' && o.message !== null) collect(o.message, c, depth + 1);
  if (typeof o.msg === 'string') setMessage(c, o.msg);
  setIfEmpty(c, 'code', o.code);
  setIfEmpty(c, 'type', o.type);
  setIfEmpty(c, 'param', o.param);
  setIfEmpty(c, 'status', o.status);
  // Gemini `details`: an ErrorInfo `reason` (API_KEY_INVALID) or BadRequest `fieldViolations`.
  if (Array.isArray(o.details)) {
    for (const d of o.details) {
      const r = (d as { reason?: unknown } | null)?.reason;
      if (typeof r === 'string' && !c.reason) c.reason = r;
    }
  }
}

function collectText(text: string, c: Collected, depth: number): void {
  const t = text.trim();
  if (/^[[{]/.test(t)) {
    try {
      return collect(JSON.parse(t) as unknown, c, depth + 1);
    } catch {
      // Not JSON after all (or a Python repr): read it as text.
    }
  }
  if (/^<!doctype html|^<html|<\/(?:html|head|body|title)>/i.test(t)) {
    c.html = true;
    const title = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(t)?.[1];
    return setMessage(c, decodeEntities(title ?? t.replace(/<script[\s\S]*?<\/script>|<style[\s\S]*?<\/style>|<[^>]+>/gi, ' ')));
  }
  // A Python repr of pydantic errors: [{'type': 'extra_forbidden', 'loc': ('body', 'x'), 'msg': '…', …}].
  const repr = [...t.matchAll(/'type':\s*'(\w+)',\s*'loc':\s*\(([^)]*)\),\s*'msg':\s*'([^']*)'/g)];
  if (repr.length > 0) {
    const items = repr.map(([, type, loc, msg]) => ({ type, loc: [...(loc ?? '').matchAll(/'([^']*)'|(\d+)/g)].map((m) => m[1] ?? Number(m[2])), msg }));
    return collectPydantic(items, c);
  }
  setMessage(c, t);
}

interface PydanticItem {
  readonly type?: string;
  readonly loc?: readonly unknown[];
  readonly msg?: string;
}

function isPydanticItem(x: unknown): x is PydanticItem {
  return typeof x === 'object' && x !== null && Array.isArray((x as PydanticItem).loc) && typeof (x as PydanticItem).msg === 'string';
}

/** Mistral / FastAPI validation errors: `loc` without the leading "body", joined with dots. */
function collectPydantic(items: readonly PydanticItem[], c: Collected): void {
  const where = (i: PydanticItem): string => (i.loc ?? []).filter((p, k) => !(k === 0 && p === 'body')).map(String).join('.');
  const forbidden = items.find((i) => i.type === 'extra_forbidden');
  if (forbidden) {
    c.extraForbidden = true;
    c.field ??= where(forbidden);
  }
  setMessage(c, items.map((i) => `${where(i)}: ${i.msg ?? ''}`).join('; '));
}

function setMessage(c: Collected, m: string): void {
  if (!c.message && m.trim()) c.message = m;
}

function setIfEmpty(c: Collected, key: 'code' | 'type' | 'param' | 'status', v: unknown): void {
  if (!c[key] && (typeof v === 'string' || typeof v === 'number') && String(v) !== '') c[key] = String(v);
}

function decodeEntities(t: string): string {
  return t.replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'");
}

function oneLine(t: string): string {
  return t.replace(/\s+/g, ' ').trim();
}

function clip(t: string): string {
  const chars = Array.from(t);
  return chars.length <= MAX_MESSAGE ? t : `${chars.slice(0, MAX_MESSAGE - 1).join('')}…`;
}

/** A field or model name fit to show: identifier-like, not too long. */
function cleanName(n: string | undefined, max = 80): string | undefined {
  const t = n?.trim().replace(/^[`'"“‘]|[`'"”’.,:;]$/g, '');
  return t && t.length <= max && /^[\w.:/@\-[\]]+$/.test(t) ? t : undefined;
}

// Field-refusal phrasings, each capturing the field name.
const UNKNOWN_FIELD: readonly RegExp[] = [
  /Unknown name "([^"]+)"/, // Gemini
  /property '([^']+)' is unsupported/i, // Groq, Cerebras
  /Unrecognized request arguments? supplied:\s*([\w.]+)/i, // Azure OpenAI
  /(?:Unknown|Unsupported|Unrecognized) parameter:?\s*'([^']+)'/i, // OpenAI
  /(?:unknown|unrecognized|unsupported|extra|unexpected) (?:field|parameter|argument|property|key)s?:?\s*[`'"]?([\w.]+)/i,
  /([\w.]+):\s*Extra inputs are not permitted/i, // pydantic, joined by collectPydantic
];

const MODEL_NOT_FOUND =
  /model[^.;]{0,80}?(?:does not exist|not exist|not found|is not supported|unsupported|not available|unavailable|is invalid|deprecated|retired|decommissioned)|no such model|unknown model|invalid model|model not exist|supported API model names|try pulling it first|模型不存在|模型.{0,10}(?:不可用|不存在|已下线)/i;
const MODEL_NAME: readonly RegExp[] = [
  /you passed ([\w.:/@-]+)/i, // DeepSeek
  /\bmodels\/([\w.:@-]+)/, // Gemini "models/x is not found"
  /model\s*[:=]?\s*[`'"“]([^`'"”]+)[`'"”]/i, // OpenAI model `x`, Ollama model "x"
  /model(?: not exist| not found)?:\s*([\w.:/@-]+)/i,
];

const AUTH = /invalid[_ ]?api[_ ]?key|incorrect api key|api key not valid|API_KEY_INVALID|InvalidApiKey|invalid[_ ]authentication|unauthori[sz]ed|authentication (?:failed|error)|no api key|missing api key|身份验证|鉴权失败|令牌.{0,6}(?:无效|过期)/i;
const QUOTA = /insufficient[_ ](?:quota|balance|credits?|funds)|exceeded[_ ]current[_ ]quota|exceeded your current quota|quota (?:exceeded|exhausted)|Arrearage|out of credits|credit balance|payment required|billing|余额不足|欠费|额度(?:不足|已用完)/i;
const RATE = /rate[-_ ]?limit|too many requests|Throttling|requests per (?:minute|second|day)|\b[RT]PM\b|请求过于频繁|限流|并发/i;
const CONTEXT =
  /context[_ ](?:length|window|size)|maximum context|exceed_context_size|too many tokens|prompt is too long|input (?:is )?too long|exceeds? the (?:available )?context|maximum input length|Range of input length|上下文.{0,6}(?:长度|超出|超过)|超出.{0,10}(?:长度|限制)/i;
const BAD_VALUE =
  /invalid (?:value|temperature|parameter|argument|type)|must be|only [^.]{1,20} (?:is|are) allowed|restricted to|not (?:a )?valid|out of range|should be|is mandatory|cannot be (?:disabled|enabled)|unsupported value|does not support|参数.{0,4}(?:非法|有误|错误|不合法)|不支持/i;
const FIELD_OF_VALUE: readonly RegExp[] = [
  /invalid ([a-z_][\w.]*)\s*:/i, // "invalid temperature: only 1 is allowed"
  /(?:the )?value of (?:the )?([a-z_][\w.]*) parameter/i, // DashScope
  /parameter\.([a-z_][\w.]*)/i, // DashScope "parameter.enable_thinking must…"
  /'([a-z_][\w.]*)' (?:does not support|must|should|is not)/i, // OpenAI unsupported_value
  /^([a-z_][\w.]*) (?:must|should|is not|cannot)/i,
  /\b(reasoning|thinking|temperature|top_p|max_tokens|max_completion_tokens|stream_options|enable_thinking|reasoning_effort)\b/i,
  /([a-z_][\w.]*)\s*参数/i, // Zhipu "max_tokens参数非法"
];

function classify(status: number | undefined, c: Collected, message: string): { kind: ProviderRefusalKind; field?: string; model?: string } {
  const codes = `${c.code} ${c.type} ${c.status} ${c.reason}`;
  const all = `${codes} ${message}`;
  const s = status ?? 0;
  if (c.html) return { kind: s === 401 || s === 403 ? 'auth' : s === 429 ? 'rate-limit' : s >= 400 && s < 500 ? 'other' : 'server' };
  const modelName = (): string | undefined => {
    for (const re of MODEL_NAME) {
      const n = cleanName(re.exec(message)?.[1]);
      if (n) return n;
    }
    return undefined;
  };
  const named = (re: readonly RegExp[], text: string): string | undefined => {
    for (const r of re) {
      const n = cleanName(r.exec(text)?.[1], 60);
      if (n) return n;
    }
    return undefined;
  };
  if (c.extraForbidden || /unknown_parameter|unsupported_parameter|wrong_api_format/i.test(codes) || UNKNOWN_FIELD.some((r) => r.test(message))) {
    const field = cleanName(c.field, 60) ?? named(UNKNOWN_FIELD, message) ?? cleanName(c.param, 60);
    if (field || c.extraForbidden || !BAD_VALUE.test(message)) return { kind: 'unknown-field', ...(field ? { field } : {}) };
  }
  if (/model_not_found|ModelNotFound|\b1211\b|\b20012\b|NOT_FOUND/.test(codes) || MODEL_NOT_FOUND.test(message) || (s === 404 && /model/i.test(message))) {
    const model = modelName();
    return { kind: 'bad-model', ...(model ? { model } : {}) };
  }
  if (AUTH.test(all) || s === 401 || (s === 403 && !QUOTA.test(all))) return { kind: 'auth' };
  if (QUOTA.test(all) || s === 402) return { kind: 'quota' };
  if (CONTEXT.test(all) || s === 413) return { kind: 'context-too-long' };
  if (RATE.test(all) || s === 429 || /RESOURCE_EXHAUSTED/.test(codes)) return { kind: 'rate-limit' };
  if (s >= 500 || s === 408) return { kind: 'server' };
  if (c.param || BAD_VALUE.test(message) || /invalid_parameter|InvalidParameter|unsupported_value|invalid_value|\b121[04]\b|INVALID_ARGUMENT/.test(codes)) {
    const field = cleanName(c.param, 60) ?? named(FIELD_OF_VALUE, message)?.toLowerCase();
    if (field || BAD_VALUE.test(message)) return { kind: 'bad-parameter', ...(field ? { field } : {}) };
  }
  return { kind: 'other' };
}
