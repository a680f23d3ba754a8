/** Strings of learning from edits (the panel's and History's proposal, the vocabulary settings), merged into i18n.ts. */

/** English strings of learning from edits. */
export const learningEn = {
  'learning.propose': 'Add {wrong} → {right} to the vocabulary?',
  'learning.add': 'Add',
  'learning.always': 'Always replace',
  'learning.always.help': 'Add the pair and replace “{wrong}” with “{right}” in every dictation from now on',
  'learning.dismiss': 'Not now',
  'learning.added': 'Added {wrong} → {right} to the vocabulary.',
  'learning.addedAlways': 'Added {wrong} → {right}; it is replaced from now on.',
  'learning.addedNoRule': 'Added {wrong} → {right} to the vocabulary (replacement rules are not available yet).',
  'learning.failed': 'Could not add the pair: {message}',
  'learning.region': 'Vocabulary proposal',
  'learning.settings.learn': 'Learn from my edits',
  'learning.settings.learn.help': 'When you correct a name or term in the preview or in History, Tingxie offers to add the pair to the vocabulary.',
  'learning.settings.auto': 'Add a correction automatically once I have made it twice',
  'learning.settings.auto.help': 'The same correction confirmed in two dictations is added without asking.',
} as const;

/** Chinese strings of learning from edits. */
export const learningZh: Readonly<Record<keyof typeof learningEn, string>> = {
  'learning.propose': '把 {wrong} → {right} 加入词库？',
  'learning.add': '加入',
  'learning.always': '总是替换',
  'learning.always.help': '加入词库，并且以后每次听写都把“{wrong}”替换成“{right}”',
  'learning.dismiss': '不用',
  'learning.added': '已把 {wrong} → {right} 加入词库。',
  'learning.addedAlways': '已加入 {wrong} → {right}，以后会自动替换。',
  'learning.addedNoRule': '已把 {wrong} → {right} 加入词库（替换规则暂不可用）。',
  'learning.failed': '无法添加：{message}',
  'learning.region': '词库建议',
  'learning.settings.learn': '从我的修改中学习',
  'learning.settings.learn.help': '在预览或历史记录中改正人名或术语时，听写会提议把这一对加入词库。',
  'learning.settings.auto': '同一处修改做过两次后自动加入',
  'learning.settings.auto.help': '在两次听写中确认过的同一处修改，不再询问，直接加入词库。',
};
