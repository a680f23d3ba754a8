/**
 * Verify's result and the prompt-cache report in words, in either UI language: what happened to the test
 * dictation and, when it failed, what to change. The provider's own message, field and model names are
 * quoted as they are. Pure and environment-free, so Settings (and any other window) words them itself.
 */
import type { PromptBudget, PromptCacheReport, ProviderCheckResult, VerifyAdvice } from '../ipc/provider-types.ts';
import { providerRefusalText, type NoticeLanguage } from './notice-text.ts';

const list = (lang: NoticeLanguage, xs: readonly string[]): string => xs.map((x) => `“${x}”`).join(lang === 'en' ? ', ' : '、');
const seconds = (ms: number): string => (Math.round(ms / 100) / 10).toFixed(1);

function adviceText(lang: NoticeLanguage, a: VerifyAdvice, said: string): string {
  const en = lang === 'en';
  switch (a.kind) {
    case 'extra-body': {
      const kind =
        a.suggestedLabel !== null
          ? en ? ` This server looks like ${a.suggestedLabel}: choose that provider type, and Tingxie sends its own thinking switch.` : `这个服务器看起来是 ${a.suggestedLabel}：请选择该服务商类型，听写会自动发送它自己的思考开关。`
          : a.providerKind === 'other'
            ? en ? ' If the server is one of the listed providers, choose its type instead: Tingxie then sends the fields it accepts.' : '如果服务器属于列表中的某个服务商，请改选它的类型：听写会只发送它接受的字段。'
            : '';
      return en
        ? `The provider refused “${a.field}”${said}. It is set in this provider’s extra_body: remove it there.${kind}`
        : `服务商拒绝了“${a.field}”${said}。它来自该服务商的 extra_body：请在那里删除它。${kind}`;
    }
    case 'provider-kind': {
      const guess = a.suggestedLabel !== null ? (en ? ` (it looks like ${a.suggestedLabel})` : `（看起来是 ${a.suggestedLabel}）`) : '';
      return en
        ? `The provider refused “${a.field}”${said}. Tingxie sent it because the provider type is “${a.currentLabel}”: choose the type of this server${guess}, so the request has the fields it accepts. If the type is right, drop the field with "${a.field}": null in extra_body.`
        : `服务商拒绝了“${a.field}”${said}。听写发送它是因为服务商类型是“${a.currentLabel}”：请选择与该服务器相符的类型${guess}，请求就只带它接受的字段。如果类型没错，可在 extra_body 中写 "${a.field}": null 去掉该字段。`;
    }
    case 'thinking':
      return a.thinking
        ? en
          ? `The model refuses thinking switched on (“${a.field}”${said}): turn off “Let the model think first”, or choose another model.`
          : `该模型不接受开启思考（“${a.field}”${said}）：请关闭“让模型先思考”，或换一个模型。`
        : en
          ? `The model cannot switch thinking off (“${a.field}”${said}): turn on “Let the model think first”, or choose a model that can answer without thinking.`
          : `该模型无法关闭思考（“${a.field}”${said}）：请开启“让模型先思考”，或换一个可以不思考直接回答的模型。`;
    case 'model': {
      const offer = a.offered.length > 0 ? (en ? ` This provider offers ${list(lang, a.offered)}.` : `该服务商提供：${list(lang, a.offered)}。`) : '';
      if (a.model === '') return en ? `No model is chosen for this provider: choose one.${offer}` : `该服务商还没有选择模型：请选择一个。${offer}`;
      return en ? `The provider does not offer the model “${a.model}”${said}: choose a current one.${offer}` : `服务商不提供模型“${a.model}”${said}：请选择当前可用的模型。${offer}`;
    }
    default: {
      const never: never = a;
      return never;
    }
  }
}

