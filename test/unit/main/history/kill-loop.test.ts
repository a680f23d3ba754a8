import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HistoryService } from '../../../../src/main/history/history-service.ts';
import { HistoryStore } from '../../../../src/main/history/store/history-store.ts';
import { parseJsonlLines } from '../../../../src/main/history/store/jsonl-reader.ts';
import { historyPaths } from '../../../../src/main/history/paths.ts';
import { recordKey, type NewHistoryRecord } from '../../../../src/shared/history/record.ts';
import { makeTempDir, rmTempDir, until } from '../../../helpers/history-fixtures.ts';
import { fillUntil, mountSmallFs, type SmallFs } from '../../../helpers/small-fs.ts';

/**
 * Crash safety for real: a child process logs records through the real store (fsync, rotation with
 * 4 KB / 50-record thresholds so nearly every write rotates) and is SIGKILLed at random moments.
 * After every restart, every record the child acknowledged must be on disk exactly once.
 */

const ROOT = path.resolve(import.meta.dirname, '../../../..');
const NODE = path.join(ROOT, 'node_modules/.bin/node');
const CHILD = path.join(ROOT, 'test/helpers/history-kill-child.ts');
const ROUNDS = Number(process.env.TINGXIE_KILL_ROUNDS ?? 200);
/** Rounds run with the child in service mode (JSONL + SQLite index), the rest in store mode. */
const SERVICE_ROUNDS = Math.round(ROUNDS * 0.45);

const dirs: string[] = [];
const mounts: SmallFs[] = [];
/** Children still running: a failed or timed-out test must not leave one writing into a folder (or a mount). */
const children = new Set<ChildProcess>();
afterAll(() => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  children.clear();
  dirs.forEach(rmTempDir);
  // Even when a round failed: a mount must not outlive the run.
  for (const m of mounts.splice(0)) m.unmount();
});

/** Registers a child so afterAll kills it if the test ends before it does. */
function track<T extends ChildProcess>(child: T): T {
  children.add(child);
  child.on('exit', () => children.delete(child));
  return child;
}

/** Tiny seeded PRNG so a failing run can be replayed with the same seed. */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

interface Round {
  readonly acks: string[];
  readonly stderr: string;
  readonly code: number | null;
}

/**
 * Runs the child once and SIGKILLs it `delayMs` after its `afterAcks`-th acknowledgement (counting in
 * writes, not time, keeps the loop meaningful on a loaded machine), or while starting when `delayMs` < 0.
 */
function runRound(dataDir: string, delayMs: number, mode: string, afterAcks: number): Promise<Round> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(NODE, [CHILD, dataDir, '50', '4096', mode], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    let killed = false;
    const kill = (): void => {
      if (!killed) {
        killed = true;
        child.kill('SIGKILL');
      }
    };
    if (delayMs < 0) setTimeout(kill, -delayMs);
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const acksSoFar = out.split('\nack ').length - 1;
      if (delayMs >= 0 && out.startsWith('ready\n') && acksSoFar >= afterAcks && !killed) {
        killed = true;
        setTimeout(() => child.kill('SIGKILL'), delayMs);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => {
      // Only complete lines count: the kill may cut the pipe mid-write.
      const acks = out
        .split('\n')
        .slice(0, -1)
        .filter((l) => l.startsWith('ack '))
        .map((l) => l.slice(4));
      resolve({ acks, stderr: err, code });
    });
    // A child that never gets killed would hang the test.
    setTimeout(kill, 10_000);
  });
}

/** Keys of every record per file label (`active`, `YYYY-MM`, `unknown`), replayed from the JSONL files. */
function replayFiles(dataDir: string): Map<string, string[]> {
  const p = historyPaths(dataDir);
  const out = new Map<string, string[]>();
  const files: [string, string][] = [['active', p.active]];
  if (fs.existsSync(p.archivesDir)) for (const f of fs.readdirSync(p.archivesDir)) if (f.endsWith('.jsonl')) files.push([f.slice(0, -6), path.join(p.archivesDir, f)]);
  for (const [label, f] of files) {
    if (!fs.existsSync(f)) continue;
    out.set(label, parseJsonlLines(fs.readFileSync(f, 'utf8')).flatMap((l) => (l.kind === 'record' ? [recordKey(l.record)] : [])));
  }
  return out;
}

