import fs from 'node:fs';
import path from 'node:path';
import type { HistoryRecord } from '../../src/shared/history/record.ts';
import { mulberry32 } from '../../test/helpers/seeded-random.ts';

/**
 * Seeded generator of realistic dictation history: mixed Chinese/English sentences with recurring
 * proper nouns (Zipf-distributed, so some are common and many rare), ASR misspellings that the user
 * corrected, several modes and models, timestamps spread over ~4 years. Written as WenZi/Tingxie JSONL:
 * the newest 20,000 records in the active file, the rest in monthly archives. Cached by seed + N.
 */

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤';
const GIVEN = '伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红鹏辉建国志成海波宁飞斌晨雪琳';
const SYLL = '云山海星河川林风雨雷光明晨曦宇宙天地青松竹梅兰菊';
const EN_ROOTS = ['Kestrel', 'Orion', 'Falcon', 'Nimbus', 'Aurora', 'Vertex', 'Quasar', 'Zephyr', 'Helix', 'Nova', 'Pylon', 'Cobalt', 'Juniper', 'Sierra', 'Tundra'];
const TECH = ['GitHub', 'TypeScript', 'Kubernetes', 'WenZi', 'Electron', 'SQLite', 'React', 'Docker', 'PostgreSQL', 'Figma', 'Slack', 'Notion', 'Jira', 'macOS', 'iPhone'];
const CLAUSES = [
  '今天在公园里遇到了{n}', '明天上午十点和{n}开会讨论{p}的项目进度', '帮我给{n}发一封邮件说{p}已经上线了', '周末去{place}吃饭的时候记得带上{n}',
  '我们今天把{t}的配置改好了', '会议纪要已经发到群里了', '{n}说{p}的需求还要再确认一下', '没问题我下午三点前把{t}的文档整理好',
  '这个 bug 在 {t} 上可以复现', '请把 {p} 的 PR 合并到主分支', '下周一之前提交{p}的预算表', '{n}对果果说我今天吃了面条',
];
const EN_CLAUSES = [
  'let us schedule a meeting with {n} about {p}', 'the {t} build is failing again on CI', 'please review the {p} design doc before Friday',
  'ok sounds good, I will ping {n} on Slack', 'remind me to update the {t} dependencies tomorrow morning',
];
const PLACES = ['公园', '海底捞', '西湖边', '公司楼下', '万达广场', '老地方'];
const MODES = ['proofread', 'proofread', 'proofread', 'translate', 'polish', 'email', 'off'];
const STT = ['whisper-base', 'whisper-small', 'funasr-paraformer', 'remote-whisper-1'];
const LLM = ['qwen2.5:7b', 'gpt-4o-mini', 'deepseek-v4-flash', '']; // deepseek-chat was retired on 2026-07-24
/** Homophone confusions ASR makes on names; the final text carries the right one. */
const CONFUSE: Record<string, string> = { 萍: '平', 芳: '方', 静: '晶', 娜: '那', 丽: '立', 伟: '为', 明: '名', 杰: '洁' };

/** Vocabulary shared by the generator and the benchmark queries. */
export interface Vocabulary {
  readonly names: readonly string[];
  readonly projects: readonly string[];
}

/** Builds the deterministic vocabulary (names Zipf-ranked: index 0 is the most frequent). */
export function vocabulary(seed: number): Vocabulary {
  const r = mulberry32(seed ^ 0x5eed);
  const names = ['萍萍', '果果'];
  const seen = new Set(names);
  while (names.length < 3000) {
    const s = SURNAMES[Math.floor(r() * SURNAMES.length)] ?? '王';
    const g1 = GIVEN[Math.floor(r() * GIVEN.length)] ?? '伟';
    const g2 = r() < 0.6 ? (GIVEN[Math.floor(r() * GIVEN.length)] ?? '') : '';
    const n = s + g1 + g2;
    if (!seen.has(n)) {
      seen.add(n);
      names.push(n);
    }
  }
  const projects: string[] = [];
  const pseen = new Set<string>();
  while (projects.length < 5000) {
    const p = r() < 0.5
      ? `${SYLL[Math.floor(r() * SYLL.length)]}${SYLL[Math.floor(r() * SYLL.length)]}${SYLL[Math.floor(r() * SYLL.length)]}计划`
      : `${EN_ROOTS[Math.floor(r() * EN_ROOTS.length)]}${Math.floor(r() * 900 + 100)}`;
    if (!pseen.has(p)) {
      pseen.add(p);
      projects.push(p);
    }
  }
  return { names, projects };
}

/** Zipf-ish pick: rank ~ n^(u^k) leaves a long tail of rare items. */
function zipf(r: () => number, n: number): number {
  return Math.min(n - 1, Math.floor(Math.pow(n, r() ** 1.6)) - 1);
}

