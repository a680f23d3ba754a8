// Lint config, including the layer rules of docs/dev/ARCHITECTURE.md: they are enforced here, not by memory.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import vitest from '@vitest/eslint-plugin';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

const restrict = (paths, patterns) => ['error', { paths, patterns }];
const nodeAndElectron = [
  ...nodeBuiltins.map((name) => ({ name, message: 'This layer has no Node: keep Node code in src/main.' })),
  { name: 'electron', message: 'Only src/main/{app,ipc,platform,settings/secrets} and src/preload may import electron.' },
];

/** The layers of src/main, lowest first; folders in one row are peers and may not import each other. */
const MAIN_LAYERS = [['ports'], ['platform'], ['text-rules'], ['audio', 'asr', 'enhance', 'history', 'settings'], ['dictation'], ['ipc'], ['app']];
/**
 * Peer imports the table allows for now, each with its reason. asr → audio: every engine consumes audio's PCM
 * helpers, and the ASR service journals audio and runs its VAD; so audio sits below asr, as
 * docs/dev/ARCHITECTURE.md, "Dependency direction", states (to settle one day: split the row, or move the pure
 * PCM helpers to src/shared).
 */
const PEER_IMPORTS_ALLOWED = { asr: ['audio'] };
/** Folders of src/main that may import electron (settings/secrets*.ts too, handled below). */
const ELECTRON_FOLDERS = new Set(['app', 'ipc', 'platform']);
const noElectronInServices = { name: 'electron', message: 'Services run under plain Node: put Electron glue in app/, ipc/, platform/ or settings/secrets.' };
const noRendererOrPreload = { group: ['**/renderer/**', '**/preload/**'], message: 'Main never imports renderer or preload code.' };

/** The src/main folders `folder` must not import: its peers and every layer above it, and the composition root. */
function foldersAbove(folder) {
  const level = MAIN_LAYERS.findIndex((row) => row.includes(folder));
  const allowed = PEER_IMPORTS_ALLOWED[folder] ?? [];
  return MAIN_LAYERS.flatMap((row, i) => (i < level ? [] : row.filter((other) => other !== folder && !allowed.includes(other))));
}

/**
 * The import pattern that refuses `forbidden` from a file of src/main/<folder>: a relative path climbing
 * to src/main and into one of them (`../dictation/x.ts`, `../../ipc/x.ts`), and src/main/index.ts.
 * src/shared's folders (`../../shared/history/`) never match: the climb must be followed by the folder.
 */
function layerPattern(folder, forbidden) {
  const names = [...forbidden, 'index\\.ts$'].join('|');
  const peers = MAIN_LAYERS.find((row) => row.includes(folder)).filter((other) => forbidden.includes(other));
  const peerNote = peers.length ? ` Peers (${peers.join(', ')}) only through src/shared types or ports.` : '';
  return {
    regex: `^(\\.\\./)+(${names})(/|$)`,
    message: `src/main/${folder} imports only the layers below it (docs/dev/ARCHITECTURE.md, "Dependency direction": ${MAIN_LAYERS.map((row) => row.join(', ')).join(' < ')} < index.ts).${peerNote} Move the shared code down (src/shared, or a port in the lowest layer that needs it).`,
  };
}

/** One config block per folder of src/main (two for settings: its secrets files may import electron). */
function mainLayerBlocks() {
  return MAIN_LAYERS.flat().flatMap((folder) => {
    const layer = layerPattern(folder, foldersAbove(folder));
    const files = [`src/main/${folder}/**/*.ts`];
    const floor = folder === 'ports' ? [{ regex: '^(?!\\.\\./\\.\\./shared/|\\./)', message: 'src/main/ports imports only src/shared and itself.' }] : [];
    const rule = (paths) => ({ 'no-restricted-imports': restrict(paths, [layer, ...floor, noRendererOrPreload]) });
    if (ELECTRON_FOLDERS.has(folder)) return [{ files, rules: rule([]) }];
    const electronGlue = folder === 'settings' ? ['src/main/settings/secrets*.ts'] : [];
    const blocks = [{ files, ignores: electronGlue, rules: rule(folder === 'ports' ? [{ name: 'electron', message: 'Ports are plain types: no electron.' }] : [noElectronInServices]) }];
    return electronGlue.length ? [...blocks, { files: electronGlue, rules: rule([]) }] : blocks;
  });
}

/** Files allowed past max-lines for now, each with why it is not split yet (none today; keep it that way). */
const MAX_LINES_ALLOWED = [
];

