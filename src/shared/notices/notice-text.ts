/**
 * The words of every notice code in both UI languages. Shared by the places that show notices — the
 * renderer windows (panel, indicator) and main's shells (tray, dialogs) — so a code is translated once.
 * The tables are typed as one function per code: a code without words in either language does not
 * compile, and test/unit/shared/notice-text.test.ts checks every code at run time too.
 */
import { speechModelName } from '../speech-model-name.ts';
import type { HotkeyRole, Notice, NoticeCode, NoticeOf, ProviderRefusal } from './notice.ts';
import { enUnreadHistory, zhUnreadHistory } from './unread-history-text.ts';

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
  'enhance-selection shortcut': 'enhance-selection shortcut',
  'paste-last shortcut': 'paste-last shortcut',
  'copy-last shortcut': 'copy-last shortcut',
  'reopen-last shortcut': 'reopen-last-preview shortcut',
};
const ZH_ROLES: Readonly<Record<HotkeyRole, string>> = {
  'dictation key': '听写键',
  'cancel key': '取消键',
  'restart key': '重新开始键',
  'previous-mode key': '上一个模式键',
  'next-mode key': '下一个模式键',
  'enhance-selection shortcut': '增强选中文字的快捷键',
  'paste-last shortcut': '粘贴上一次听写的快捷键',
  'copy-last shortcut': '复制上一次听写的快捷键',
  'reopen-last shortcut': '重新打开上一次预览的快捷键',
};