function fill(tpl: string, r: () => number, v: Vocabulary): string {
  return tpl
    .replace('{n}', v.names[zipf(r, v.names.length)] ?? '萍萍')
    .replace('{p}', v.projects[zipf(r, v.projects.length)] ?? 'Orion100')
    .replace('{t}', TECH[Math.floor(r() * TECH.length)] ?? 'GitHub')
    .replace('{place}', PLACES[Math.floor(r() * PLACES.length)] ?? '公园');
}

/** Generates record i of the series (timestamps ascending, ~4 years ending 2026-01-01). */
function makeRecord(i: number, n: number, r: () => number, v: Vocabulary): HistoryRecord {
  const end = Date.UTC(2026, 0, 1);
  const span = 4 * 365 * 86_400_000;
  const ts = end - span + Math.floor(((i + r() * 0.9) / n) * span);
  const parts: string[] = [];
  const k = 1 + Math.floor(r() * 2.2);
  for (let j = 0; j < k; j++) {
    const en = r() < 0.25;
    const pool = en ? EN_CLAUSES : CLAUSES;
    parts.push(fill(pool[Math.floor(r() * pool.length)] ?? '', r, v));
  }
  const final = parts.join('，') + '。';
  const corrected = r() < 0.15;
  const asr = corrected ? final.replace(/[萍芳静娜丽伟明杰]/, (c) => CONFUSE[c] ?? c).replace('。', '') : final.replace('。', '');
  const mode = MODES[Math.floor(r() * MODES.length)] ?? 'proofread';
  const enhanced = mode === 'off' ? null : asr + '。';
  const outcome = r() < 0.05 ? 'cancelled' : 'confirmed';
  const prompt = mode === 'off' ? 0 : 800 + Math.floor(r() * 900);
  return {
    id: `B${i.toString(36).padStart(10, '0')}`,
    timestamp: new Date(ts).toISOString(),
    asr_text: asr,
    enhanced_text: enhanced,
    final_text: final,
    enhance_mode: mode,
    preview_enabled: r() < 0.7,
    stt_model: STT[Math.floor(r() * STT.length)] ?? '',
    llm_model: mode === 'off' ? '' : (LLM[Math.floor(r() * LLM.length)] ?? ''),
    user_corrected: corrected,
    audio_duration: Math.round((1 + r() * 14) * 10) / 10,
    language: 'zh',
    source: 'voice',
    outcome,
    ...(prompt > 0 ? { usage: { prompt_tokens: prompt, completion_tokens: 20 + Math.floor(r() * 80), cached_tokens: Math.floor(prompt * r()) } } : {}),
  };
}

/** Where a dataset lives and what it contains. */
export interface Dataset {
  readonly dataDir: string;
  readonly n: number;
  readonly seed: number;
  readonly vocab: Vocabulary;
  readonly files: number;
  readonly bytes: number;
}

/** Generates (or reuses from bench/.cache) a data folder with n records. */
export function ensureDataset(n: number, seed: number, cacheRoot: string, activeMax = 20_000): Dataset {
  const dataDir = path.join(cacheRoot, `history-s${seed}-n${n}`);
  const vocab = vocabulary(seed);
  const marker = path.join(dataDir, '.complete.json');
  if (fs.existsSync(marker)) {
    const m = JSON.parse(fs.readFileSync(marker, 'utf8')) as { files: number; bytes: number };
    return { dataDir, n, seed, vocab, files: m.files, bytes: m.bytes };
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  const archDir = path.join(dataDir, 'conversation_history_archives');
  fs.mkdirSync(archDir, { recursive: true });
  const r = mulberry32(seed);
  let currentFile = '';
  let fd = -1;
  let buf: string[] = [];
  let files = 0;
  let bytes = 0;
  const flush = (): void => {
    if (fd >= 0 && buf.length) {
      const s = buf.join('');
      bytes += Buffer.byteLength(s);
      fs.writeSync(fd, s);
    }
    buf = [];
  };
  for (let i = 0; i < n; i++) {
    const rec = makeRecord(i, n, r, vocab);
    const file = i >= n - activeMax ? path.join(dataDir, 'conversation_history.jsonl') : path.join(archDir, `${rec.timestamp.slice(0, 7)}.jsonl`);
    if (file !== currentFile) {
      flush();
      if (fd >= 0) fs.closeSync(fd);
      fd = fs.openSync(file, 'a');
      currentFile = file;
      files++;
    }
    buf.push(`${JSON.stringify(rec)}\n`);
    if (buf.length >= 5000) flush();
  }
  flush();
  if (fd >= 0) fs.closeSync(fd);
  fs.writeFileSync(marker, JSON.stringify({ files, bytes }));
  return { dataDir, n, seed, vocab, files, bytes };
}
