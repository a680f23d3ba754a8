#!/usr/bin/env node
/**
 * Runs Doyensec's electronegativity (https://github.com/doyensec/electronegativity) over src/, offline, and
 * fails on any HIGH or MEDIUM finding that security/electronegativity-false-positives.json does not list
 * with its reason.
 *
 *   node scripts/electronegativity.mjs --install   # once: installs the tool into node_modules/.cache
 *   node scripts/electronegativity.mjs             # scan; exit 0 clean, 1 on unlisted findings, 2 not installed
 *
 * The tool is not a devDependency: it brings eslint 7 and TypeScript 4.2 of its own. Offline: it fetches
 * translations and Electron's release list with `got` on every run (and crashes when a timeout fires
 * late); a preload makes every such request fail at once, so nothing leaves the machine and the
 * release-dependent check (AVAILABLE_SECURITY_FIXES) reports nothing.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const TOOL_VERSION = '1.10.3';
export const TOOL_HOME = process.env.ELECTRONEGATIVITY_HOME ?? path.join(root, 'node_modules', '.cache', 'electronegativity');
const cli = path.join(TOOL_HOME, 'node_modules', '@doyensec', 'electronegativity', 'dist', 'index.js');

const OFFLINE_HOOK = `// Written by scripts/electronegativity.mjs: electronegativity runs offline.
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === 'got') {
    const refuse = () => Promise.reject(new Error('offline: network access disabled for electronegativity'));
    return Object.assign(refuse, { default: refuse, get: refuse });
  }
  return load.call(this, request, parent, isMain);
};
`;

/** Whether the tool is installed where this script looks. */
export function isInstalled() {
  return fs.existsSync(cli);
}

/** Installs the tool into {@link TOOL_HOME} with npm (the one step that needs the registry). */
export function install() {
  fs.mkdirSync(TOOL_HOME, { recursive: true });
  const manifest = path.join(TOOL_HOME, 'package.json');
  if (!fs.existsSync(manifest)) fs.writeFileSync(manifest, '{ "name": "tingxie-electronegativity", "private": true }\n');
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  execFileSync(npm, ['install', '--prefix', TOOL_HOME, '--no-audit', '--no-fund', `@doyensec/electronegativity@${TOOL_VERSION}`], { stdio: 'inherit' });
}

/** Splits one CSV line as electronegativity writes it (quoted fields with commas, "" escapes). */
function csvFields(line) {
  const out = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cur += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

/** The Electron version the app is built for (the tool's version-dependent checks need one). */
function electronVersion() {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8'));
  return pkg.version;
}

/**
 * Scans `input` (default src/) and sorts the HIGH/MEDIUM findings into documented false positives and
 * the rest. Returns { findings, unlisted, unusedFalsePositives }.
 */
export function scan(input = path.join(root, 'src')) {
  if (!isInstalled()) throw new Error(`electronegativity is not installed in ${TOOL_HOME}: run node scripts/electronegativity.mjs --install`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-electronegativity-'));
  try {
    const hook = path.join(work, 'offline.cjs');
    fs.writeFileSync(hook, OFFLINE_HOOK);
    const csv = path.join(work, 'findings.csv');
    const run = spawnSync(process.execPath, ['-r', hook, cli, '-i', input, '-e', electronVersion(), '-r', '-v', 'false', '-o', csv], { encoding: 'utf8', timeout: 300_000 });
    if (run.status !== 0 || !fs.existsSync(csv)) throw new Error(`electronegativity failed (status ${run.status}):\n${run.stdout}\n${run.stderr}`);
    const [header, ...lines] = fs.readFileSync(csv, 'utf8').split('\n').filter((l) => l.trim() !== '');
    const names = csvFields(header);
    const findings = lines.map((l) => Object.fromEntries(csvFields(l).map((v, i) => [names[i], v])));
    const { falsePositives } = JSON.parse(fs.readFileSync(path.join(root, 'security', 'electronegativity-false-positives.json'), 'utf8'));
    const serious = findings.filter((f) => f.severity === 'HIGH' || f.severity === 'MEDIUM');
    const listed = (f) => falsePositives.find((fp) => fp.check === f.issue && f.filename.replace(/\\/g, '/') === fp.file && String(f.sample).includes(fp.sample));
    const unlisted = serious.filter((f) => listed(f) === undefined);
    const used = new Set(serious.map(listed).filter(Boolean));
    return { findings, serious, unlisted, unusedFalsePositives: falsePositives.filter((fp) => !used.has(fp)) };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (process.argv.includes('--install')) install();
  if (!isInstalled()) {
    console.error(`electronegativity is not installed (${TOOL_HOME}); run: node scripts/electronegativity.mjs --install`);
    process.exit(2);
  }
  const { findings, serious, unlisted, unusedFalsePositives } = scan(process.argv.find((a, i) => i > 1 && !a.startsWith('--')));
  console.log(`electronegativity ${TOOL_VERSION}: ${findings.length} finding(s), ${serious.length} HIGH/MEDIUM, ${serious.length - unlisted.length} documented false positive(s)`);
  for (const fp of unusedFalsePositives) console.warn(`note: false positive no longer reported, remove it from the list: ${fp.check} ${fp.file}`);
  for (const f of unlisted) console.error(`${f.severity} ${f.issue} ${f.filename}:${f.location} ${f.sample}\n  ${f.description} (${f.url})`);
  process.exit(unlisted.length === 0 ? 0 : 1);
}
