/**
 * UI strings in English and Chinese. The language comes from config `ui.language`; 'system' follows
 * the OS (navigator.language). Pure: no React, no bridge, so it is unit-tested directly.
 */

import { aiEn, aiZh } from './messages-ai.ts';
import { historyEn, historyZh } from './messages-history.ts';
import { learningEn, learningZh } from './messages-learning.ts';
import { onboardingEn, onboardingZh } from './messages-onboarding.ts';
import { recordingsEn, recordingsZh } from './messages-recordings.ts';
import { appRulesEn, appRulesZh } from './messages-app-rules.ts';
import { rulesEn, rulesZh } from './messages-rules.ts';
import { panelEn, panelZh } from './messages-panel.ts';
import { settingsEn, settingsZh } from './messages-settings.ts';

/** A language the UI is translated into. */
export type UiLanguage = 'en' | 'zh';

/** The config setting: a fixed language or 'system'. */
export type UiLanguageSetting = UiLanguage | 'system';

const en = {
  'app.name': 'Tingxie',
  'common.loading': 'Loading…',
  'common.save': 'Save',
  'common.remove': 'Remove',
  'common.on': 'On',
  'common.off': 'Off',
  'common.bridgeMissing': 'This window is not connected to Tingxie (no bridge). Open it from the app.',
  'common.loadFailed': 'Could not load the settings: {message}',
  'error.notANumber': 'Enter a whole number.',
  'error.saveFailed': 'Not saved: {message}',

  'settings.title': 'Tingxie Settings',
  'settings.tabs': 'Settings sections',
  'settings.tab.general': 'General',
  'settings.tab.ai': 'AI',
  'settings.tab.privacy': 'History & privacy',
  'settings.issues.title': 'Some settings in config.json were invalid and were reset to their defaults:',
  'settings.issues.backup': 'The original file was kept as {path}.',
  'settings.saved': 'Saved',

  'general.language': 'Interface language',
  'general.language.system': 'Same as system',
  'general.language.zh': '中文',
  'general.language.en': 'English',
  'general.preview': 'Show preview before output',
  'general.preview.help': 'Review and edit the text before it is pasted.',
  'general.method': 'Output',
  'general.method.paste': 'Paste into the active app',
  'general.method.copy': 'Copy to the clipboard only',
  'general.launchAtLogin': 'Launch at login',
  'general.about': '{name} {version}',

  'ai.enabled': 'Enhance text with an AI model',
  'ai.enabled.help': 'Proofreads or transforms the transcript with the selected mode.',
  'ai.mode': 'Default mode',
  'ai.history.section': 'Conversation history',
  'ai.history.enabled': 'Inject recent confirmed dictations',
  'ai.history.enabled.help': 'Your recent confirmed texts help the model keep names and terms consistent.',
  'ai.history.maxEntries': 'Entries after a rebuild',
  'ai.history.maxEntries.help': 'How many recent dictations the AI sees right after the list starts over.',
  'ai.history.refreshThreshold': 'Rebuild after this many entries',
  'ai.history.refreshThreshold.help': 'Until then new dictations are only added, so the provider can reuse the start of the prompt: cheaper and faster.',
  'ai.history.maxChars': 'Maximum history characters',
  'ai.history.maxChars.help': 'The recent dictations sent to the AI stop at this length.',
  'ai.history.shareProperNouns': 'Use name corrections in every mode',
  'ai.history.shareProperNouns.help': 'A name or product name you corrected in one mode is also suggested in the others (confirmed dictations only).',
  'ai.contextNote': 'Context note',
  'ai.contextNote.help': 'Always sent to the model, e.g. your name, field or preferred spelling.',
  'ai.key.label': 'API key for provider “{provider}”',
  'ai.key.set': 'Set',
  'ai.key.notSet': 'Not set',
  'ai.key.placeholder': 'Paste a new key',
  'ai.key.help': 'Stored by the operating system’s secure storage. It is never shown again.',
  'ai.key.backend.memory': 'No OS keyring is available: the key is kept only until Tingxie quits.',

  'privacy.history': 'Keep a history of dictations',
  'privacy.history.help': 'Stored only on this computer.',
  'privacy.retention': 'Keep history for (days)',
  'privacy.retention.help': '0 keeps everything.',

  'panel.title': 'Tingxie',

  ...historyEn,
  ...settingsEn,
  ...aiEn,
  ...panelEn,
  ...learningEn,
  ...onboardingEn,
  ...recordingsEn,
  ...appRulesEn,
  ...rulesEn,
} as const;

