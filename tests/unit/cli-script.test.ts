/**
 * A one-shot `cairn search` as one code-cached script (scripts/build-cli-script.mjs from
 * electron/cli/search-main.ts, loaded by bin/cli-script.mjs), which bin/cairn.mjs runs with its
 * own parse of the arguments: built into a temp dir, its search prints what the whole CLI from
 * the TypeScript sources prints, with its code cache, without
 * one, and with a cache that is corrupt, truncated, not a cache or made for another script
 * (refused, never a crash); the thin client's rules get a cache of their own; every module
 * URL the script hands out (workers, the renderer, the shipped model) is a file of the build.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../electron/cli/main';
import { createRuntime } from '../../electron/cli/runtime';
import { TEST_CACHE_DIR } from '../../testkit/test-cache';
import { tmpDir, writeTree } from '../helpers/tmp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const LOADER = pathToFileURL(path.join(root, 'bin', 'cli-script.mjs')).href;
let outdir = '';
let cacheFile = '';
let goodCache: Buffer = Buffer.alloc(0);

/** Run `cairn <args>` through the built script as bin/cairn.mjs does (its parse, then the script); stderr's first line is the cache's fate. */
function script(args: string[]) {
  const r = spawnSync(process.execPath, [path.join(outdir, 'run-script.mjs'), ...args], { encoding: 'utf8' });
  const [first = '', ...rest] = r.stderr.split('\n');
  return { code: r.status, stdout: r.stdout, cache: first.replace(/^cache: /, ''), stderr: rest.join('\n') };
}

/** Run the CLI from the sources, in-process. */
async function sources(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, createRuntime({ stdout: (s) => (stdout += s), stderr: (s) => (stderr += s), isTTY: false }));
  return { code, stdout, stderr };
}

function stateDir(): string {
  return writeTree(tmpDir('cairn-script-'), {
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'static', sync: { watch: false } } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim.\n',
    'workspace/memory/2024-05-08.md': '# Deploy\n\nDeployed the staging server after ECONNREFUSED on the router.\n',
    'workspace/memory/2024-06-01.md': '# Trip\n\nBooked the kayak trip; the router firmware update can wait.\n',
  });
}

beforeAll(() => {
  // Inside the checkout, so that the script's external packages resolve from node_modules.
  fs.mkdirSync(TEST_CACHE_DIR, { recursive: true });
  outdir = fs.mkdtempSync(path.join(TEST_CACHE_DIR, 'cli-script-'));
  const build = `const m = await import(${JSON.stringify(pathToFileURL(path.join(root, 'scripts', 'build-cli.mjs')).href)});
    await m.buildCli(${JSON.stringify(root)}, { outdir: ${JSON.stringify(outdir)} });`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', build], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundle build failed: ${r.stderr}`);
  fs.writeFileSync(
    path.join(outdir, 'run-script.mjs'),
    `const { loadCliScript } = await import(${JSON.stringify(LOADER)});
     const { parseSearch } = await import(${JSON.stringify(pathToFileURL(path.join(root, 'bin', 'thin-client.mjs')).href)});
     const args = parseSearch(process.argv.slice(2));
     if (!args) throw new Error('not a search the script runs: ' + process.argv.slice(2).join(' '));
     const r = loadCliScript(${JSON.stringify(path.join(outdir, 'cairn-search.cjs'))});
     process.stderr.write('cache: ' + r.status + '\\n');
     const code = await r.exports.runSearchCli(args);
     process.stdout.write('', () => process.exit(code));\n`,
  );
  cacheFile = path.join(outdir, 'cairn-search.cjs.cache');
  goodCache = fs.readFileSync(cacheFile);
}, 240_000);

afterAll(() => {
  if (outdir) fs.rmSync(outdir, { recursive: true, force: true });
});

describe('CLI script with a code cache', () => {
  it('builds the CLI and the thin client rules as scripts whose caches the building Node uses', () => {
    for (const name of ['cairn-search.cjs', 'thin-rules.cjs']) {
      const check = `const { loadCliScript } = await import(${JSON.stringify(LOADER)});
        const r = loadCliScript(${JSON.stringify(path.join(outdir, name))});
        console.log(r.status, Object.keys(r.exports).sort().join(','));`;
      const r = spawnSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.stdout.trim()).toBe(name === 'cairn-search.cjs' ? 'used runSearchCli' : 'used findServingEngine');
    }
  });

  it('searches like the sources, with its cache, without one and with a broken or foreign one', async () => {
    const dir = stateDir();
    const args = (q: string) => ['search', q, '--state-dir', dir, '--json'];
    const broken = Buffer.from(goodCache);
    for (let i = 64; i < broken.length; i += 4099) broken[i] = (broken[i] as number) ^ 0x5a;
    const caches: [string, Buffer | null][] = [
      ['used', goodCache],
      ['none', null],
      ['rejected', broken],
      ['rejected', goodCache.subarray(0, goodCache.length >> 1)],
      ['rejected', Buffer.from('not a code cache at all')],
      // Made for another script (the thin client's rules).
      ['rejected', fs.readFileSync(path.join(outdir, 'thin-rules.cjs.cache'))],
    ];
    try {
      for (const [fate, bytes] of caches) {
        if (bytes) fs.writeFileSync(cacheFile, bytes);
        else fs.rmSync(cacheFile, { force: true });
        for (const q of ['router firmware', 'kayak']) {
          const s = script(args(q));
          expect({ fate: s.cache, code: s.code, stderr: s.stderr }).toEqual({ fate, code: 0, stderr: '' });
          const src = await sources(args(q));
          expect(JSON.parse(s.stdout)).toEqual(JSON.parse(src.stdout));
          expect(JSON.parse(s.stdout).results.length).toBeGreaterThan(0);
        }
      }
    } finally {
      fs.writeFileSync(cacheFile, goodCache);
    }
  });

  it('gives the same usage errors and exit codes as the sources', async () => {
    const dir = stateDir();
    for (const args of [['search', 'x', '--min-score', '7'], ['search', 'x', '-n', 'many'], ['search', 'x', '--agent', 'nobody']]) {
      const s = script([...args, '--state-dir', dir]);
      const src = await sources([...args, '--state-dir', dir]);
      expect({ code: s.code, stdout: s.stdout, stderr: s.stderr }).toEqual(src);
    }
  });

  it('hands out module URLs that are files of the ESM bundle (workers start from them)', () => {
    const text = fs.readFileSync(path.join(outdir, 'cairn-search.cjs'), 'latin1');
    const urls = [...text.matchAll(/__cairnUrl\("([^"]+)"\)/g)].map((m) => m[1] as string);
    // At least: the embed and KNN workers, the static model finder, serve's renderer, the plugin finder.
    expect(urls.length).toBeGreaterThanOrEqual(5);
    for (const rel of urls) expect(fs.existsSync(path.join(outdir, rel)), rel).toBe(true);
    expect(/[\u0080-\uffff]/.test(text)).toBe(false);
  });
});