/** Keys of every record across active + archives, with the number of times each occurs. */
function keysOnDisk(dataDir: string): Map<string, number> {
  const p = historyPaths(dataDir);
  const files = [p.active];
  if (fs.existsSync(p.archivesDir)) for (const f of fs.readdirSync(p.archivesDir)) if (f.endsWith('.jsonl')) files.push(path.join(p.archivesDir, f));
  const counts = new Map<string, number>();
  for (const f of files) {
    if (!fs.existsSync(f)) continue;
    const lines = parseJsonlLines(fs.readFileSync(f, 'utf8'));
    // Every newline-terminated line must parse; only the last one may be torn (repaired on the next open).
    const bad = lines.filter((l) => l.kind === 'bad');
    expect(bad.filter((l) => l.kind === 'bad' && !l.torn), `corrupt lines in ${f}`).toEqual([]);
    for (const l of lines) if (l.kind === 'record') counts.set(recordKey(l.record), (counts.get(recordKey(l.record)) ?? 0) + 1);
  }
  return counts;
}

async function killLoop(mode: 'store' | 'service', rounds: number, seed: number): Promise<{ acked: number; rotations: number; interrupted: number; indexChecks: number }> {
  const dataDir = makeTempDir();
  dirs.push(dataDir);
  const rand = prng(seed);
  const acked = new Set<string>();
  let interrupted = 0;
  let indexChecks = 0;
  const countRecovery = (m: string): void => {
    if (m.includes('interrupted rotation')) interrupted++;
  };
  for (let round = 0; round < rounds; round++) {
    // Mostly kill while writing (after 0–4 acks, then 0–3 ms); sometimes during start-up recovery.
    const delay = rand() < 0.15 ? -Math.floor(rand() * 60) - 1 : Math.floor(rand() * 4);
    const r = await runRound(dataDir, delay, mode, Math.floor(rand() * 5));
    expect(r.stderr, `round ${round}`).not.toMatch(/child failed/);
    for (const id of r.acks) acked.add(id);
    for (const line of r.stderr.split('\n')) countRecovery(line);
    // Half the rounds leave the crashed state for the next child to recover (so kills also land in
    // recovery); the others restart here, in-process, and check the invariants.
    if (round % 2 === 0 && round !== rounds - 1) continue;
    const opts = { dataDir, maxRecords: 50, rotateMinBytes: 4096, warn: countRecovery };
    if (mode === 'service') {
      // The restarted service checks its index against the files (rebuilding when stale); then the
      // index must match a replay of the JSONL: same keys, each in the file it is really in.
      const svc = await HistoryService.open({ ...opts, enabled: true, rebuildInline: true });
      await svc.settled();
      const index = svc.indexOrNull;
      expect(index, `index after round ${round}`).not.toBeNull();
      const replay = replayFiles(dataDir);
      let total = 0;
      for (const [file, keys] of replay) {
        expect(new Set(index?.keysOfFile(file)), `index keys of ${file} after round ${round}`).toEqual(new Set(keys));
        total += keys.length;
      }
      expect(index?.count(), `index size after round ${round}`).toBe(total);
      indexChecks++;
      await svc.close();
    } else {
      const store = await HistoryStore.open(opts);
      await store.close();
    }
    const onDisk = keysOnDisk(dataDir);
    for (const id of acked) expect(onDisk.get(id), `acknowledged ${id} after round ${round}`).toBe(1);
    for (const [key, n] of onDisk) expect(n, `duplicate ${key} after round ${round}`).toBe(1);
  }
  const archives = historyPaths(dataDir).archivesDir;
  const rotations = fs.existsSync(archives) ? fs.readdirSync(archives).length : 0;
  return { acked: acked.size, rotations, interrupted, indexChecks };
}

describe('kill -9 loop', () => {
  it(`store: loses and duplicates no acknowledged record over ${ROUNDS - SERVICE_ROUNDS} SIGKILLs, background rotations included`, async () => {
    const { acked, rotations, interrupted } = await killLoop('store', ROUNDS - SERVICE_ROUNDS, 12345);
    // The loop must actually have exercised writes, rotations and kills mid-rotation, or it proves nothing.
    expect(acked).toBeGreaterThan((ROUNDS - SERVICE_ROUNDS) / 2);
    expect(rotations).toBeGreaterThan(0);
    expect(interrupted).toBeGreaterThan(0);
  }, 120_000);

  it(`service: same over ${SERVICE_ROUNDS} SIGKILLs, and the index matches a replay of the JSONL after every restart`, async () => {
    const { acked, rotations, indexChecks } = await killLoop('service', SERVICE_ROUNDS, 777);
    expect(acked).toBeGreaterThan(SERVICE_ROUNDS / 2);
    expect(rotations).toBeGreaterThan(0);
    expect(indexChecks).toBeGreaterThanOrEqual(SERVICE_ROUNDS / 2 - 1);
  }, 120_000);
});

