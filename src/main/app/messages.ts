/**
 * The main process's own user-facing strings, in both UI languages: tray labels, the crash-recovery
 * dialog and the notices main sends (`app:notice`, dictation notices). Kept apart from the renderer's
 * i18n, which main cannot import. Templates use `{name}` placeholders filled by `format`, so a test can
 * check that both languages have every key and the same placeholders.
 */
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import { DEFAULT_TRAY_LABELS, type TrayLabels } from './tray-menu.ts';

/** The roles a hotkey problem names (from hotkey-router's bindingsFromConfig). */
export type HotkeyRole = 'dictation key' | 'cancel key' | 'restart key' | 'previous-mode key' | 'next-mode key';

/** Every string main shows, for one language. */
export interface MainMessages {
  readonly tray: TrayLabels;
  readonly recovery: {
    readonly title: string;
    readonly message: string;
    readonly finish: string;
    readonly discard: string;
    readonly later: string;
    /** What was kept when there is no transcript yet: `{seconds}`. */
    readonly audio: string;
    /** `{what}` (quoted text or the audio line), `{when}` (ISO time). */
    readonly detailOne: string;
    /** As detailOne, plus `{more}` further sessions. */
    readonly detailMore: string;
  };
  readonly notices: {
    readonly selectFirst: string;
    readonly copySelectionFailed: string;
    readonly noRetry: string;
    readonly modeSwitchFailed: string;
    readonly settingSaveFailed: string;
    readonly launchAtLoginFailed: string;
    readonly permissionMicrophone: string;
    readonly permissionAccessibility: string;
    readonly hookWayland: string;
    readonly hookNoDisplay: string;
    /** Any other hook failure: `{error}` is the technical reason. */
    readonly hookFailed: string;
    /** Appended to a hook failure when the toggle shortcut works: `{accelerator}`. */
    readonly toggleWorks: string;
    /** `{error}` (toggleTaken or toggleInvalid). */
    readonly toggleFailed: string;
    /** `{accelerator}`. */
    readonly toggleTaken: string;
    /** `{accelerator}`, `{error}` (Electron's reason). */
    readonly toggleInvalid: string;
    /** `{role}`, `{key}`, `{error}`. */
    readonly keyProblem: string;
    readonly roles: Readonly<Record<HotkeyRole, string>>;
    /** A failed paste; the text stays on the clipboard. `{detail}` is the technical reason. */
    readonly pasteFailed: string;
  };
}

const ZH_TRAY: TrayLabels = {
  status: {
    idle: '就绪',
    recording: '正在聆听…',
    transcribing: '正在识别…',
    enhancing: '正在润色…',
    preview: '等待确认',
    error: '出错了',
  },
  downloading: '正在下载 {name}… {percent}%',
  mode: '增强模式',
  toggles: { enhance: 'AI 增强', preview: '粘贴前预览', history: '参考最近的听写', vocabulary: '使用词库' },
  enhanceSelection: '增强选中的文字',
  retryLast: '重试上一次听写',
  settings: '设置…',
  history: '历史记录…',
  openLogs: '打开日志文件夹',
  quit: '退出 Tingxie',
  tooltip: 'Tingxie',
};

