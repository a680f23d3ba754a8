/**
 * Validation problems from the config schema (zod issue codes, sent with each issue by main) as sentences
 * in the UI language, naming the field when the caller knows its label. The library's own English words
 * are used only in the English UI, for codes this table does not know.
 */
import type { BridgeIssue } from '../../shared/ipc/bridge-types.ts';
import type { UiLanguage } from './i18n.ts';

type Pair = readonly [en: string, zh: string];

/** The sentence's subject: the field's label in quotes, or "the value" when there is no label. */
function subject(field: string | undefined, lang: UiLanguage): string {
  if (field === undefined || field === '') return lang === 'zh' ? '该值' : 'The value';
  return `“${field}”`;
}

const typeNames: Readonly<Record<string, Pair>> = {
  number: ['a number', '数字'],
  int: ['a whole number', '整数'],
  string: ['text', '文字'],
  boolean: ['on or off', '开或关'],
};

function bounded(issue: BridgeIssue, lang: UiLanguage, who: string): string | null {
  const n = issue.limit;
  if (n === undefined) return null;
  const small = issue.code === 'too_small';
  const strict = issue.inclusive === false;
  const zh = lang === 'zh';
  if (issue.origin === 'string') {
    if (small && n <= 1) return zh ? `${who}不能为空。` : `${who} must not be empty.`;
    return zh ? `${who}${small ? '至少' : '最多'} ${n} 个字符。` : `${who} must be ${small ? 'at least' : 'at most'} ${n} characters.`;
  }
  if (issue.origin === 'array' || issue.origin === 'set') {
    return zh ? `${who}${small ? '至少' : '最多'} ${n} 项。` : `${who} must have ${small ? 'at least' : 'at most'} ${n} items.`;
  }
  if (small) return zh ? `${who}${strict ? `必须大于 ${n}` : `不能小于 ${n}`}。` : `${who} must be ${strict ? 'greater than' : 'at least'} ${n}.`;
  return zh ? `${who}${strict ? `必须小于 ${n}` : `不能大于 ${n}`}。` : `${who} must be ${strict ? 'less than' : 'at most'} ${n}.`;
}

/** One issue as a sentence in `lang`; `field` is the label of the field it is about, when known. */
export function validationText(issue: BridgeIssue, lang: UiLanguage, field?: string): string {
  const zh = lang === 'zh';
  const who = subject(field, lang);
  switch (issue.code) {
    case 'too_small':
    case 'too_big': {
      const text = bounded(issue, lang, who);
      if (text !== null) return text;
      break;
    }
    case 'invalid_type': {
      const t = typeNames[issue.expected ?? ''];
      if (t !== undefined) return zh ? `${who}必须是${t[1]}。` : `${who} must be ${t[0]}.`;
      return zh ? `${who}的类型不对。` : `${who} has the wrong type.`;
    }
    case 'invalid_value':
      return zh ? `${who}必须是列表中的一项。` : `${who} must be one of the listed choices.`;
    case 'invalid_format':
      return zh ? `${who}的格式不对。` : `${who} is not in the expected format.`;
    case 'not_multiple_of':
      return zh ? `${who}不是允许的数值。` : `${who} is not an allowed number.`;
    case 'unrecognized_keys':
      return zh ? '这个设置项不存在。' : 'This setting does not exist.';
    default:
      break;
  }
  // A code this table does not know (a custom rule): its own words in English; in Chinese a plain sentence.
  return zh ? `${who}的值无效。` : issue.message;
}

/** Every distinct sentence for `issues` (the ones about `keyPath` first), joined for one field's error line. */
export function validationTexts(issues: readonly BridgeIssue[], lang: UiLanguage, keyPath: string, field?: string): string {
  const own = issues.filter((i) => i.path === keyPath);
  const list = own.length > 0 ? own : issues;
  return [...new Set(list.map((i) => validationText(i, lang, i.path === keyPath ? field : undefined)))].join(lang === 'zh' ? '' : ' ');
}
