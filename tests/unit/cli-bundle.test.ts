/**
 * The CLI bundle (scripts/build-cli.mjs) behaves like the TypeScript sources: built into a
 * temp dir and run as its own process, `cairn search --json` prints what the sources print,
 * usage errors and `--version` are the same, and the vendored packages (zod, commander,
 * json5 as code-cached scripts) work. Users run the bundle; the other tests run the sources.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pkg from '../../package.json' with { type: 'json' };
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { TEST_CACHE_DIR } from '../../testkit/test-cache';
import { tmpDir, writeTree } from '../helpers/tmp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
let outdir = '';

/** Run the built bundle as a process (a two-line runner, like bench/search.ts). */
function bundle(args: string[]) {
  const r = spawnSync(process.execPath, [path.join(outdir, 'run.mjs'), ...args], { encoding: 'utf8' });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Run the CLI from the sources, in-process. */
async function sources(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false }));
  return { code, stdout, stderr };
}

/** A state dir using the static embedder (shipped with Cairn: nothing to put in the state dir). */
async function stateDir(): Promise<string> {
  const dir = writeTree(tmpDir('cairn-bundle-'), {
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'static', sync: { watch: false } } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim.\n',
    'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed the staging server after ECONNREFUSED on the router.\n',
    'workspace/memory/2024-06-01.md': '# Trip\n\nBooked the kayak trip; the router firmware update can wait.\n',
  });
  return dir;
}

beforeAll(async () => {
  // Inside the checkout, so that the bundle's external packages resolve from node_modules.
  fs.mkdirSync(TEST_CACHE_DIR, { recursive: true });
  outdir = fs.mkdtempSync(path.join(TEST_CACHE_DIR, 'cli-bundle-'));
  const build = `const m = await import(${JSON.stringify(pathToFileURL(path.join(root, 'scripts', 'build-cli.mjs')).href)});
    await m.buildCli(${JSON.stringify(root)}, { outdir: ${JSON.stringify(outdir)} });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', build], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundle build failed: ${r.stderr}`);
  fs.writeFileSync(path.join(outdir, 'run.mjs'), "const { runCli } = await import('./cairn-cli.js');\nprocess.exit(await runCli(process.argv.slice(2)));\n");
}, 180_000);

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

describe('CLI bundle', () => {
  it('lists only existing source files as its inputs (bin/cairn.mjs runs it only while they are older)', () => {
    const { inputs } = JSON.parse(fs.readFileSync(path.join(outdir, 'inputs.json'), 'utf8')) as { inputs: string[] };
    expect(inputs).toContain('electron/cli/main.ts');
    for (const f of inputs) expect(fs.existsSync(path.join(root, f)), f).toBe(true);
  });

  it('builds the vendored packages with their code caches', () => {
    for (const name of ['zod', 'commander', 'json5']) {
      expect(fs.statSync(path.join(outdir, 'vendor', `${name}.js`)).size).toBeGreaterThan(0);
      expect(fs.statSync(path.join(outdir, 'vendor', `${name}.js.cache`)).size).toBeGreaterThan(0);
    }
  });

  it('searches (syncing first) and prints the same JSON as the sources', async () => {
    const dir = await stateDir();
    for (const q of ['router firmware', 'ECONNREFUSED staging', 'kayak']) {
      const b = bundle(['search', q, '--state-dir', dir, '--json']);
      expect(b.stderr).toBe('');
      expect(b.code).toBe(0);
      const s = await sources(['search', q, '--state-dir', dir, '--json']);
      expect(s.code).toBe(0);
      const out = JSON.parse(b.stdout);
      expect(out).toEqual(JSON.parse(s.stdout));
      expect(out).toMatchObject({ mode: 'hybrid', embedder: { provider: 'static' } });
      // No failure warnings; a stated minScore cut ("N more results scored below …") may be there.
      expect((out.warnings as string[]).filter((w) => !/below minScore/.test(w))).toEqual([]);
      expect(out.results.length).toBeGreaterThan(0);
    }
  });

  it('gives the same usage errors, exit codes and version as the sources', async () => {
    const dir = await stateDir();
    for (const args of [['search', 'x', '--min-score', '7'], ['search', 'x', '--agent', 'nobody'], ['search', 'x', '-n', 'many'], ['--version']]) {
      const b = bundle([...args, '--state-dir', dir]);
      const s = await sources([...args, '--state-dir', dir]);
      expect({ code: b.code, stdout: b.stdout, stderr: b.stderr }).toEqual(s);
    }
    expect(bundle(['--version']).stdout.trim()).toBe(pkg.version);
    const missing = bundle(['search']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/missing required argument 'query'/);
  });
});
