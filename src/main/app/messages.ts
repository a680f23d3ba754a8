/**
 * The main process's own user-facing strings, in both UI languages: tray labels, the crash-recovery
 * dialog and the start-up error dialogs. Notices are codes (src/shared/notices): main shows them in
 * the tray and dialogs through `noticeMessage`, the windows translate them themselves. Templates use
 * `{name}` placeholders filled by `format`, so a test can check that both languages have every key
 * and the same placeholders.
 */
import type { UiLanguage } from '../../shared/ipc/wire-types.ts';
import type { Notice } from '../../shared/notices/notice.ts';
import { noticeText } from '../../shared/notices/notice-text.ts';
import { DEFAULT_TRAY_LABELS, type TrayLabels } from './tray-menu.ts';

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
  /** Start-up failures (error dialogs shown before or without the windows). */
  readonly startup: {
    readonly failedTitle: string;
    readonly lockedTitle: string;
    /** `{dir}`, `{error}`. */
    readonly lockFailed: string;
    readonly dictationUnavailableTitle: string;
  };
}

const ZH_TRAY: TrayLabels = {
  setupNeeded: '需要设置',
  startDictation: '开始听写',
  stopDictation: '结束听写',
  startWithKey: '开始听写（或按住 {key}）',
  setup: '设置向导…',
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
  pasteLast: '粘贴上一次听写',
  copyLast: '复制上一次听写',
  reopenLast: '重新打开上一次预览',
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
    startup: {
      failedTitle: 'Tingxie could not start',
      lockedTitle: 'Tingxie is already using this data folder',
      lockFailed: 'Cannot lock the data folder {dir}: {error}',
      dictationUnavailableTitle: 'Tingxie: dictation is unavailable',
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
    startup: {
      failedTitle: 'Tingxie 无法启动',
      lockedTitle: 'Tingxie 已在使用这个数据文件夹',
      lockFailed: '无法锁定数据文件夹 {dir}：{error}',
      dictationUnavailableTitle: 'Tingxie：听写不可用',
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

/** A notice in the UI language (the tray, dialogs and logs of main; the windows translate their own). */
export function noticeMessage(notice: Notice, lang: UiLanguage): string {
  return noticeText(lang, notice);
}
