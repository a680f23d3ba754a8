/**
 * The words of every notice code in both UI languages. Shared by the places that show notices — the
 * renderer windows (panel, indicator) and main's shells (tray, dialogs) — so a code is translated once.
 * The tables are typed as one function per code: a code without words in either language does not
 * compile, and test/unit/shared/notice-text.test.ts checks every code at run time too.
 */
import type { HotkeyRole, Notice, NoticeCode, NoticeOf } from './notice.ts';

/** A UI language (the same two as the renderer's i18n and main's messages). */
export type NoticeLanguage = 'en' | 'zh';

/** One language's words: a function per code, given that code's parameters. */
export type NoticeTexts = { readonly [C in NoticeCode]: (n: NoticeOf<C>) => string };

/** ` (reason)` / `（reason）` when there is a technical reason, else nothing. */
const enWhy = (reason: string | null | undefined): string => (reason ? ` (${reason})` : '');
const zhWhy = (reason: string | null | undefined): string => (reason ? `（${reason}）` : '');

const EN_ROLES: Readonly<Record<HotkeyRole, string>> = {
  'dictation key': 'dictation key',
  'cancel key': 'cancel key',
  'restart key': 'restart key',
  'previous-mode key': 'previous-mode key',
  'next-mode key': 'next-mode key',
};
const ZH_ROLES: Readonly<Record<HotkeyRole, string>> = {
  'dictation key': '听写键',
  'cancel key': '取消键',
  'restart key': '重新开始键',
  'previous-mode key': '上一个模式键',
  'next-mode key': '下一个模式键',
};

const EN: NoticeTexts = {
  busy: () => 'Still working on the last dictation: confirm or cancel it first.',
  'mode-changed': (n) => `Mode: ${n.mode}`,
  'max-recording': () => 'Maximum recording length reached.',
  'nothing-recognized': () => 'Nothing was recognized.',
  'silence-discarded': (n) => `No speech detected${enWhy(n.reason)}.`,
  'asr-failed': (n) => `Transcription failed${enWhy(n.reason)}. The audio is kept: use "Retry last dictation".`,
  'speech-model-missing': (n) => `No speech model is installed yet: download "${n.model}" in Settings › Speech, or choose a cloud engine there. Anything you dictated meanwhile is kept: use "Retry last dictation" afterwards.`,
  'asr-timeout': () => 'Transcription took too long. The audio is kept: use "Retry last dictation".',
  'llm-fallback': (n) => `Enhancement failed${enWhy(n.reason)}: using the raw transcript.`,
  'llm-guarded': (n) => `Enhancement looked wrong${enWhy(n.reason)}: using the raw transcript.`,
  'preview-timeout': () => 'The preview waited too long and was closed; reopen it from the menu.',
  'paste-failed': (n) => `Could not paste${n.app ? ` into ${n.app}` : ''}${enWhy(n.reason)}: the text is on the clipboard, paste it yourself.`,
  'paste-timeout': () => 'The paste did not finish in time: the text is on the clipboard, paste it yourself.',
  'copy-failed': (n) => `Could not put the text on the clipboard${enWhy(n.reason)}.`,
  'step-failed': (n) => `A dictation step failed${enWhy(n.reason)}.`,
  'history-save-failed': (n) => `The dictation could not be saved to history${enWhy(n.reason)}.`,
  'recovery-no-audio': () => 'That dictation had no audio left to recover.',
  'microphone-error': (n) => `The microphone is not working${enWhy(n.reason)}.`,
  'select-first': () => 'Select some text first: nothing was copied from the focused app.',
  'copy-selection-failed': (n) => `Could not copy the selected text${enWhy(n.reason)}.`,
  'no-retry': () => 'There is no failed dictation to retry.',
  'mode-switch-failed': (n) => `Could not switch the mode${enWhy(n.reason)}.`,
  'setting-save-failed': (n) => `Could not save the setting${enWhy(n.reason)}.`,
  'launch-at-login-failed': (n) => `Could not change "launch at login"${enWhy(n.reason)}.`,
  'permission-microphone': () => 'Tingxie cannot use the microphone. Allow it in System Settings → Privacy & Security → Microphone, then restart Tingxie.',
  'permission-accessibility': () =>
    'Tingxie needs the Accessibility permission to see the hold-to-talk key and to paste into other apps. Allow it in System Settings → Privacy & Security → Accessibility (after an update, remove Tingxie there and add it again), then restart Tingxie.',
  'hook-unavailable': (n) => {
    const why = {
      wayland: 'Hold-to-talk needs X11 or XWayland: this Wayland session exposes no DISPLAY. Use the toggle shortcut instead, or enable XWayland.',
      'no-display': 'Hold-to-talk needs a graphical session (no DISPLAY is set).',
      'load-failed': `Hold-to-talk is unavailable: the global key hook could not be loaded${enWhy(n.reason)}.`,
      'start-failed': `Hold-to-talk is unavailable: the global key hook could not start${enWhy(n.reason)}.`,
      accessibility: `Hold-to-talk is unavailable${enWhy(n.reason)}. Grant Tingxie the Accessibility permission (System Settings → Privacy & Security → Accessibility), then restart it.`,
    }[n.cause];
    return n.toggle ? `${why} The toggle shortcut ${n.toggle} works meanwhile.` : why;
  },
  'toggle-failed': (n) =>
    `The toggle shortcut could not be registered: ${n.cause === 'taken' ? `${n.accelerator} is already used by another app or by the system` : `${n.accelerator} is not a valid shortcut${enWhy(n.reason)}`}. Choose another one in Settings.`,
  'key-problem': (n) => `Cannot use the ${EN_ROLES[n.role]} '${n.key}' (${n.reason}).`,
};

