/**
 * Every code cache the CLI bundle holds (the vendored packages' `vendor/*.js.cache`, the CLI
 * script's and the thin client rules' `*.cjs.cache`) goes through the one loader with one
 * checksum rule (bin/cli-script.mjs): in a copied checkout in a temp dir, with each cache
 * corrupt (eight bytes flipped), truncated or made for another script, `cairn doctor`,
 * `cairn search` and `cairn openclaw-bridge` answer as they do with intact caches — a cache
 * that fails the checks compiles from source, never a V8 crash (exit 133).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runProcess } from '../helpers/cli';
import { writeTree } from '../helpers/tmp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What a checkout needs to build and run the CLI bundle (node_modules is linked, not copied). */
const COPIED = ['bin', 'electron', 'shared', 'scripts', 'resources', 'openclaw-plugin', 'package.json'];
let copy = '';
let state = '';
const good = new Map<string, Buffer>();

/** The bundle's code caches, by path in the copy. */
function caches(): string[] {
  const bundle = path.join(copy, 'dist', 'cli', 'bundle');
  const vendor = path.join(bundle, 'vendor');
  return [...fs.readdirSync(bundle).map((f) => path.join(bundle, f)), ...fs.readdirSync(vendor).map((f) => path.join(vendor, f))].filter((f) => f.endsWith('.cache'));
}

/** Eight bytes flipped, spread over V8's data (after the file's header). */
function flipped(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  const step = Math.floor((out.length - 64) / 8);
  for (let i = 0; i < 8; i++) out[64 + i * step] = (out[64 + i * step] as number) ^ 0x5a;
  return out;
}

function cairn(args: string[], input = '') {
  return runProcess(process.execPath, [path.join(copy, 'bin', 'cairn.mjs'), ...args, '--state-dir', state], { input, env: { CAIRN_CLI_SOURCE: '', CAIRN_CLI_SCRIPT: '' } });
}

/** The JSON a command printed, or what it said on stderr when it printed none (a crash). */
function json<T>(r: { stdout: string; stderr: string }): T | string {
  try {
    return JSON.parse(r.stdout) as T;
  } catch {
    return `no JSON: ${r.stderr.slice(0, 300)}`;
  }
}

const map = <T, U>(v: T | string, f: (v: T) => U): U | string => (typeof v === 'string' ? v : f(v));

/** What the three commands print, with exit codes; the bridge answers `hello`. */
async function answers() {
  const doctor = await cairn(['doctor', '--json']);
  const search = await cairn(['search', 'router firmware', '--json']);
  const bridge = await cairn(['openclaw-bridge'], `${JSON.stringify({ id: 1, op: 'hello' })}\n`);
  const hello = bridge.stdout.split('\n').find((l) => l.includes('"id":1'));
  return {
    doctor: { code: doctor.code, checks: map(json<{ checks: { id: string; status: string }[] }>(doctor), (d) => d.checks.map((c) => `${c.id}: ${c.status}`)) },
    search: { code: search.code, paths: map(json<{ results: { path: string }[] }>(search), (s) => s.results.map((r) => r.path)) },
    bridge: { code: bridge.code, ok: hello ? (JSON.parse(hello) as { ok: boolean }).ok : `no answer: ${bridge.stderr.slice(-500)}` },
  };
}

beforeAll(() => {
  // Not tmpDir(): that is emptied after each test, and the copy serves them all.
  copy = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-checkout-'));
  for (const name of COPIED) fs.cpSync(path.join(root, name), path.join(copy, name), { recursive: true });
  fs.symlinkSync(fs.realpathSync(path.join(root, 'node_modules')), path.join(copy, 'node_modules'), 'dir');
  const build = `const m = await import(${JSON.stringify(pathToFileURL(path.join(copy, 'scripts', 'build-cli.mjs')).href)}); await m.buildCli(${JSON.stringify(copy)});`;
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', build], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`bundle build failed: ${r.stderr}`);
  for (const f of caches()) good.set(f, fs.readFileSync(f));
  state = writeTree(path.join(copy, 'state'), {
    'cairn.json': JSON.stringify({ agents: { defaults: { memorySearch: { provider: 'static', sync: { watch: false } } } } }),
    'workspace/MEMORY.md': '# Preferences\n\nPrefers dark mode and vim.\n',
    'workspace/memory/2024-06-01.md': '# Trip\n\nBooked the kayak trip; the router firmware update can wait.\n',
  });
}, 240_000);

afterAll(() => {
  if (copy) fs.rmSync(copy, { recursive: true, force: true });
});

describe('code caches of a copied checkout', () => {
  it('has a cache for each vendored package and each CLI script', () => {
    expect(caches().map((f) => path.basename(f)).sort()).toEqual(['cairn-search.cjs.cache', 'commander.js.cache', 'json5.js.cache', 'thin-rules.cjs.cache', 'zod.js.cache']);
    // The building Node takes them (the checksums hold, V8 accepts them): the cache still saves time.
    const check = `const { loadCliScript } = await import(${JSON.stringify(pathToFileURL(path.join(copy, 'bin', 'cli-script.mjs')).href)});
      console.log(${JSON.stringify(caches())}.map((c) => loadCliScript(c.slice(0, -'.cache'.length)).status).join(' '));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', check], { encoding: 'utf8' });
    expect(r.stdout.trim()).toBe(caches().map(() => 'used').join(' '));
  });

  it('runs doctor, search and openclaw-bridge alike with intact, corrupt, truncated and foreign caches', async () => {
    const files = [...good.keys()];
    const expected = await answers();
    expect(expected.doctor.code).toBe(0);
    expect(expected.search).toEqual({ code: 0, paths: ['memory/2024-06-01.md'] });
    expect(expected.bridge).toEqual({ code: 0, ok: true });
    const damage: [string, (f: string, i: number) => Buffer][] = [
      ['corrupt', (f) => flipped(good.get(f) as Buffer)],
      ['truncated', (f) => (good.get(f) as Buffer).subarray(0, (good.get(f) as Buffer).length >> 1)],
      // Each file holds the next one's cache: made for another script.
      ['foreign', (_, i) => good.get(files[(i + 1) % files.length] as string) as Buffer],
    ];
    try {
      for (const [what, make] of damage) {
        files.forEach((f, i) => fs.writeFileSync(f, make(f, i)));
        expect({ what, ...(await answers()) }).toEqual({ what, ...expected });
      }
    } finally {
      for (const [f, bytes] of good) fs.writeFileSync(f, bytes);
    }
  }, 240_000);
});
