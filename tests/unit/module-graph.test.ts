/**
 * The engine's module graph rules (.dependency-cruiser.cjs, run by `npm run lint`) fire: a
 * throw-away engine tree with an upward arrow (runtime or type-only), a cycle, a folder on no
 * floor or a runtime import of the dispatcher below the top floor is refused, a downward arrow
 * passes, and the real engine breaks no rule (there is no baseline of known violations).
 * The other processes' code (the CLI, bin/, scripts/, the OpenClaw plugin) is held to its floors
 * the same way (issue 38).
 */
import { createRequire } from 'node:module';
import fs from 'node:fs';
import path from 'node:path';
import { cruise } from 'dependency-cruiser';
import { describe, expect, it } from 'vitest';
import { tmpDir, writeTree } from '../helpers/tmp';

const root = path.resolve(__dirname, '..', '..');
const rules = createRequire(import.meta.url)(path.join(root, '.dependency-cruiser.cjs')) as { forbidden: unknown[] };

type Violation = { rule: { name: string; severity: string }; from: string; to: string };

/** The rule violations in `baseDir` cruised from `roots` (the lint's options; default: the engine alone). */
async function violations(baseDir: string, roots = ['electron/engine'], includeOnly = '^electron/engine/'): Promise<Violation[]> {
  const res = await cruise(roots, {
    baseDir,
    ruleSet: { forbidden: rules.forbidden } as never,
    validate: true,
    tsPreCompilationDeps: true,
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
    exclude: { path: 'node_modules' },
    includeOnly,
  });
  return (res.output as { summary: { violations: Violation[] } }).summary.violations.filter((v) => v.rule.severity !== 'ignore');
}

/** The CLI, bin/, scripts/ and the plugin as `npm run lint` cruises them: the rule violations in `baseDir`. */
function processViolations(baseDir: string): Promise<Violation[]> {
  const roots = ['electron/engine', 'electron/cli', 'bin', 'scripts', 'openclaw-plugin'].filter((d) => fs.existsSync(path.join(baseDir, d)));
  return violations(baseDir, roots, '^(electron|shared|bin|scripts|openclaw-plugin)/');
}

/** Cruise `files` (paths under electron/engine/) in a temp tree; the names of the rules broken. */
async function broken(files: Record<string, string>): Promise<string[]> {
  const dir = tmpDir('graph');
  writeTree(dir, Object.fromEntries(Object.entries(files).map(([p, c]) => [`electron/engine/${p}`, c])));
  return (await violations(dir)).map((v) => v.rule.name).sort();
}