/** Seeded runs of the full-disk case, kill rounds per run, and the first run's seed (replay a failure with these). */
const FULL_RUNS = Number(process.env.TINGXIE_FULL_DISK_RUNS ?? 1);
const FULL_ROUNDS = Number(process.env.TINGXIE_FULL_DISK_ROUNDS ?? 40);
const FULL_SEED = Number(process.env.TINGXIE_FULL_DISK_SEED ?? 4242);
/** A kept data folder to start from (with TINGXIE_FULL_DISK_ROUNDS=0: replays just the final start on it). */
const FULL_FROM = process.env.TINGXIE_FULL_DISK_FROM;
/** The thresholds the child runs with (history-kill-child.ts argv), for in-process restarts too. */
const FULL_OPTS = { maxRecords: 50, rotateMinBytes: 4096, rotationQuietMs: 0 };

interface FullRound {
  readonly acks: string[];
  readonly pending: number;
  readonly stderr: string;
}

/** Runs the child in full-disk mode; SIGKILLs it `delayMs` after its `after`-th answer (ack or pending), or after 1.5 s. */
function runFullRound(dataDir: string, mode: string, after: number, delayMs: number): Promise<FullRound> {
  return new Promise((resolve, reject) => {
    const child = track(spawn(NODE, [CHILD, dataDir, '50', '4096', mode, 'full'], { stdio: ['ignore', 'pipe', 'pipe'] }));
    let out = '';
    let err = '';
    let armed = false;
    const kill = (): void => void child.kill('SIGKILL');
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const answers = out.split('\n').filter((l) => l.startsWith('ack ') || l.startsWith('pending ')).length;
      if (!armed && out.startsWith('ready\n') && answers >= after) {
        armed = true;
        setTimeout(kill, delayMs);
      }
    });
    child.stderr.on('data', (d: Buffer) => (err += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', () => {
      const lines = out.split('\n').slice(0, -1);
      resolve({ acks: lines.filter((l) => l.startsWith('ack ')).map((l) => l.slice(4)), pending: lines.filter((l) => l.startsWith('pending ')).length, stderr: err });
    });
    setTimeout(kill, 1500);
  });
}

/** What one full-disk run saw: the loop's coverage, and how often the index's WAL was what filled the disk. */
interface FullRunStats {
  acked: number;
  pending: number;
  rotationFailures: number;
  roundsWithUnfinishedRotation: number;
  /** Largest index.db-wal a killed service child left on the 1 MB disk. */
  maxWalBytes: number;
  /** Restarts whose store could not finish an interrupted rotation at open (no room: the WAL, the filler). */
  rotationLeftAtOpen: number;
  /** The final start (filler gone) could not finish a rotation at open: the index's WAL held the room. */
  finalRotationLeftAtOpen: boolean;
}