const ZH: NoticeTexts = {
  busy: () => '上一次听写还在处理中：请先确认或取消它。',
  'mode-changed': (n) => `模式：${n.mode}`,
  'max-recording': () => '已达到最长录音时间。',
  'nothing-recognized': () => '没有识别到任何内容。',
  'silence-discarded': (n) => `没有检测到语音${zhWhy(n.reason)}。`,
  'asr-failed': (n) => `语音识别失败${zhWhy(n.reason)}。录音已保留：可用“重试上一次听写”。`,
  'speech-model-missing': (n) => `还没有安装语音模型：请在“设置 › 语音”中下载“${n.model}”，或在那里改用云端识别。期间的听写录音都已保留，装好后可用“重试上一次听写”。`,
  'asr-timeout': () => '语音识别耗时过长。录音已保留：可用“重试上一次听写”。',
  'llm-fallback': (n) => `AI 润色失败${zhWhy(n.reason)}：改用原始识别文本。`,
  'llm-guarded': (n) => `AI 的回答看起来不对${zhWhy(n.reason)}：改用原始识别文本。`,
  'preview-timeout': () => '预览等待过久，已关闭；可从菜单重新打开。',
  'paste-failed': (n) => `无法粘贴${n.app ? `到 ${n.app}` : ''}${zhWhy(n.reason)}：文字已在剪贴板上，请手动粘贴。`,
  'paste-timeout': () => '粘贴未能及时完成：文字已在剪贴板上，请手动粘贴。',
  'copy-failed': (n) => `无法把文字放到剪贴板上${zhWhy(n.reason)}。`,
  'step-failed': (n) => `听写的某个步骤失败了${zhWhy(n.reason)}。`,
  'history-save-failed': (n) => `这次听写未能保存到历史记录${zhWhy(n.reason)}。`,
  'recovery-no-audio': () => '这次听写已没有可恢复的录音。',
  'microphone-error': (n) => `麦克风无法工作${zhWhy(n.reason)}。`,
  'select-first': () => '请先选中文字：没有从当前应用复制到任何内容。',
  'copy-selection-failed': (n) => `无法复制选中的文字${zhWhy(n.reason)}。`,
  'no-retry': () => '没有可以重试的失败听写。',
  'mode-switch-failed': (n) => `无法切换模式${zhWhy(n.reason)}。`,
  'setting-save-failed': (n) => `无法保存设置${zhWhy(n.reason)}。`,
  'launch-at-login-failed': (n) => `无法更改“登录时启动”${zhWhy(n.reason)}。`,
  'permission-microphone': () => 'Tingxie 无法使用麦克风。请在“系统设置 → 隐私与安全性 → 麦克风”中允许，然后重新启动 Tingxie。',
  'permission-accessibility': () =>
    'Tingxie 需要“辅助功能”权限才能识别按住说话的按键并粘贴到其他应用。请在“系统设置 → 隐私与安全性 → 辅助功能”中允许（更新后请先移除 Tingxie 再重新添加），然后重新启动 Tingxie。',
  'hook-unavailable': (n) => {
    const why = {
      wayland: '按住说话需要 X11 或 XWayland：当前 Wayland 会话没有 DISPLAY。请改用切换快捷键，或启用 XWayland。',
      'no-display': '按住说话需要图形会话（未设置 DISPLAY）。',
      'load-failed': `按住说话不可用：无法加载全局按键钩子${zhWhy(n.reason)}。`,
      'start-failed': `按住说话不可用：无法启动全局按键钩子${zhWhy(n.reason)}。`,
      accessibility: `按住说话不可用${zhWhy(n.reason)}。请在“系统设置 → 隐私与安全性 → 辅助功能”中允许 Tingxie，然后重新启动。`,
    }[n.cause];
    return n.toggle ? `${why}在此期间可以使用切换快捷键 ${n.toggle}。` : why;
  },
  'toggle-failed': (n) =>
    `无法注册切换快捷键：${n.cause === 'taken' ? `${n.accelerator} 已被其他应用或系统占用` : `${n.accelerator} 不是有效的快捷键${zhWhy(n.reason)}`}。请在设置中换一个。`,
  'key-problem': (n) => `无法使用${ZH_ROLES[n.role]}“${n.key}”（${n.reason}）。`,
};

/** The words of both languages (tests check every code in each). */
export const NOTICE_TEXTS: Readonly<Record<NoticeLanguage, NoticeTexts>> = { en: EN, zh: ZH };

/** A notice in words, in `lang`. */
export function noticeText(lang: NoticeLanguage, notice: Notice): string {
  // The table is keyed by code, so the function found takes exactly this notice's parameters.
  const f = NOTICE_TEXTS[lang][notice.code] as (n: Notice) => string;
  return f(notice);
}
