/**
 * The layer order inside src/main (docs/dev/ARCHITECTURE.md, "Dependency direction") and the 400-line limit are
 * enforced by eslint.config.js, not by memory: this runs the project's own ESLint config on probe files
 * and expects the errors, so the rules cannot silently stop applying (a renamed folder, a glob that no
 * longer matches, a later config block that overrides them). The probes are linted as text under a path
 * in the layer (ESLint picks the config by that path), so no file is written into src/ where a parallel
 * `eslint .` would see it.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The messages of one rule when `code` is linted as the file `file` (relative to the repo). */
async function ruleMessages(file: string, code: string, ruleId: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return (result?.messages ?? []).filter((m) => m.ruleId === ruleId).map((m) => m.message);
}

/** The layer errors of one import statement in a probe file at `file`. */
function layerErrors(file: string, specifier: string): Promise<string[]> {
  return ruleMessages(file, `import type { X } from '${specifier}';\nexport type Y = X;\n`, 'no-restricted-imports');
}

describe('the layer rule of src/main', () => {
  it('refuses an import from a lower layer into a higher one (platform → dictation)', async () => {
    const errors = await layerErrors('src/main/platform/layer-probe.ts', '../dictation/controller.ts');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('src/main/platform imports only the layers below it');
  });

  it('refuses dictation → ipc, ipc → app and any folder → index.ts', async () => {
    expect(await layerErrors('src/main/dictation/layer-probe.ts', '../ipc/services.ts')).toHaveLength(1);
    expect(await layerErrors('src/main/ipc/layer-probe.ts', '../app/app-protocol.ts')).toHaveLength(1);
    expect(await layerErrors('src/main/app/layer-probe.ts', '../index.ts')).toHaveLength(1);
  });

  it('refuses an import between peers of the middle layer, from a nested folder too', async () => {
    const direct = await layerErrors('src/main/settings/layer-probe.ts', '../enhance/providers/registry.ts');
    const nested = await layerErrors('src/main/enhance/providers/layer-probe.ts', '../../history/history-index.ts');
    expect(direct).toHaveLength(1);
    expect(direct[0]).toContain('Peers (');
    expect(nested).toHaveLength(1);
  });

  it('allows imports down the layers and of src/shared, whose folders share names with main’s', async () => {
    expect(await layerErrors('src/main/dictation/layer-probe.ts', '../settings/config-store.ts')).toEqual([]);
    expect(await layerErrors('src/main/app/layer-probe.ts', '../ipc/register.ts')).toEqual([]);
    expect(await layerErrors('src/main/enhance/layer-probe.ts', '../../shared/history/record.ts')).toEqual([]);
    expect(await layerErrors('src/main/platform/layer-probe.ts', '../ports/output-port.ts')).toEqual([]);
  });

  it('keeps electron out of the services while the middle layer is checked', async () => {
    const errors = await ruleMessages('src/main/audio/layer-probe.ts', "import { app } from 'electron';\nexport const a = app;\n", 'no-restricted-imports');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toContain('Services run under plain Node');
  });
});

describe('max-lines in src', () => {
  /** `n` one-line statements, each ending in a newline: `wc -l` counts n. */
  const linesOf = (n: number): string => Array.from({ length: n }, (_, i) => `export const v${i} = ${i};\n`).join('');

  it('allows 400 lines and refuses 401, counted as wc -l counts them', async () => {
    expect(await ruleMessages('src/main/audio/size-probe.ts', linesOf(400), 'max-lines')).toEqual([]);
    expect(await ruleMessages('src/main/audio/size-probe.ts', linesOf(401), 'max-lines')).toHaveLength(1);
  });

  it('counts comment and blank lines too', async () => {
    const padded = `${'// note\n\n'.repeat(150)}${linesOf(101)}`;
    expect(await ruleMessages('src/renderer/size-probe.tsx', padded, 'max-lines')).toHaveLength(1);
  });
});

describe('max-lines-per-function in src', () => {
  /** A function of `n` lines in all: its header, `n - 2` body lines (blank or comment when asked), its closing brace. */
  const functionOf = (n: number, body = (i: number) => `  const v${i} = ${i};\n`): string =>
    `export function probe(): void {\n${Array.from({ length: n - 2 }, (_, i) => body(i)).join('')}}\n`;

  it('allows a function of 80 lines and refuses one of 81', async () => {
    expect(await ruleMessages('src/main/enhance/size-probe.ts', functionOf(80), 'max-lines-per-function')).toEqual([]);
    expect(await ruleMessages('src/main/enhance/size-probe.ts', functionOf(81), 'max-lines-per-function')).toHaveLength(1);
  });

  it('counts comment and blank lines too, in the renderer as well', async () => {
    const padded = functionOf(81, (i) => (i % 2 === 0 ? '  // note\n' : '\n'));
    expect(await ruleMessages('src/renderer/size-probe.tsx', padded, 'max-lines-per-function')).toHaveLength(1);
  });
});