/** Verify's result in one or two sentences of `lang`. */
export function providerCheckText(lang: NoticeLanguage, r: ProviderCheckResult): string {
  const en = lang === 'en';
  const said = r.refusal?.providerMessage ? (en ? `: “${r.refusal.providerMessage}”` : `：“${r.refusal.providerMessage}”`) : '';
  if (r.advice !== null) return adviceText(lang, r.advice, said);
  switch (r.code) {
    case 'ok': {
      const unlisted =
        r.listed === false ? (en ? ` (“${r.model}” is not in the provider’s model list, but the provider accepted it.)` : `（“${r.model}”不在服务商的模型列表中，但服务商接受了它。）`) : '';
      return en
        ? `Works: a test dictation was cleaned by ${r.model} in ${seconds(r.elapsedMs)} s: “${r.answer ?? ''}”.${unlisted}`
        : `可以使用：${r.model} 在 ${seconds(r.elapsedMs)} 秒内整理了一段测试听写：“${r.answer ?? ''}”。${unlisted}`;
    }
    case 'refused':
    case 'server':
    case 'auth':
      if (r.refusal) return providerRefusalText(lang, r.refusal);
      if (r.code === 'auth') return en ? 'The provider refused the API key: enter this provider’s key below.' : '服务商拒绝了 API 密钥：请在下方填写该服务商的密钥。';
      return en ? 'The provider had a server error: try again later.' : '服务商出现服务器错误：请稍后再试。';
    case 'timeout':
      return en
        ? `No answer within ${r.timeoutSeconds} s, the time a dictation waits: a dictation would fall back to the raw text. A local model may still be loading (verify again); otherwise choose a faster model, turn thinking off, or raise the timeout.`
        : `${r.timeoutSeconds} 秒内（听写等待的时间）没有回答：听写会退回原始识别文本。本地模型可能仍在加载（请再验证一次）；否则请换一个更快的模型、关闭思考，或延长超时时间。`;
    case 'unreachable':
      return en ? `Cannot reach ${r.host}: check the base URL and that the server is running.` : `无法连接 ${r.host}：请检查基础 URL，并确认服务器正在运行。`;
    case 'truncated':
      return en
        ? 'The answer was cut off before it was complete (the output limit, or the stream ended early): turn thinking off or raise max_output_tokens.'
        : '回答在完成前被截断（达到输出上限或流提前结束）：请关闭思考，或调大 max_output_tokens。';
    case 'empty':
      return en ? `The model answered with nothing: choose another model, or turn thinking off.` : '模型的回答是空的：请换一个模型，或关闭思考。';
    case 'guarded':
      return en
        ? `The model answered something other than the cleaned text (“${r.answer ?? ''}”), so a dictation would keep your raw words: choose another model or mode.`
        : `模型给出的不是整理后的文字（“${r.answer ?? ''}”），听写会保留原始识别文本：请换一个模型或模式。`;
    case 'too-long':
      return en
        ? 'The prompt does not fit the model’s context: lower the history settings, or choose a model with a longer context.'
        : '提示词超出了模型的上下文长度：请调低历史记录设置，或换用上下文更长的模型。';
    case 'failed':
      return en ? `Verify failed: ${r.message}` : `验证失败：${r.message}`;
    default: {
      const never: never = r.code;
      return never;
    }
  }
}

/** The budget report's rows in `lang` (Settings › AI): label and value; the first row says how tokens were counted. */
export function promptBudgetRows(lang: NoticeLanguage, b: PromptBudget): [string, string][] {
  const en = lang === 'en';
  const n = (v: number): string => v.toLocaleString('en-US');
  const dropped = [
    b.dropped.historyLines > 0 ? (en ? `${b.dropped.historyLines} oldest history lines` : `最早的 ${b.dropped.historyLines} 条历史`) : '',
    b.dropped.retrieved > 0 ? (en ? `${b.dropped.retrieved} older corrections` : `${b.dropped.retrieved} 条更早的纠错`) : '',
    b.dropped.vocabularyPairs > 0 ? (en ? `${b.dropped.vocabularyPairs} vocabulary pairs` : `${b.dropped.vocabularyPairs} 个词库条目`) : '',
  ].filter((s) => s !== '');
  const source: Record<string, [string, string]> = {
    config: ['set in config', '配置中设定'], 'ollama-num-ctx': ['Ollama num_ctx', 'Ollama 的 num_ctx'], 'ollama-loaded': ['as loaded by Ollama', 'Ollama 加载时的长度'],
    'ollama-default': ['Ollama default', 'Ollama 默认值'], 'model-list': ["provider's model list", '服务商模型列表'], profile: ['provider docs', '服务商文档'], table: ['built-in table', '内置表'],
  };
  const src = source[b.windowSource]?.[en ? 0 : 1] ?? b.windowSource;
  return [
    [en ? 'Counted' : '计数', b.method === 'exact' ? (en ? `exact (${b.tokenizer} tokenizer)` : `精确（${b.tokenizer} 分词器）`) : en ? 'estimate (no tokenizer known for this model)' : '估算（此模型没有已知的分词器）'],
    [en ? 'System prompt' : '系统提示词', n(b.systemTokens)],
    [en ? 'History' : '历史', en ? `${n(b.historyTokens)} (${b.historyLines} lines)` : `${n(b.historyTokens)}（${b.historyLines} 条）`],
    [en ? 'Vocabulary' : '词库', n(b.vocabularyTokens)],
    [en ? 'Tail' : '动态尾部', n(b.tailTokens)],
    [en ? 'Text' : '文本', n(b.inputTokens)],
    [en ? 'Max output' : '最大输出', n(b.maxOutputTokens)],
    [en ? 'Context window' : '上下文窗口', en ? `${n(b.window)} (${src})` : `${n(b.window)}（${src}）`],
    [en ? 'Remaining' : '剩余', n(b.remaining)],
    [en ? 'Dropped' : '已舍弃', dropped.length > 0 ? dropped.join(en ? ', ' : '，') : en ? 'nothing' : '无'],
  ];
}

