// The paste keystroke through an xdotool helper started at key-down: the keystroke is a write to its
// stdin (no process start while the user waits), one helper per keystroke, a fresh start when none is
// waiting, and xdotool's failures reported. The child processes are fakes here; test/unit/platform-x11
// sends real keystrokes on Xvfb.
import { EventEmitter } from 'node:events';
import type { ChildProcess } from 'node:child_process';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { WarmXdotool } from '../../../../src/main/platform/warm-xdotool.ts';

interface Fake {
  readonly args: readonly string[];
  written: string;
  readonly child: ChildProcess;
}

function fakeSpawn(behave: (f: Fake) => void = (f) => f.child.emit('exit', 0, null)) {
  const spawned: Fake[] = [];
  const spawn = (_cmd: string, args: readonly string[]): ChildProcess => {
    const child = Object.assign(new EventEmitter(), { pid: 1000 + spawned.length, exitCode: null, signalCode: null, stdin: new PassThrough(), stderr: new PassThrough(), kill: () => true }) as unknown as ChildProcess;
    const f: Fake = { args, written: '', child };
    child.stdin?.on('data', (d: Buffer) => (f.written += d.toString()));
    child.stdin?.on('finish', () => setTimeout(() => behave(f), 1));
    spawned.push(f);
    return child;
  };
  return { spawn, spawned };
}

describe('WarmXdotool', () => {
  it('prepare() starts `xdotool -` once; key() writes the command to it and closes its stdin', async () => {
    const s = fakeSpawn();
    const w = new WarmXdotool({ spawn: s.spawn });
    w.prepare();
    w.prepare();
    expect(s.spawned.map((f) => f.args)).toEqual([['-']]);
    await w.key('ctrl+v');
    expect(s.spawned).toHaveLength(1);
    expect(s.spawned[0]?.written).toBe('key --clearmodifiers ctrl+v\n');
  });

  it('each helper serves one keystroke; without a prepared one a fresh helper is started', async () => {
    const s = fakeSpawn();
    const w = new WarmXdotool({ spawn: s.spawn });
    w.prepare();
    await w.key('ctrl+v');
    await w.key('ctrl+shift+v');
    expect(s.spawned.map((f) => f.written)).toEqual(['key --clearmodifiers ctrl+v\n', 'key --clearmodifiers ctrl+shift+v\n']);
  });

  it("rejects with xdotool's reason when it fails", async () => {
    const s = fakeSpawn((f) => {
      f.child.stderr?.emit('data', Buffer.from('Error: Can\'t open display'));
      f.child.emit('exit', 1, null);
    });
    const w = new WarmXdotool({ spawn: s.spawn });
    await expect(w.key('ctrl+v')).rejects.toThrow(/exited with 1: Error: Can't open display/);
  });

  it('a helper that could not start (no xdotool) is replaced, and the failure reported', async () => {
    const spawn = (): ChildProcess => {
      const child = Object.assign(new EventEmitter(), { pid: undefined, exitCode: null, signalCode: null, stdin: new PassThrough(), stderr: new PassThrough(), kill: () => true }) as unknown as ChildProcess;
      setTimeout(() => child.emit('error', new Error('spawn xdotool ENOENT')), 1);
      return child;
    };
    const w = new WarmXdotool({ spawn });
    w.prepare();
    await expect(w.key('ctrl+v')).rejects.toThrow('xdotool: spawn xdotool ENOENT');
  });
});