const EN: NoticeTexts = {
  busy: () => 'Still working on the last dictation: confirm or cancel it first.',
  'mode-changed': (n) => `Mode: ${n.mode}`,
  'mode-by-rule': (n) => `By app: ${n.rule} → ${n.label ?? n.mode}`,
  'max-recording': () => 'Maximum recording length reached.',
  'nothing-recognized': () => 'Nothing was recognized.',
  'silence-discarded': (n) => `No speech detected${enWhy(n.reason)}.`,
  'asr-failed': (n) => `Transcription failed${enWhy(n.reason)}. The recording is kept: press Retry in the panel, or use “Retry Last Dictation” in the tray menu.`,
  'speech-model-missing': (n) => `No speech model is installed yet: download "${speechModelName(n.model, 'en')}" in Settings › Speech, or choose a cloud engine there. Anything you dictated meanwhile is kept: press Retry in the panel (or “Retry Last Dictation” in the tray menu) afterwards.`,
  'asr-timeout': () => 'Transcription took too long. The recording is kept: press Retry in the panel, or use “Retry Last Dictation” in the tray menu.',
  'llm-fallback': (n) => (n.refusal ? `Enhancement failed, using the raw transcript. ${providerRefusalText('en', n.refusal)}` : `Enhancement failed${enWhy(n.reason)}: using the raw transcript.`),
  'llm-guarded': (n) => `Enhancement looked wrong${enWhy(n.reason)}: using the raw transcript.`,
  'preview-timeout': () => 'The preview waited too long and was closed; reopen it from the menu.',
  'paste-failed': (n) => `Could not paste${n.app ? ` into ${n.app}` : ''}${enWhy(n.reason)}: the text is on the clipboard, paste it yourself.`,
  'paste-timeout': () => 'The paste did not finish in time: the text is on the clipboard, paste it yourself.',
  'copy-failed': (n) => `Could not put the text on the clipboard${enWhy(n.reason)}.`,
  'step-failed': (n) => `A dictation step failed${enWhy(n.reason)}.`,
  'history-save-failed': (n) => `The dictation could not be saved to history${enWhy(n.reason)}.`,
  'history-degraded': (n) =>
    `${n.state === 'read-only' ? 'The data folder is read-only' : 'History cannot be saved right now'}${enWhy(n.reason)}. You can still browse history and dictate (the text is pasted); ${n.pending > 0 ? `${n.pending} new record(s) are` : 'new records are'} kept in memory and saved as soon as the disk accepts them. They are lost if Tingxie quits first.`,
  'history-unreadable': (n) => `Some history could not be read and is not shown: ${enUnreadHistory(n.problems)}. Everything else is shown; see the log for details.`,
  'vocabulary-degraded': (n) => {
    const kept = n.copy !== null ? ` The damaged file is kept at ${n.copy}.` : '';
    const what = {
      repaired: `Your vocabulary file was damaged${enWhy(n.reason)}. Tingxie started a new one with the ${n.salvaged} pair(s) it could still read.${kept}`,
      unavailable: `Your vocabulary file could not be opened or repaired${enWhy(n.reason)}. Tingxie uses the ${n.salvaged} pair(s) it could still read, but new pairs are not saved.${kept}`,
      'read-only': `Your vocabulary file cannot be changed${enWhy(n.reason)}. Tingxie still uses your pairs, but new pairs and corrections are not saved.`,
    }[n.state];
    return `${what} Dictation works as usual.`;
  },
  'mode-invalid': (n) => `The mode file ${n.file}${n.line !== null ? ` (line ${n.line})` : ''} is invalid: ${n.reason}. Using the built-in ${n.fallback} mode until it is fixed.`,
  'recovery-no-audio': () => 'That dictation had no audio left to recover.',
  'microphone-error': (n) => `The microphone is not working${enWhy(n.reason)}.`,
  'select-first': () => 'Select some text first: nothing was copied from the focused app.',
  'copy-selection-failed': (n) => `Could not copy the selected text${enWhy(n.reason)}.`,
  'no-retry': () => 'There is no failed dictation to retry.',
  'no-last-dictation': () => 'There is no dictation yet to paste, copy or reopen.',
  'mode-switch-failed': (n) => `Could not switch the mode${enWhy(n.reason)}.`,
  'setting-save-failed': (n) => `Could not save the setting${enWhy(n.reason)}.`,
  'launch-at-login-failed': (n) => `Could not change "launch at login"${enWhy(n.reason)}.`,
  'permission-microphone': () => 'Tingxie cannot use the microphone. Allow it in System Settings → Privacy & Security → Microphone, then restart Tingxie.',
  'permission-accessibility': () =>
    'Tingxie needs the Accessibility permission to see the hold-to-talk key and to paste into other apps. Allow it in System Settings → Privacy & Security → Accessibility (after an update, remove Tingxie there and add it again), then restart Tingxie.',
  'hook-unavailable': (n) => {
    const why = {
      wayland: "Hold-to-talk needs X11 or XWayland: this Wayland session exposes no DISPLAY. Use the toggle shortcut instead (through the desktop's global shortcuts portal, where it has one), or enable XWayland.",
      'wayland-partial': 'In this Wayland session hold-to-talk only works while an X11 (XWayland) app has focus, and the recording keys are not consumed.',
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
  'mode-by-rule': (n) => `按应用：${n.rule} → ${n.label ?? n.mode}`,
  'max-recording': () => '已达到最长录音时间。',
  'nothing-recognized': () => '没有识别到任何内容。',
  'silence-discarded': (n) => `没有检测到语音${zhWhy(n.reason)}。`,
  'asr-failed': (n) => `语音识别失败${zhWhy(n.reason)}。录音已保留：可点面板中的“重试”，或托盘菜单中的“重试上一次听写”。`,
  'speech-model-missing': (n) => `还没有安装语音模型：请在“设置 › 语音”中下载“${speechModelName(n.model, 'zh')}”，或在那里改用云端识别。期间的听写录音都已保留，装好后可点面板中的“重试”（或托盘菜单中的“重试上一次听写”）。`,
  'asr-timeout': () => '语音识别耗时过长。录音已保留：可点面板中的“重试”，或托盘菜单中的“重试上一次听写”。',
  'llm-fallback': (n) => (n.refusal ? `AI 润色失败，已改用原始识别文本。${providerRefusalText('zh', n.refusal)}` : `AI 润色失败${zhWhy(n.reason)}：改用原始识别文本。`),
  'llm-guarded': (n) => `AI 的回答看起来不对${zhWhy(n.reason)}：改用原始识别文本。`,
  'preview-timeout': () => '预览等待过久，已关闭；可从菜单重新打开。',
  'paste-failed': (n) => `无法粘贴${n.app ? `到 ${n.app}` : ''}${zhWhy(n.reason)}：文字已在剪贴板上，请手动粘贴。`,
  'paste-timeout': () => '粘贴未能及时完成：文字已在剪贴板上，请手动粘贴。',
  'copy-failed': (n) => `无法把文字放到剪贴板上${zhWhy(n.reason)}。`,
  'step-failed': (n) => `听写的某个步骤失败了${zhWhy(n.reason)}。`,
  'history-save-failed': (n) => `这次听写未能保存到历史记录${zhWhy(n.reason)}。`,
  'history-degraded': (n) =>
    `${n.state === 'read-only' ? '数据文件夹是只读的' : '历史记录暂时无法保存'}${zhWhy(n.reason)}。仍可浏览历史并继续听写（文字照常粘贴）；${n.pending > 0 ? `${n.pending} 条新记录` : '新记录'}暂存在内存中，磁盘可写后立即保存。若在此之前退出 Tingxie，这些记录会丢失。`,
  'history-unreadable': (n) => `部分历史记录无法读取，未显示：${zhUnreadHistory(n.problems)}。其余记录照常显示；详情见日志。`,
  'vocabulary-degraded': (n) => {
    const kept = n.copy !== null ? `损坏的文件保留在 ${n.copy}。` : '';
    const what = {
      repaired: `词库文件已损坏${zhWhy(n.reason)}。Tingxie 新建了一个词库，放入仍能读出的 ${n.salvaged} 个词条。${kept}`,
      unavailable: `词库文件无法打开或修复${zhWhy(n.reason)}。Tingxie 使用仍能读出的 ${n.salvaged} 个词条，但新词条不会保存。${kept}`,
      'read-only': `词库文件无法修改${zhWhy(n.reason)}。Tingxie 仍会使用你的词条，但新词条和纠正不会保存。`,
    }[n.state];
    return `${what}听写照常进行。`;
  },
  'mode-invalid': (n) => `模式文件 ${n.file}${n.line !== null ? `（第 ${n.line} 行）` : ''}有误：${n.reason}。修正之前改用内置的“${n.fallback}”模式。`,
  'recovery-no-audio': () => '这次听写已没有可恢复的录音。',
  'microphone-error': (n) => `麦克风无法工作${zhWhy(n.reason)}。`,
  'select-first': () => '请先选中文字：没有从当前应用复制到任何内容。',
  'copy-selection-failed': (n) => `无法复制选中的文字${zhWhy(n.reason)}。`,
  'no-retry': () => '没有可以重试的失败听写。',
  'no-last-dictation': () => '还没有可以粘贴、复制或重新打开的听写。',
  'mode-switch-failed': (n) => `无法切换模式${zhWhy(n.reason)}。`,
  'setting-save-failed': (n) => `无法保存设置${zhWhy(n.reason)}。`,
  'launch-at-login-failed': (n) => `无法更改“登录时启动”${zhWhy(n.reason)}。`,
  'permission-microphone': () => 'Tingxie 无法使用麦克风。请在“系统设置 → 隐私与安全性 → 麦克风”中允许，然后重新启动 Tingxie。',
  'permission-accessibility': () =>
    'Tingxie 需要“辅助功能”权限才能识别按住说话的按键并粘贴到其他应用。请在“系统设置 → 隐私与安全性 → 辅助功能”中允许（更新后请先移除 Tingxie 再重新添加），然后重新启动 Tingxie。',
  'hook-unavailable': (n) => {
    const why = {
      wayland: '按住说话需要 X11 或 XWayland：当前 Wayland 会话没有 DISPLAY。请改用切换快捷键（桌面提供全局快捷键门户时通过门户注册），或启用 XWayland。',
      'wayland-partial': '在当前 Wayland 会话中，只有 X11（XWayland）应用处于焦点时按住说话才有效，录音时的按键也不会被拦截。',
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

/**
 * What a provider refused and what to change, in one sentence of `lang` (the notice of a failed
 * enhancement, Settings' Verify). Fields, model names and the provider's own message stay as they are.
 */
export function providerRefusalText(lang: NoticeLanguage, r: ProviderRefusal): string {
  const en = lang === 'en';
  const said = r.providerMessage ? (en ? ` (“${r.providerMessage}”)` : `（“${r.providerMessage}”）`) : '';
  switch (r.kind) {
    case 'unknown-field':
      return en
        ? `The provider does not accept ${r.field ? `the field “${r.field}”` : 'a field of the request'}: choose the right provider type in Settings › AI, or remove the field in extra_body.`
        : `服务商不接受${r.field ? `字段“${r.field}”` : '请求中的某个字段'}：请在“设置 › AI”中选择正确的服务商类型，或在 extra_body 中删除该字段。`;
    case 'bad-model':
      return en
        ? `The model ${r.model ? `“${r.model}” ` : ''}is not available: choose a current model in Settings › AI.`
        : `模型名${r.model ? `“${r.model}”` : ''}不可用：请在“设置 › AI”中选择当前的模型。`;
    case 'auth':
      return en ? 'The provider refused the API key: check the key in Settings › AI.' : '服务商拒绝了 API 密钥：请在“设置 › AI”中检查密钥。';
    case 'quota':
      return en
        ? 'The provider account has no balance or quota left: top it up with the provider, or choose another provider in Settings › AI.'
        : '服务商账户余额或额度不足：请到服务商处充值，或在“设置 › AI”中换一个服务商。';
    case 'rate-limit':
      return en
        ? 'The provider is limiting the request rate: wait a moment and dictate again, or choose another model in Settings › AI.'
        : '服务商限制了请求频率：请稍等片刻再听写，或在“设置 › AI”中换一个模型。';
    case 'context-too-long':
      return en
        ? 'The request is too long for the model’s context: turn the history down in Settings › AI, or choose a model with a longer context.'
        : '请求超出了模型的上下文长度：请在“设置 › AI”中减少历史记录，或换用上下文更长的模型。';
    case 'bad-parameter':
      return en
        ? `The provider does not accept ${r.field ? `the value of “${r.field}”` : 'a value in the request'}: choose the right provider type in Settings › AI, or change the value in extra_body.`
        : `服务商不接受${r.field ? `“${r.field}”的取值` : '请求中的某个取值'}：请在“设置 › AI”中选择正确的服务商类型，或在 extra_body 中修改该值。`;
    case 'server':
      return en ? `The provider had a server error${said}: try again later.` : `服务商出现服务器错误${said}：请稍后再试。`;
    case 'other':
      return en ? `The provider refused the request${said}: check the provider in Settings › AI.` : `服务商拒绝了请求${said}：请检查“设置 › AI”中的服务商设置。`;
    default: {
      const never: never = r.kind;
      return never;
    }
  }
}

/** The words of both languages (tests check every code in each). */
export const NOTICE_TEXTS: Readonly<Record<NoticeLanguage, NoticeTexts>> = { en: EN, zh: ZH };

/** A notice in words, in `lang`. */
export function noticeText(lang: NoticeLanguage, notice: Notice): string {
  // The table is keyed by code, so the function found takes exactly this notice's parameters.
  const f = NOTICE_TEXTS[lang][notice.code] as (n: Notice) => string;
  return f(notice);
}