/** The strings of both languages. */
export const MAIN_MESSAGES: Readonly<Record<UiLanguage, MainMessages>> = {
  en: {
    tray: DEFAULT_TRAY_LABELS,
    recovery: {
      title: 'Unfinished dictation',
      message: 'A dictation was interrupted before it was delivered.',
      finish: 'Finish It',
      discard: 'Discard',
      later: 'Decide Later',
      audio: '{seconds} s of audio',
      detailOne: '{what} ({when}) was kept. It also stays in History until you decide.',
      detailMore: '{what} ({when}) was kept. {more} more can be finished or discarded in History.',
    },
    notices: {
      selectFirst: 'Select some text first: nothing was copied from the focused app.',
      copySelectionFailed: 'Could not copy the selected text: {error}',
      noRetry: 'There is no failed dictation to retry.',
      modeSwitchFailed: 'Could not switch the mode: {error}',
      settingSaveFailed: 'Could not save the setting: {error}',
      launchAtLoginFailed: 'Could not change "launch at login": {error}',
      permissionMicrophone: 'Tingxie cannot use the microphone. Allow it in System Settings → Privacy & Security → Microphone, then restart Tingxie.',
      permissionAccessibility:
        'Tingxie needs the Accessibility permission to see the hold-to-talk key and to paste into other apps. Allow it in System Settings → Privacy & Security → Accessibility (after an update, remove Tingxie there and add it again), then restart Tingxie.',
      hookWayland: 'Hold-to-talk needs X11 or XWayland: this Wayland session exposes no DISPLAY. Use the toggle shortcut instead, or enable XWayland.',
      hookNoDisplay: 'Hold-to-talk needs a graphical session (no DISPLAY is set).',
      hookFailed: 'Hold-to-talk is unavailable: {error}',
      toggleWorks: ' The toggle shortcut {accelerator} works meanwhile.',
      toggleFailed: 'The toggle shortcut could not be registered: {error}. Choose another one in Settings.',
      toggleTaken: '{accelerator} is already used by another app or by the system',
      toggleInvalid: '{accelerator} is not a valid shortcut: {error}',
      keyProblem: "Cannot use the {role} '{key}': {error}",
      roles: { 'dictation key': 'dictation key', 'cancel key': 'cancel key', 'restart key': 'restart key', 'previous-mode key': 'previous-mode key', 'next-mode key': 'next-mode key' },
      pasteFailed: 'Could not paste: the text is on the clipboard, paste it yourself. ({detail})',
    },
  },
  zh: {
    tray: ZH_TRAY,
    recovery: {
      title: '未完成的听写',
      message: '有一次听写在送达之前被中断了。',
      finish: '完成它',
      discard: '丢弃',
      later: '稍后决定',
      audio: '{seconds} 秒录音',
      detailOne: '{what}（{when}）已保留。在你决定之前，它也一直保留在历史记录中。',
      detailMore: '{what}（{when}）已保留。另有 {more} 条可在历史记录中完成或丢弃。',
    },
    notices: {
      selectFirst: '请先选中文字：没有从当前应用复制到任何内容。',
      copySelectionFailed: '无法复制选中的文字：{error}',
      noRetry: '没有可以重试的失败听写。',
      modeSwitchFailed: '无法切换模式：{error}',
      settingSaveFailed: '无法保存设置：{error}',
      launchAtLoginFailed: '无法更改“登录时启动”：{error}',
      permissionMicrophone: 'Tingxie 无法使用麦克风。请在“系统设置 → 隐私与安全性 → 麦克风”中允许，然后重新启动 Tingxie。',
      permissionAccessibility:
        'Tingxie 需要“辅助功能”权限才能识别按住说话的按键并粘贴到其他应用。请在“系统设置 → 隐私与安全性 → 辅助功能”中允许（更新后请先移除 Tingxie 再重新添加），然后重新启动 Tingxie。',
      hookWayland: '按住说话需要 X11 或 XWayland：当前 Wayland 会话没有 DISPLAY。请改用切换快捷键，或启用 XWayland。',
      hookNoDisplay: '按住说话需要图形会话（未设置 DISPLAY）。',
      hookFailed: '按住说话不可用：{error}',
      toggleWorks: ' 在此期间可以使用切换快捷键 {accelerator}。',
      toggleFailed: '无法注册切换快捷键：{error}。请在设置中换一个。',
      toggleTaken: '{accelerator} 已被其他应用或系统占用',
      toggleInvalid: '{accelerator} 不是有效的快捷键：{error}',
      keyProblem: '无法使用{role}“{key}”：{error}',
      roles: { 'dictation key': '听写键', 'cancel key': '取消键', 'restart key': '重新开始键', 'previous-mode key': '上一个模式键', 'next-mode key': '下一个模式键' },
      pasteFailed: '无法粘贴：文字已在剪贴板上，请手动粘贴。（{detail}）',
    },
  },
};

/** The strings for a UI language. */
export function messagesFor(lang: UiLanguage): MainMessages {
  return MAIN_MESSAGES[lang];
}

/** Fills `{name}` placeholders; unknown placeholders stay as they are (a visible bug, not a crash). */
export function format(template: string, vars: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** The message for a key-hook failure (key-hook.ts reports English reasons; the known ones have their own text). */
export function hookErrorMessage(error: string, m: MainMessages): string {
  if (/Wayland session exposes no DISPLAY/.test(error)) return m.notices.hookWayland;
  if (/no DISPLAY is set/.test(error)) return m.notices.hookNoDisplay;
  return format(m.notices.hookFailed, { error });
}

/** The role's words, or the role itself when hotkey-router adds one this table does not know yet. */
export function roleName(role: string, m: MainMessages): string {
  return (m.notices.roles as Readonly<Record<string, string>>)[role] ?? role;
}

/**
 * A dictation notice from the controller in the UI language. The controller's paste failure
 * ("Could not paste …: the text is on the clipboard") is the one a user must understand at once;
 * other notices pass through unchanged.
 */
export function localizeDictationNotice(message: string, m: MainMessages, lang: UiLanguage): string {
  if (lang === 'en') return message;
  if (/^Could not paste/.test(message)) return format(m.notices.pasteFailed, { detail: message });
  return message;
}