describe('engine module graph', () => {
  it('refuses an arrow up the floors (index → search) and allows one down (search → index)', async () => {
    expect(await broken({ 'index/a.ts': "import { b } from '../search/b';\nexport const a = b;\n", 'search/b.ts': 'export const b = 1;\n' })).toEqual(['no-up-from-index']);
    expect(await broken({ 'search/a.ts': "import { b } from '../index/b';\nexport const a = b;\n", 'index/b.ts': 'export const b = 1;\n' })).toEqual([]);
  });

  it('refuses a file-level cycle inside one folder', async () => {
    const names = await broken({
      'qmd/a.ts': "import { b } from './b';\nexport const a = () => b;\n",
      'qmd/b.ts': "import { a } from './a';\nexport const b = () => a;\n",
    });
    expect(names).toEqual(['no-circular']);
  });

  it('the real engine breaks no rule', async () => {
    expect((await violations(root)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  });

  it('refuses the search pipeline choosing its backend (search → qmd) and the index calling the pipeline (index → search)', async () => {
    // The two arrows issue 11's seam removed: the backend is chosen in electron/engine/search-backend.ts.
    expect(await broken({ 'search/h.ts': "import { q } from '../qmd/q';\nexport const h = q;\n", 'qmd/q.ts': 'export const q = 1;\n' })).toEqual(['no-up-from-search']);
    expect(
      await broken({
        'index/m.ts': "import type { S } from '../search/s';\nexport type M = S;\n",
        'search/s.ts': 'export type S = number;\n',
        'search-backend.ts': "import { q } from './qmd/q';\nexport const c = q;\n",
        'qmd/q.ts': 'export const q = 1;\n',
      }),
    ).toEqual(['no-up-from-index']);
  });

  it('refuses a folder on no floor, whether it imports, is imported or stands alone', async () => {
    expect(await broken({ 'stray/a.ts': "import { b } from '../util/b';\nexport const a = b;\n", 'util/b.ts': 'export const b = 1;\n' })).toEqual(['folder-on-no-floor']);
    expect(await broken({ 'app/a.ts': "import { b } from '../stray/b';\nexport const a = b;\n", 'stray/b.ts': 'export const b = 1;\n' })).toEqual(['folder-on-no-floor']);
    expect(await broken({ 'stray/a.ts': 'export const a = 1;\n' })).toEqual(['folder-on-no-floor']);
  });

  it('refuses a type arrow up: a domain naming the root files, the ground floor naming a domain', async () => {
    // The context interface lives on the ground floor (core/context.ts), so domains' type arrows point down.
    expect(await broken({ 'index/a.ts': "import type { C } from '../engine';\nexport type A = C;\n", 'engine.ts': 'export type C = number;\n' })).toEqual(['no-engine-root-from-domains']);
    expect(
      await broken({ 'core/context.ts': "import type { S } from '../search/s';\nexport type C = S;\n", 'search/s.ts': 'export type S = number;\n' }),
    ).toEqual(['no-up-from-core']);
  });

  it('refuses the config ↔ core cycle: config throws the base floor\'s error, and core loads config', async () => {
    const tree = {
      'base/errors.ts': 'export class EngineError extends Error {}\n',
      'core/errors.ts': "export * from '../base/errors';\n",
      'core/context.ts': "import { load } from '../config/load';\nexport const ctx = load;\n",
    };
    expect(await broken({ ...tree, 'config/load.ts': "import { EngineError } from '../core/errors';\nexport const load = () => new EngineError();\n" })).toEqual(['no-up-from-config']);
    expect(await broken({ ...tree, 'config/load.ts': "import { EngineError } from '../base/errors';\nexport const load = () => new EngineError();\n" })).toEqual([]);
  });

  it('refuses a context made outside the root, and allows the context type everywhere', async () => {
    const context = { 'core/context.ts': 'export type EngineContext = number;\nexport const createContext = () => 1;\n' };
    expect(await broken({ ...context, 'app/a.ts': "import { createContext } from '../core/context';\nexport const a = createContext();\n" })).toEqual(['context-only-from-the-root']);
    expect(await broken({ ...context, 'app/a.ts': "import type { EngineContext } from '../core/context';\nexport type A = EngineContext;\n" })).toEqual([]);
    expect(await broken({ ...context, 'assemble.ts': "import { createContext } from './core/context';\nexport const a = createContext();\n" })).toEqual([]);
  });

  it('refuses a runtime import of the dispatcher below the top floor and allows a type-only one', async () => {
    const dispatcher = { 'rpc/dispatcher.ts': 'export type H = number;\nexport const d = 1;\n' };
    expect(await broken({ ...dispatcher, 'sessions/a.ts': "import { d } from '../rpc/dispatcher';\nexport const a = d;\n" })).toEqual(['no-dispatcher-at-runtime-below-top']);
    expect(await broken({ ...dispatcher, 'sessions/a.ts': "import type { H } from '../rpc/dispatcher';\nexport type A = H;\n" })).toEqual([]);
    expect(await broken({ ...dispatcher, 'app/a.ts': "import { d } from '../rpc/dispatcher';\nexport const a = d;\n" })).toEqual([]);
  });
});

describe('every process\'s module graph', () => {
  const brokenIn = async (files: Record<string, string>) => (await processViolations(writeTree(tmpDir('graph'), files))).map((v) => v.rule.name).sort();

  it('refuses the plugin importing Cairn, bin/ importing the sources, the engine importing the CLI, product code importing scripts/', async () => {
    const engine = { 'electron/engine/util/u.ts': 'export const u = 1;\n' };
    expect(await brokenIn({ ...engine, 'openclaw-plugin/index.js': "import { u } from '../electron/engine/util/u';\nexport default u;\n" })).toEqual(['plugin-stands-alone']);
    expect(await brokenIn({ ...engine, 'openclaw-plugin/index.js': "import { spawn } from 'node:child_process';\nimport { c } from './c.js';\nexport default [spawn, c];\n", 'openclaw-plugin/c.js': 'export const c = 1;\n' })).toEqual([]);
    expect(await brokenIn({ ...engine, 'bin/cairn.mjs': "import { u } from '../electron/engine/util/u.ts';\nconsole.log(u);\n" })).toEqual(['bin-stands-alone']);
    expect(await brokenIn({ 'electron/engine/util/u.ts': "import { c } from '../../cli/c';\nexport const u = c;\n", 'electron/cli/c.ts': 'export const c = 1;\n' })).toEqual(['engine-below-its-callers']);
    expect(await brokenIn({ 'electron/cli/c.ts': "import { b } from '../../scripts/b.mjs';\nexport const c = b;\n", 'scripts/b.mjs': 'export const b = 1;\n' })).toEqual(['cli-not-the-window', 'no-product-code-imports-scripts']);
  });

  it('refuses a cycle in the CLI', async () => {
    expect(await brokenIn({ 'electron/cli/a.ts': "import { b } from './b';\nexport const a = () => b;\n", 'electron/cli/b.ts': "import { a } from './a';\nexport const b = () => a;\n" })).toEqual(['no-circular']);
  });

  it('the real CLI, bin/, scripts/ and plugin break no rule', async () => {
    expect((await processViolations(root)).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
  }, 60_000);
});
