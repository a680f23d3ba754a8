// Bench-only timing probe, preloaded into the app's processes with NODE_OPTIONS=--import by
// bench/lib/app-session.ts. It changes no behaviour: it appends one JSON line per event to the file
// named by TINGXIE_BENCH_PROBE, with wall-clock times in ms (performance.timeOrigin + performance.now(),
// the clock the benchmark and the pages use too):
// - in the app's main process: every helper command it spawns (xclip, xdotool, xprop…), start and exit,
//   and the command written to a helper started ahead of time (`xdotool -`),
//   the first import of each package, and when the stand-in's Chromium is up (app.whenReady resolves:
//   the stand-in reads Chromium's DevToolsActivePort file right then);
// - in the speech engine process: when a transcribe request arrives and when its result leaves.
import cp from 'node:child_process';
import fs from 'node:fs';
import { builtinModules, registerHooks, syncBuiltinESMExports } from 'node:module';
import { isMainThread } from 'node:worker_threads';

const file = process.env.TINGXIE_BENCH_PROBE;
const now = () => performance.timeOrigin + performance.now();
const record = (event) => {
  try {
    fs.appendFileSync(file, `${JSON.stringify({ pid: process.pid, ...event })}\n`);
  } catch {
    /* a probe must never break the app */
  }
};

if (file && isMainThread) {
  const script = process.argv[1] ?? '';
  if (/engine-host\.[jt]s$/.test(script)) {
    process.on('message', (m) => {
      if (m && m.type === 'transcribe') record({ k: 'asr-in', t: now(), samples: m.pcm?.length ?? 0 });
    });
    const send = process.send;
    if (send) {
      process.send = function (m, ...rest) {
        if (m && m.type === 'result') record({ k: 'asr-out', t: now(), transcribeMs: m.transcribeMs });
        return send.call(process, m, ...rest);
      };
    }
  } else if (/[\\/]out[\\/]main[\\/]index\.js$/.test(script)) {
    const spawn = cp.spawn;
    cp.spawn = function (cmd, args, ...rest) {
      const t = now();
      const child = spawn.call(this, cmd, args, ...rest);
      const what = [cmd, ...(Array.isArray(args) ? args : [])].join(' ').slice(0, 120);
      child.once('exit', () => record({ k: 'spawn', what, t, end: now() }));
      // A helper started ahead of time (the paste's `xdotool -`) gets its command on stdin: that moment
      // is the keystroke, not the spawn.
      const stdin = child.stdin;
      if (stdin && what === 'xdotool -') {
        const end = stdin.end;
        stdin.end = function (chunk, ...more) {
          if (chunk !== undefined) record({ k: 'stdin', what: `${what} ${String(chunk).trim()}`.slice(0, 120), t: now() });
          return end.call(this, chunk, ...more);
        };
      }
      return child;
    };
    syncBuiltinESMExports();
    const readFileSync = fs.readFileSync;
    fs.readFileSync = function (p, ...rest) {
      if (typeof p === 'string' && p.endsWith('DevToolsActivePort')) record({ k: 'chromium-ready', t: now() });
      return readFileSync.call(this, p, ...rest);
    };
    const seen = new Set();
    registerHooks({
      resolve(specifier, context, next) {
        const bare = !/^(\.|\/|node:|file:|data:)/.test(specifier) && !builtinModules.includes(specifier);
        if (bare) {
          const parts = specifier.split('/');
          const pkg = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
          if (!seen.has(pkg)) {
            seen.add(pkg);
            record({ k: 'import', spec: pkg, t: now() });
          }
        }
        return next(specifier, context);
      },
    });
  }
}