/** Size of a file, 0 when missing. */
function sizeOf(file: string): number {
  return fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * Copies a failed run's data folder out of the tmpfs (which afterAll unmounts) to a printed path in the
 * OS temp folder, so the state that broke the invariant can be inspected and replayed.
 */
function keepDataDir(dataDir: string, seed: number, round: number): string {
  const kept = path.join(os.tmpdir(), `tingxie-full-disk-seed${seed}-round${round}-${Date.now()}`);
  fs.cpSync(dataDir, kept, { recursive: true });
  return kept;
}

/** The invariants after a restart: every acknowledged record on disk once (twice only while an interrupted rotation names it). */
function checkAcked(dataDir: string, acked: ReadonlySet<string>, where: string, exact: boolean): number {
  const { counts, torn } = keysOnDiskFull(dataDir);
  // A rotation the full disk interrupted leaves its moving records both in their archive and at the
  // head of the active file until it can be finished (its intent names them): that copy is expected.
  const moving = exact ? new Set<string>() : unfinishedRotationKeys(dataDir);
  if (exact) expect(unfinishedRotationKeys(dataDir).size, `rotation intent left ${where}`).toBe(0);
  for (const id of acked) {
    expect(counts.get(id) ?? 0, `acknowledged ${id} ${where}`).toBeGreaterThanOrEqual(1);
    expect(counts.get(id) ?? 0, `acknowledged ${id} ${where}`).toBeLessThanOrEqual(moving.has(id) ? 2 : 1);
  }
  for (const [key, n] of counts) expect(n, `duplicate ${key} ${where}`).toBeLessThanOrEqual(moving.has(key) ? 2 : 1);
  return torn;
}

/**
 * One seeded run on the 1 MB disk. The index lives next to the history, as it does for a user: a
 * killed service child leaves index.db-wal as large as it grew (hundreds of KB here), and on this disk
 * that WAL is what runs out of room, so a start's store cannot finish an interrupted rotation at open.
 * After every round: each acknowledged record on disk once (twice only while the intent names it);
 * at the end (see finalStart): exactly once, no intent left.
 */
async function fullDiskRun(small: SmallFs, seed: number, rounds: number): Promise<FullRunStats> {
  const dataDir = path.join(small.dir, `data-${seed}`);
  fs.mkdirSync(dataDir);
  // Kill timing is the machine's, not the seed's: a kept folder is the exact state to replay.
  if (FULL_FROM) fs.cpSync(FULL_FROM, dataDir, { recursive: true });
  const rand = prng(seed);
  const acked = new Set<string>();
  const stats: FullRunStats = { acked: 0, pending: 0, rotationFailures: 0, roundsWithUnfinishedRotation: 0, maxWalBytes: 0, rotationLeftAtOpen: 0, finalRotationLeftAtOpen: false };
  const leftAtOpen = (m: string): void => {
    if (m.includes('finishing an interrupted rotation failed at start')) stats.rotationLeftAtOpen++;
  };
  let filler: string | null = null;
  let round = 0;
  try {
    for (; round < rounds; round++) {
      // The disk state for this round: full, nearly full, some room, or room again.
      if (filler) fs.rmSync(filler, { force: true });
      filler = null;
      if (rand() < 0.75) filler = fillUntil(small, [0, 2048, 8192, 24 * 1024][Math.floor(rand() * 4)] ?? 0);
      const mode = round % 3 === 2 ? 'service' : 'store';
      const res = await runFullRound(dataDir, mode, Math.floor(rand() * 6), Math.floor(rand() * 4));
      expect(res.stderr, 'child output').not.toMatch(/child failed/);
      for (const id of res.acks) acked.add(id);
      stats.pending += res.pending;
      stats.rotationFailures += res.stderr.split('\n').filter((l) => l.includes('rotation failed')).length;
      stats.maxWalBytes = Math.max(stats.maxWalBytes, sizeOf(`${historyPaths(dataDir).indexDb}-wal`));
      // Restart in-process on the same disk state: opening never throws.
      await (await HistoryStore.open({ dataDir, ...FULL_OPTS, warn: leftAtOpen })).close();
      checkAcked(dataDir, acked, `after round ${round}`, false);
      if (unfinishedRotationKeys(dataDir).size > 0) stats.roundsWithUnfinishedRotation++;
    }
    if (filler) fs.rmSync(filler, { force: true });
    filler = null;
    await finalStart(dataDir, seed, acked, stats);
    checkAcked(dataDir, acked, 'at the end', true);
  } catch (err) {
    const kept = keepDataDir(dataDir, seed, round);
    const replay = `TINGXIE_FULL_DISK_SEED=${seed} TINGXIE_FULL_DISK_RUNS=1 TINGXIE_FULL_DISK_ROUNDS=${rounds} (same seed, kill timing may differ), or the final start on the kept state: TINGXIE_FULL_DISK_FROM=${kept} TINGXIE_FULL_DISK_ROUNDS=0`;
    const where = round < rounds ? `round ${round} of ${rounds}` : `the start after all ${rounds} rounds`;
    throw new Error(`full-disk run with seed ${seed} failed at ${where}; data folder kept at ${kept}; replay with ${replay}\n${(err as Error).message}`, { cause: err });
  } finally {
    if (filler) fs.rmSync(filler, { force: true });
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
  stats.acked = acked.size;
  return stats;
}

/** Opens the service as the app does (store, then index); `leftAtOpen` is told when the store could not finish a rotation. */
function openApp(dataDir: string, leftAtOpen: () => void): Promise<HistoryService> {
  const warn = (m: string): void => {
    if (m.includes('finishing an interrupted rotation failed at start')) leftAtOpen();
  };
  return HistoryService.open({ dataDir, ...FULL_OPTS, enabled: true, rebuildInline: true, follow: false, warn });
}

/**
 * The start after the last kill, with the filler gone: what can still fill the disk is the WAL a killed
 * service child left. The store opens first, so it may have to leave an interrupted rotation for later;
 * the index then checkpoints the WAL, and the next dictation, finding room, must get the rotation
 * finished within seconds (not after the scheduler's 30 s wait).
 */
async function finalStart(dataDir: string, seed: number, acked: Set<string>, stats: FullRunStats): Promise<void> {
  const svc = await openApp(dataDir, () => (stats.finalRotationLeftAtOpen = true));
  try {
    // A WAL a killed service child left cannot be checkpointed on the full disk: the index then moves to
    // the temp folder and removes it from the data folder (history-service.ts), so this record fits.
    const next = await svc.log(fullRecord(seed));
    expect(next.saved, 'the dictation after the restart is saved').toBe(true);
    acked.add(next.record.id);
    const done = await until(() => unfinishedRotationKeys(dataDir).size === 0, 5000);
    expect(done, 'an interrupted rotation finished within 5 s of the first dictation after room came back').toBe(true);
  } finally {
    await svc.close();
  }
}

/** A record for the dictation after the last restart. */
function fullRecord(seed: number): NewHistoryRecord {
  return { asr_text: `after run ${seed}`, enhanced_text: null, final_text: `after run ${seed}`, enhance_mode: 'proofread', preview_enabled: true, stt_model: 'kill-test', llm_model: '', user_corrected: false, audio_duration: 1, language: 'zh', source: 'voice' };
}

describe('kill -9 loop on a nearly full disk', () => {
  it(`loses and duplicates no acknowledged record over ${FULL_RUNS} run(s) of ${FULL_ROUNDS} SIGKILLs while the disk (and the index's WAL) fills and empties`, async (ctx) => {
    const small = mountSmallFs(1024 * 1024);
    if ('skip' in small) return ctx.skip(small.skip);
    mounts.push(small);
    const all: FullRunStats[] = [];
    for (let run = 0; run < FULL_RUNS; run++) {
      const stats = await fullDiskRun(small, FULL_SEED + run, FULL_ROUNDS);
      all.push(stats);
      if (process.env.TINGXIE_KILL_REPORT) console.log(JSON.stringify({ run, seed: FULL_SEED + run, rounds: FULL_ROUNDS, ...stats }));
    }
    // The runs must have exercised both sides: records written (counted over all runs: on a machine busy
    // enough, one run's kills can land before most of its acknowledgements)…
    if (FULL_ROUNDS > 0) expect(all.reduce((n, s) => n + s.acked, 0), 'acknowledged records over all runs').toBeGreaterThan((FULL_RUNS * FULL_ROUNDS) / 2);
    // …and the disk refused something: a record kept in memory, or a rotation that failed or was left at
    // a start. Which of them a run meets depends on where the kills land, so any one of them counts.
    const refused = all.reduce((n, s) => n + s.pending + s.rotationFailures + s.rotationLeftAtOpen, 0);
    if (FULL_ROUNDS > 0) expect(refused, JSON.stringify(all)).toBeGreaterThan(0);
  }, 60_000 + FULL_RUNS * FULL_ROUNDS * 1500);
});

/** Keys an unfinished rotation is moving (its intent file, left until the disk has room to finish it). */
function unfinishedRotationKeys(dataDir: string): Set<string> {
  const intent = path.join(historyPaths(dataDir).journalDir, 'rotation.intent.json');
  if (!fs.existsSync(intent)) return new Set();
  return new Set((JSON.parse(fs.readFileSync(intent, 'utf8')) as { moves: { key: string }[] }).moves.map((m) => m.key));
}

/** Keys across active + archives (how often each occurs); `torn`: unreadable lines kept in the files (never glued to a record). */
function keysOnDiskFull(dataDir: string): { counts: Map<string, number>; torn: number } {
  const p = historyPaths(dataDir);
  const files = [p.active];
  if (fs.existsSync(p.archivesDir)) for (const f of fs.readdirSync(p.archivesDir)) if (f.endsWith('.jsonl')) files.push(path.join(p.archivesDir, f));
  const counts = new Map<string, number>();
  let torn = 0;
  for (const f of files) {
    if (!fs.existsSync(f)) continue;
    for (const l of parseJsonlLines(fs.readFileSync(f, 'utf8'))) {
      if (l.kind === 'record') counts.set(recordKey(l.record), (counts.get(recordKey(l.record)) ?? 0) + 1);
      else torn++;
    }
  }
  return { counts, torn };
}
