// Lint config, including the layer rules of ARCHITECTURE.md: they are enforced here, not by memory.
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
  {
    // Platform (OS glue) sits below the services that use it: the ports it implements live in
    // src/main/ports, so nothing here may reach up into dictation, the app or the IPC layer.
    files: ['src/main/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [],
        [
          { group: ['**/dictation/**', '**/app/**', '**/ipc/**'], message: 'platform is below dictation, app and ipc: declare the port in src/main/ports.' },
          { group: ['**/renderer/**', '**/preload/**'], message: 'Main never imports renderer or preload code.' },
        ],
      ),
    },
  },
  {
    // The ports are the floor of src/main: types over src/shared, importing nothing above them.
    files: ['src/main/ports/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict(
        [{ name: 'electron', message: 'Ports are plain types: no electron.' }],
        [{ regex: '^(?!\\.\\./\\.\\./shared/|\\./)', message: 'src/main/ports imports only src/shared and itself.' }],
      ),
    },
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
