/**
 * Strings of the kept recordings (English and Chinese): the History detail pane's player, "Save as WAV"
 * and "Re-transcribe with …", and Settings › Privacy's audio retention. Merged into the table in i18n.ts.
 */

/** English strings of the recordings. */
export const recordingsEn = {
  'recording.title': 'Recording',
  'recording.player': 'Play the recording',
  'recording.none': 'No recording is kept for this record (it was not recorded here, its audio expired or was deleted, or recordings are off).',
  'recording.size': '{seconds} s · {size}',
  'recording.save': 'Save as WAV…',
  'recording.saved': 'Saved to {path}.',
  'recording.retranscribe': 'Re-transcribe with',
  'recording.retranscribe.button': 'Transcribe',
  'recording.retranscribe.running': 'Transcribing…',
  'recording.retranscribe.none': 'No other speech model is installed (Settings › Speech).',
  'recording.remote': '{model} (remote)',
  'recording.result': 'New transcript ({model})',
  'recording.replace': 'Replace the texts',
  'recording.beside': 'Keep both',
  'recording.discard': 'Discard',
  'recording.replaced': 'The record now has the new transcript. “Re-run in mode” enhances it again.',
  'recording.keptBeside': 'Kept as a new record beside this one.',
  'recording.failed': 'Could not transcribe it again: {message}',
  'privacy.audio': 'Keep recordings for (days)',
  'privacy.audio.help': 'The audio of each dictation, to play and transcribe again from History. 0 keeps none.',
  'privacy.audio.usage': 'Kept now: {count} ({size}).',
  'privacy.audio.swept': 'The last clean-up removed {count}.',
} as const;

/** A key of the recordings strings. */
export type RecordingsMessageKey = keyof typeof recordingsEn;

/** Chinese strings of the recordings. */
export const recordingsZh: Readonly<Record<RecordingsMessageKey, string>> = {
  'recording.title': '录音',
  'recording.player': '播放录音',
  'recording.none': '这条记录没有保留录音（不是在这里录的、录音已过期或被删除，或未开启保留录音）。',
  'recording.size': '{seconds} 秒 · {size}',
  'recording.save': '另存为 WAV…',
  'recording.saved': '已保存到 {path}。',
  'recording.retranscribe': '用以下模型重新识别',
  'recording.retranscribe.button': '识别',
  'recording.retranscribe.running': '正在识别…',
  'recording.retranscribe.none': '没有安装其他语音模型（设置 › 语音）。',
  'recording.remote': '{model}（远程）',
  'recording.result': '新的识别结果（{model}）',
  'recording.replace': '替换原文',
  'recording.beside': '两者都保留',
  'recording.discard': '放弃',
  'recording.replaced': '记录已换成新的识别结果。可用“换个模式重新生成”再次润色。',
  'recording.keptBeside': '已作为一条新记录保存在旁边。',
  'recording.failed': '重新识别失败：{message}',
  'privacy.audio': '录音保留天数',
  'privacy.audio.help': '每次听写的音频，可在历史中回放和重新识别。0 表示不保留。',
  'privacy.audio.usage': '当前保留 {count} 条（{size}）。',
  'privacy.audio.swept': '上次清理删除了 {count} 条。',
};