/** Files allowed functions past max-lines-per-function for now, each with why it is not split yet. */
const MAX_FUNCTION_LINES_ALLOWED = [
];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'release/**', 'bench/results/**', '.tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': restrict(nodeAndElectron, [
        { group: ['**/main/**', '**/preload/**', '**/cli/**'], message: 'The renderer reaches main only through src/renderer/lib/bridge.ts.' },
      ]),
    },
  },
  {
    files: ['src/renderer/**/*.{ts,tsx}'],
    ignores: ['src/renderer/lib/bridge.ts'],
    rules: {
      'no-restricted-globals': ['error', { name: 'tingxie', message: 'Use src/renderer/lib/bridge.ts, the one module that touches the preload global.' }],
      'no-restricted-properties': ['error', { object: 'window', property: 'tingxie', message: 'Use src/renderer/lib/bridge.ts.' }],
    },
  },
  {
    files: ['src/preload/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        nodeBuiltins.map((name) => ({ name, message: 'The sandboxed preload has no Node.' })),
        [
          { regex: '^(?!electron$|\\.\\.?/)', message: 'The preload imports only electron and src/shared.' },
          { group: ['**/main/**', '**/renderer/**', '**/cli/**'], message: 'The preload imports only electron and src/shared.' },
        ],
      ),
    },
  },
  {
    files: ['src/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(nodeAndElectron, [
        { regex: '^(?!zod(/|$)|\\.\\.?/)', message: 'src/shared is environment-free: zod and relative imports only.' },
        { group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**'], message: 'src/shared imports nothing above it.' },
      ]),
    },
  },
  {
    // Services run under plain Node (tests, CLI): only the Electron-facing folders may import electron.
    files: ['src/main/**/*.ts', 'src/cli/**/*.ts'],
    ignores: ['src/main/app/**', 'src/main/ipc/**', 'src/main/platform/**', 'src/main/settings/secrets*.ts', 'src/main/index.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [{ name: 'electron', message: 'Services run under plain Node: put Electron glue in app/, ipc/, platform/ or settings/secrets.' }],
        [{ group: ['**/renderer/**', '**/preload/**'], message: 'Main never imports renderer or preload code.' }],
      ),
    },
  },
  // The order inside src/main (docs/dev/ARCHITECTURE.md, "Dependency direction"): ports < platform < audio <
  // asr; enhance, history, settings beside them < dictation < ipc < app < index.ts. A folder imports only
  // folders below it, and its peers only through src/shared types or ports (asr → audio excepted, above). Modelled on VS Code's layering rule, one table
  // of layers checked on every import:
  // https://github.com/microsoft/vscode/blob/main/.eslint-plugin-local/code-layering.ts
  ...mainLayerBlocks(),
  {
    // docs/dev/ARCHITECTURE.md, convention 8: a file past ~400 lines is asking to be split. Counted as `wc -l` counts
    // them (blank lines and comments included): https://eslint.org/docs/latest/rules/max-lines
    files: ['src/**/*.{ts,tsx}'],
    ignores: MAX_LINES_ALLOWED.map(([file]) => file),
    rules: { 'max-lines': ['error', { max: 400, skipBlankLines: false, skipComments: false }] },
  },
  {
    // A function one reads at once: past 80 lines it is asking to be split by concern into named functions.
    // Counted like max-lines (blank lines and comments included), IIFEs too:
    // https://eslint.org/docs/latest/rules/max-lines-per-function
    files: ['src/**/*.{ts,tsx}'],
    ignores: MAX_FUNCTION_LINES_ALLOWED.map(([file]) => file),
    rules: { 'max-lines-per-function': ['error', { max: 80, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    files: ['test/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.{js,mjs}'],
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
  },
  {
    // A test with no assertion passes whatever the code does: every test must assert, directly or
    // through one of the assertion helpers named here (a name covers its members: `expect` covers
    // expect.poll and expect.soft). The rule:
    // https://github.com/vitest-dev/eslint-plugin-vitest/blob/main/docs/rules/expect-expect.md
    files: ['test/**/*.test.ts'],
    plugins: { vitest },
    rules: {
      'vitest/expect-expect': [
        'error',
        {
          assertFunctionNames: [
            'expect',
            'assert',
            // fast-check's runner throws with the counterexample when a property fails:
            // https://fast-check.dev/docs/core-blocks/runners/
            'fc.assert',
            // test/unit/main/ipc/hostile-payloads.test.ts: the envelope was refused, with that code and a clean message.
            'expectRefused',
          ],
        },
      ],
    },
  },
);
