import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { wenziLine } from '../../../helpers/history-fixtures.ts';

/** Helpers for the tests that follow a line's exact bytes through the history files (not a test file itself). */

/** sha256 of some bytes, hex. */
export const sha = (b: Uint8Array): string => createHash('sha256').update(b).digest('hex');

/** A WenZi line with `bad` bytes inside its texts: valid JSON around them, so a lenient decode parses it as a record. */
export function invalidRecordLine(ts: string, bad: Buffer, text = '坏'): Buffer {
  const [before, ...rest] = wenziLine(ts, 'XXX').split('XXX');
  return Buffer.concat([Buffer.from(before ?? ''), ...rest.flatMap((p) => [Buffer.from(text), bad, Buffer.from(p)])]);
}

/** Every line of a file as bytes (split on 0x0A, the newline excluded, blank ones dropped). */
export function rawLines(file: string): Buffer[] {
  if (!fs.existsSync(file)) return [];
  const data = fs.readFileSync(file);
  const out: Buffer[] = [];
  let start = 0;
  for (let nl = data.indexOf(0x0a); nl >= 0; nl = data.indexOf(0x0a, start)) {
    if (nl > start) out.push(data.subarray(start, nl));
    start = nl + 1;
  }
  if (start < data.length) out.push(data.subarray(start));
  return out;
}

/** The lines the quarantine file holds, as the bytes they had in their file (`text_base64` decoded, `text` encoded). */
export function quarantinedBytes(file: string): Buffer[] {
  return rawLines(file).map((l) => {
    const e = JSON.parse(l.toString('utf8')) as { text?: string; text_base64?: string };
    return e.text_base64 !== undefined ? Buffer.from(e.text_base64, 'base64') : Buffer.from(e.text ?? '', 'utf8');
  });
}

/** Every history file of a data folder: active, then archives. */
export function historyFiles(dataDir: string): string[] {
  const p = historyPaths(dataDir);
  const archives = fs.existsSync(p.archivesDir) ? fs.readdirSync(p.archivesDir).map((n) => path.join(p.archivesDir, n)) : [];
  return [p.active, ...archives];
}

/** sha256 of every line found anywhere: history files byte for byte, quarantine entries decoded. */
export function shasFound(dataDir: string): Set<string> {
  const lines = [...historyFiles(dataDir).flatMap(rawLines), ...quarantinedBytes(historyPaths(dataDir).quarantine)];
  return new Set(lines.map(sha));
}

/** Ids of the valid records in the history files (a line that is not UTF-8 or not JSON is skipped). */
export function recordIds(dataDir: string): string[] {
  const ids: string[] = [];
  for (const line of historyFiles(dataDir).flatMap(rawLines)) {
    try {
      const r = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(line)) as { id?: string };
      if (r.id !== undefined) ids.push(r.id);
    } catch {
      // not a record
    }
  }
  return ids;
}

/** Files of a data folder (history and quarantine) that hold U+FFFD (EF BF BD): a replacement character means bytes were lost. */
export function filesWithReplacementCharacter(dataDir: string): string[] {
  const files = [...historyFiles(dataDir), historyPaths(dataDir).quarantine];
  return files.filter((f) => fs.existsSync(f) && fs.readFileSync(f).includes(Buffer.from('\uFFFD')));
}
