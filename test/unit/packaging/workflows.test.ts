/**
 * The GitHub Actions workflows (.github/workflows/) cannot run here, so `npm test` checks them: each file
 * against the published workflow JSON schema (SchemaStore's, compiled into @action-validator/core:
 * https://github.com/mpalmer/action-validator), and the project's own rules — every `npm run X` exists in
 * package.json, every step that runs tests has a name, the test matrix covers the three desktop OSes, each
 * test project runs as its own step, and secrets appear only in the release and canary workflows. Each
 * rule is also shown to fail on a broken workflow written to a temp folder.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { validateWorkflow, type ValidationError } from '@action-validator/core';
import { afterAll, describe, expect, it } from 'vitest';
import { providerPresets } from '../../../src/main/enhance/providers/presets.ts';
import { canaryEnvPrefix } from '../../../scripts/provider-canary.ts';

// js-yaml ships no types (as in electron-builder.test.ts).
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
const root = path.resolve(import.meta.dirname, '../../..');
const WORKFLOWS = path.join(root, '.github/workflows');
/** The workflows allowed to read secrets: the rest run on every push and pull request. */
const SECRET_WORKFLOWS = new Set(['release.yml', 'canary.yml']);
const DESKTOP_RUNNERS = ['ubuntu-latest', 'macos-latest', 'windows-latest'];
const TEST_SCRIPTS = ['test:unit', 'test:browser', 'test:app', 'test:e2e'];

interface Step {
  readonly name?: string;
  readonly run?: string;
  readonly uses?: string;
  readonly if?: string;
}
interface Job {
  readonly steps?: readonly Step[];
  readonly strategy?: { readonly matrix?: { readonly os?: readonly string[] } };
}
interface Workflow {
  readonly jobs?: Readonly<Record<string, Job>>;
}

/** A workflow file as read from a folder. */
interface WorkflowFile {
  readonly file: string;
  readonly text: string;
  readonly parsed: Workflow;
}

function readWorkflows(dir: string): WorkflowFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      return { file, text, parsed: (yaml.load(text) ?? {}) as Workflow };
    });
}

function steps(w: Workflow): Step[] {
  return Object.values(w.jobs ?? {}).flatMap((j) => [...(j.steps ?? [])]);
}

/** The schema errors as `path: detail` lines, nested one-of branches flattened. */
function schemaProblems(text: string): string[] {
  const flatten = (errors: readonly ValidationError[]): string[] =>
    errors.flatMap((e) => ['states' in e && e.states ? e.states.flatMap((s) => flatten(s.errors)) : [], `${'path' in e ? e.path : ''}: ${e.detail ?? e.title}`].flat());
  return [...new Set(flatten(validateWorkflow(text).errors))];
}

/** `npm run X` calls whose script package.json lacks. */
function missingScripts(w: Workflow, scripts: Readonly<Record<string, string>>): string[] {
  const calls = steps(w).flatMap((s) => [...(s.run ?? '').matchAll(/\bnpm run ([\w:.-]+)/g)].map((m) => m[1] ?? ''));
  return calls.filter((c) => scripts[c] === undefined);
}

/** Steps that run tests (npm test, npm run test:*, vitest) without a name to find them by in the log. */
function unnamedTestSteps(w: Workflow): string[] {
  return steps(w)
    .filter((s) => s.name === undefined && /\bnpm (run )?test\b|\bnpm run test:|\bvitest\b/.test(s.run ?? ''))
    .map((s) => s.run ?? '');
}