/** A key of the string table. */
export type MessageKey = keyof typeof en;

const zh: Readonly<Record<MessageKey, string>> = {
  'app.name': '听写',
  'common.loading': '正在加载…',
  'common.save': '保存',
  'common.remove': '删除',
  'common.on': '开',
  'common.off': '关',
  'common.bridgeMissing': '此窗口未连接到听写（没有桥接）。请从应用中打开。',
  'common.loadFailed': '无法加载设置：{message}',
  'error.notANumber': '请输入一个整数。',
  'error.saveFailed': '未保存：{message}',

  'settings.title': '听写设置',
  'settings.tabs': '设置分区',
  'settings.tab.general': '通用',
  'settings.tab.ai': 'AI',
  'settings.tab.privacy': '历史与隐私',
  'settings.issues.title': 'config.json 中有些设置无效，已恢复为默认值：',
  'settings.issues.backup': '原文件已保存为 {path}。',
  'settings.saved': '已保存',

  'general.language': '界面语言',
  'general.language.system': '跟随系统',
  'general.language.zh': '中文',
  'general.language.en': 'English',
  'general.preview': '输出前显示预览',
  'general.preview.help': '粘贴之前先检查并编辑文本。',
  'general.method': '输出方式',
  'general.method.paste': '粘贴到当前应用',
  'general.method.copy': '仅复制到剪贴板',
  'general.launchAtLogin': '登录时启动',
  'general.about': '{name} {version}',

  'ai.enabled': '用 AI 模型增强文本',
  'ai.enabled.help': '按所选模式校对或转换识别结果。',
  'ai.mode': '默认模式',
  'ai.history.section': '对话历史',
  'ai.history.enabled': '注入最近确认的听写',
  'ai.history.enabled.help': '最近确认的文本帮助模型保持人名和术语一致。',
  'ai.history.maxEntries': '重建后的条数',
  'ai.history.maxEntries.help': '列表重新开始后，AI 能看到多少条最近的听写。',
  'ai.history.refreshThreshold': '达到多少条后重建',
  'ai.history.refreshThreshold.help': '在此之前新的听写只会追加，服务商可以复用提示词的开头部分，更便宜也更快。',
  'ai.history.maxChars': '历史最大字符数',
  'ai.history.maxChars.help': '发送给 AI 的最近听写最多这么多字。',
  'ai.history.shareProperNouns': '人名等专有名词的纠错在所有模式中通用',
  'ai.history.shareProperNouns.help': '在一个模式中纠正过的人名、产品名，在其他模式中也会作为参考（仅限确认过的听写）。',
  'ai.contextNote': '背景说明',
  'ai.contextNote.help': '每次都会发给模型，例如你的名字、领域或偏好的写法。',
  'ai.key.label': '服务商“{provider}”的 API 密钥',
  'ai.key.set': '已设置',
  'ai.key.notSet': '未设置',
  'ai.key.placeholder': '粘贴新的密钥',
  'ai.key.help': '由操作系统的安全存储保存，之后不会再显示。',
  'ai.key.backend.memory': '没有可用的系统密钥环：密钥只保留到听写退出。',

  'privacy.history': '保存听写历史',
  'privacy.history.help': '只保存在这台电脑上。',
  'privacy.retention': '历史保留天数',
  'privacy.retention.help': '0 表示全部保留。',

  'panel.title': '听写',

  ...historyZh,
  ...settingsZh,
  ...aiZh,
  ...panelZh,
  ...learningZh,
  ...onboardingZh,
  ...recordingsZh,
  ...appRulesZh,
  ...rulesZh,
};

const tables: Readonly<Record<UiLanguage, Readonly<Record<MessageKey, string>>>> = { en, zh };

/** The language to show for a setting; 'system' (or anything unknown) follows `navigatorLanguage`. */
export function resolveLanguage(setting: string | undefined, navigatorLanguage: string | undefined): UiLanguage {
  if (setting === 'zh' || setting === 'en') return setting;
  return (navigatorLanguage ?? '').toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

/** The string for `key` in `lang`, with `{name}` placeholders filled from `vars` (left as-is when absent). */
export function translate(lang: UiLanguage, key: MessageKey, vars: Readonly<Record<string, string | number>> = {}): string {
  return tables[lang][key].replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));
}

/** Every key of the string table (for tests that check both languages are complete). */
export const messageKeys = Object.keys(en) as readonly MessageKey[];

/** The BCP 47 tag to put on `<html lang>` for a UI language. */
export function htmlLang(lang: UiLanguage): string {
  return lang === 'zh' ? 'zh-CN' : 'en';
}
