import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/cli/main.ts';
import { formatHistoryLine } from '../../../src/main/enhance/history-builder.ts';
import { fileLines, makeTempDir, rmTempDir } from '../../helpers/history-fixtures.ts';
import { wenziConfirmed, wenziModeOf, writeWenziFolder } from '../../helpers/wenzi-folder.ts';

/**
 * A WenZi user moving over, end to end: `tingxie history import <WenZi folder>` into a fresh data folder, then
 * `tingxie enhance text --dry-run …` injects the WenZi user's last confirmed records of that mode.
 * The folder is in WenZi's own format (object `input_context`, unknown fields, archives).
 */

const dirs: string[] = [];
afterAll(() => dirs.forEach(rmTempDir));
function tmp(): string {
  const d = makeTempDir();
  dirs.push(d);
  return d;
}

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(args, { stdout: { write: (s: string) => out.push(s) }, stderr: { write: (s: string) => err.push(s) }, env: {} });
  return { code, out: out.join(''), err: err.join('') };
}

/** The history lines of a system prompt (between the label and the next blank line or rule). */
function historySection(system: string): string[] {
  const at = system.indexOf('对话记录：\n');
  if (at < 0) return [];
  const lines: string[] = [];
  for (const l of system.slice(at + '对话记录：\n'.length).split('\n')) {
    if (!l.startsWith('- ')) break;
    lines.push(l);
  }
  return lines;
}

describe('WenZi user moving over (import, then their confirmed records in the prompt)', () => {
  it('history import into a fresh data folder, then enhance --dry-run injects the last confirmed records of the mode', async () => {
    const wenzi = tmp();
    const { lines } = writeWenziFolder(wenzi, { active: 1_500, archived: 500 });
    const dir = path.join(tmp(), 'fresh'); // does not exist yet: a new install
    const imported = await cli('--data-dir', dir, '--json', 'history', 'import', wenzi);
    expect(imported.code, imported.err).toBe(0);
    expect(JSON.parse(imported.out)).toEqual({ imported: 2_000, duplicates: 0, badLines: 0 });
    // The active file exists and holds WenZi's active records (under the 20,000 limit: all of them), bytes as written.
    expect(fileLines(path.join(dir, 'conversation_history.jsonl'))).toEqual(lines.filter((l) => !l.archived).map((l) => l.text));

    // The WenZi user had history injection on; a provider is needed to build the request.
    const config = {
      version: 2,
      ai_enhance: {
        conversation_history: { enabled: true },
        providers: { p: { kind: 'ollama', base_url: 'http://127.0.0.1:11434/v1', models: ['qwen2.5:7b'] } },
        default_provider: 'p',
        default_model: 'qwen2.5:7b',
      },
    };
    fs.writeFileSync(path.join(dir, 'config.json'), JSON.stringify(config));

    for (const mode of ['proofread', 'translate_en']) {
      const r = await cli('--data-dir', dir, '--json', 'enhance', 'text', '--dry-run', '--mode', mode, '萍萍明天来开会');
      expect(r.code, r.err).toBe(0);
      const body = (JSON.parse(r.out) as { body: { messages: { role: string; content: string }[] } }).body;
      const system = body.messages[0]?.content ?? '';
      // max_entries defaults to 10: the ten newest confirmed records of this mode, oldest first.
      const want = lines
        .map((l, i) => ({ l, i }))
        .filter(({ i }) => wenziModeOf(i) === mode && wenziConfirmed(i))
        .slice(-10)
        .map(({ i }) => formatHistoryLine(`第${i}条记录，今天和平平讨论了项目`, `第${i}条记录，今天和萍萍讨论了项目`));
      expect(historySection(system), mode).toEqual(want);
    }
  }, 60_000);
});
