/**
 * Short forms of the notices that end a dictation badly, for places with one line of room: the
 * recording indicator (which says what happened and the next step, where the user is looking) and the
 * preview panel's collapsed notice line. Codes without a short form return null (the indicator then
 * stays hidden; the panel shows the full text). The full words stay in notice-text.ts.
 */
import type { Notice } from './notice.ts';
import type { NoticeLanguage } from './notice-text.ts';

/** Where the short text is shown, and whether the failure is in the preview panel (which has Retry). */
export interface ShortNoticeContext {
  readonly where: 'indicator' | 'panel';
  /** The preview panel shows this dictation's failure (preview on, or direct mode opted in). */
  readonly panel: boolean;
}

type Pair = readonly [en: string, zh: string];

function pick(lang: NoticeLanguage, p: Pair): string {
  return lang === 'zh' ? p[1] : p[0];
}

/**
 * Whether the indicator shows a Retry button with `notice`: a failed or timed-out transcription whose
 * audio is kept, when the panel (which has its own Retry) does not show failures.
 */
export function indicatorOffersRetry(notice: Notice, panel: boolean): boolean {
  return !panel && (notice.code === 'asr-failed' || notice.code === 'asr-timeout');
}

/** The short text of `notice` in `lang`, or null when it has none for this place. */
export function shortNoticeText(lang: NoticeLanguage, notice: Notice, ctx: ShortNoticeContext): string | null {
  const ind = ctx.where === 'indicator';
  // Without the panel the indicator itself has a Retry button next to the message (indicatorOffersRetry).
  const retry: Pair = ctx.panel ? ['Retry in the panel', '在面板中重试'] : ['the recording is kept', '录音已保留'];
  const withStep = (what: Pair, step: Pair): string => `${pick(lang, what)} · ${pick(lang, step)}`;
  switch (notice.code) {
    case 'asr-failed':
      return ind ? withStep(['Transcription failed', '识别失败'], retry) : pick(lang, ['Transcription failed — the recording is kept', '语音识别失败，录音已保留']);
    case 'asr-timeout':
      return ind ? withStep(['Transcription timed out', '识别超时'], retry) : pick(lang, ['Transcription took too long — the recording is kept', '识别超时，录音已保留']);
    case 'speech-model-missing':
      return ind ? withStep(['No speech model', '没有语音模型'], ['download one in Settings', '请在设置中下载']) : pick(lang, ['No speech model is installed — see Settings › Speech', '没有安装语音模型，请在“设置 › 语音识别”中下载']);
    case 'llm-fallback':
      // With the panel open, the panel says it; the indicator speaks only when the text went out directly.
      if (ind) return ctx.panel ? null : withStep(['AI enhancement failed', 'AI 润色失败'], ['raw transcript used', '已使用原文']);
      return pick(lang, ['AI enhancement failed — showing the raw transcript', 'AI 润色失败，显示原始识别文本']);
    case 'llm-guarded':
      if (ind) return ctx.panel ? null : withStep(['AI answer rejected', 'AI 回答异常'], ['raw transcript used', '已使用原文']);
      return pick(lang, ['The AI answer looked wrong — showing the raw transcript', 'AI 的回答看起来不对，显示原始识别文本']);
    case 'paste-failed':
    case 'paste-timeout':
      return ind ? withStep(['Could not paste', '无法粘贴'], ['the text is on the clipboard', '文字在剪贴板上']) : pick(lang, ['Could not paste — the text is on the clipboard', '无法粘贴，文字已在剪贴板上']);
    case 'copy-failed':
      return pick(lang, ['Could not copy the text', '无法复制文字']);
    case 'microphone-error':
      return ind ? withStep(['Microphone not working', '麦克风无法工作'], ['see Settings › Audio', '见设置 › 音频']) : pick(lang, ['The microphone is not working', '麦克风无法工作']);
    case 'nothing-recognized':
      return pick(lang, ['Nothing was recognized', '没有识别到任何内容']);
    case 'silence-discarded':
      return pick(lang, ['No speech was heard', '没有听到语音']);
    case 'step-failed':
      return ind ? withStep(['A dictation step failed', '听写出错'], ['see the tray menu', '详见托盘菜单']) : null;
    case 'history-save-failed':
      return pick(lang, ['Not saved to history', '未能保存到历史记录']);
    case 'mode-by-rule':
      // The indicator names the rule that chose the mode, where the user looks while speaking.
      return ind ? `${notice.rule} → ${notice.label ?? notice.mode}` : null;
    case 'busy':
      return ind ? null : pick(lang, ['Still working on the last dictation', '上一次听写还在处理中']);
    default:
      return null;
  }
}