/** Workflow files that use secrets without being allowed to. */
function secretLeaks(files: readonly WorkflowFile[]): string[] {
  return files.filter((f) => !SECRET_WORKFLOWS.has(f.file) && /\$\{\{[^}]*\bsecrets\./.test(f.text)).map((f) => f.file);
}

/** Every problem of a folder of workflows, per rule. */
function checkFolder(dir: string, scripts: Readonly<Record<string, string>>): { schema: string[]; scripts: string[]; unnamed: string[]; secrets: string[] } {
  const files = readWorkflows(dir);
  const per = (f: (w: WorkflowFile) => string[]): string[] => files.flatMap((w) => f(w).map((p) => `${w.file}: ${p}`));
  return {
    schema: per((w) => schemaProblems(w.text)),
    scripts: per((w) => missingScripts(w.parsed, scripts)),
    unnamed: per((w) => unnamedTestSteps(w.parsed)),
    secrets: secretLeaks(files),
  };
}

const packageScripts = (JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
const workflows = readWorkflows(WORKFLOWS);
const byName = (file: string): WorkflowFile => {
  const w = workflows.find((x) => x.file === file);
  if (w === undefined) throw new Error(`.github/workflows/${file} is missing`);
  return w;
};

describe('.github/workflows', () => {
  it('has the test, release and canary workflows', () => {
    expect(workflows.map((w) => w.file)).toEqual(expect.arrayContaining(['test.yml', 'release.yml', 'canary.yml']));
  });

  it('every workflow passes the schema and the project rules', () => {
    expect(checkFolder(WORKFLOWS, packageScripts)).toEqual({ schema: [], scripts: [], unnamed: [], secrets: [] });
  });

  it('test.yml: the three desktop OSes, each test project as its own step, results kept on failure', () => {
    const w = byName('test.yml').parsed;
    const job = Object.values(w.jobs ?? {})[0];
    expect(job?.strategy?.matrix?.os).toEqual(expect.arrayContaining(DESKTOP_RUNNERS));
    const runs = steps(w).map((s) => s.run ?? '');
    for (const script of TEST_SCRIPTS) expect(runs.some((r) => r.includes(`npm run ${script}`)), script).toBe(true);
    // The Electron binary is fetched by electron's own installer, since the package downloads nothing at install.
    expect(runs.some((r) => r.includes('node_modules/electron/install.js'))).toBe(true);
    const upload = steps(w).find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(upload?.if).toBe('failure()');
    expect(byName('test.yml').text).toMatch(/path: test-results\//);
  });

  it('release.yml: packages with electron-builder and signs from the documented secrets', () => {
    const { text, parsed } = byName('release.yml');
    expect(steps(parsed).some((s) => /npm run package -- --publish always/.test(s.run ?? ''))).toBe(true);
    for (const secret of ['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_ID', 'APPLE_APP_SPECIFIC_PASSWORD', 'APPLE_TEAM_ID', 'WIN_CSC_LINK', 'WIN_CSC_KEY_PASSWORD', 'GITHUB_TOKEN']) {
      expect(text).toContain(`secrets.${secret} }}`);
    }
    expect(text).toContain('https://www.electron.build/code-signing');
    expect(text).toContain('https://www.electron.build/publish');
  });

  it('canary.yml: passes a key for every cloud preset under the name the canary reads, and may file issues', () => {
    const { text } = byName('canary.yml');
    const cloud = providerPresets().filter((p) => !/localhost|127\.0\.0\.1/.test(p.defaultBaseURL));
    const expected = cloud.map((p) => `${canaryEnvPrefix(p.kind)}_KEY`).sort();
    const passed = [...text.matchAll(/^\s+(TINGXIE_CANARY_\w+_KEY):/gm)].map((m) => m[1]).sort();
    expect(passed).toEqual(expected);
    expect(text).toMatch(/issues: write/);
    expect(text).toMatch(/gh issue create/);
  });
});

describe('the workflow checks fail on a broken workflow', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tingxie-workflows-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
  const write = (file: string, text: string): void => fs.writeFileSync(path.join(dir, file), text);

  it('reports a misspelt key, a missing npm script, an unnamed test step and secrets outside release/canary', () => {
    write(
      'broken.yml',
      [
        'on: push',
        'jobs:',
        '  test:',
        '    runs-onn: ubuntu-latest',
        '    steps:',
        '      - run: npm run test:nowhere',
        '      - run: npm run test:unit',
        '        env:',
        '          TOKEN: ${{ secrets.SOME_TOKEN }}',
        '',
      ].join('\n'),
    );
    const problems = checkFolder(dir, packageScripts);
    expect(problems.schema.join('\n')).toContain("Additional property 'runs-onn' is not allowed");
    expect(problems.scripts).toEqual(['broken.yml: test:nowhere']);
    expect(problems.unnamed).toEqual(['broken.yml: npm run test:nowhere', 'broken.yml: npm run test:unit']);
    expect(problems.secrets).toEqual(['broken.yml']);
  });
});