/** The prompt-cache report in one sentence of `lang` (Settings › AI, near history injection). */
export function promptCacheText(lang: NoticeLanguage, r: PromptCacheReport): string {
  const en = lang === 'en';
  const tokens = `~${r.promptTokens.toLocaleString('en-US')}`;
  const min = r.cache.minTokens.toLocaleString('en-US');
  const p = r.providerLabel;
  const step = r.cache.stepTokens > 1 ? (en ? ` in ${r.cache.stepTokens}-token steps` : `，按 ${r.cache.stepTokens} token 为单位`) : '';
  switch (r.verdict) {
    case 'caches':
      return r.cache.minTokens === 0
        ? en
          ? `Your prompt is ${tokens} tokens; ${p} caches repeated prompt prefixes with no minimum${step}, so the unchanged part is served from its cache from the second dictation on.`
          : `你的提示词约 ${tokens.slice(1)} token；${p} 缓存重复的提示词前缀，没有最低长度${step}，从第二次听写起不变的部分就由缓存提供。`
        : en
          ? `Your prompt is ${tokens} tokens; ${p} caches from ${min}${step}: the unchanged part of the prompt is served from its cache.`
          : `你的提示词约 ${tokens.slice(1)} token；${p} 从 ${min} token 起缓存${step}：提示词中不变的部分由缓存提供。`;
    case 'below-minimum': {
      const e = r.suggestedEntries;
      const chars = r.suggestedHistoryChars !== null ? (en ? ` and max_history_chars to ${r.suggestedHistoryChars}` : `，并把“历史最大字符数”调到 ${r.suggestedHistoryChars}`) : '';
      const fix =
        e === null
          ? en
            ? ` It gets there as more dictations of this mode are confirmed (history injection keeps up to ${r.maxEntries} after a rebuild).`
            : `随着这个模式确认的听写增多，提示词会达到这个长度（重建后保留最多 ${r.maxEntries} 条）。`
          : !r.historyEnabled
            ? en
              ? ` Turn on history injection with max_entries ${e.low}–${e.high}${chars} to benefit; until then nothing is cached.`
              : `要用上缓存，请开启“注入最近确认的听写”，并把“重建后的条数”设为 ${e.low}–${e.high}${chars}；在此之前不会有缓存。`
            : en
              ? ` Raise max_entries to ${e.low}–${e.high}${chars} to benefit; until then nothing is cached.`
              : `要用上缓存，请把“重建后的条数”调到 ${e.low}–${e.high}${chars}；在此之前不会有缓存。`;
      return en ? `Your prompt is ${tokens} tokens; ${p} caches from ${min}${step}.${fix}` : `你的提示词约 ${tokens.slice(1)} token；${p} 从 ${min} token 起才缓存${step}。${fix}`;
    }
    case 'not-reported':
      return en ? `Your prompt is ${tokens} tokens; ${p} reports no cached tokens (${r.cache.note}).` : `你的提示词约 ${tokens.slice(1)} token；${p} 不报告缓存的 token（${r.cache.note}）。`;
    case 'unknown':
      return en
        ? `Your prompt is ${tokens} tokens; ${p}’s caching rule is not known (${r.cache.note}), so no saving is promised.`
        : `你的提示词约 ${tokens.slice(1)} token；${p} 的缓存规则未知（${r.cache.note}），因此不保证节省。`;
    default: {
      const never: never = r.verdict;
      return never;
    }
  }
}
