/**
 * A user-land start-up snapshot of the CLI script (issue 40 item 3), for bench/cli-start.ts
 * `--snapshot`: `node --snapshot-blob <blob> --build-snapshot <entry>` runs the code-cached
 * script's top level (dist/cli/bundle/cairn-search.cjs, scripts/build-cli-script.mjs) at build
 * time and keeps the heap; `node --snapshot-blob <blob> search …` then starts from that heap
 * and calls `runSearchCli` on bench/cli-start.ts's one form of search (`search <query>
 * --state-dir <dir> --json`): a snapshot's main function cannot import bin/thin-client.mjs's
 * parse. What a snapshot cannot hold is left to the run: Node 20 loads no user-land module
 * and no native addon while building one, so every package the script requires is handed
 * over as a stand-in resolved after deserialising — except sqlite-vec,
 * whose exports the script copies at its top level (loaded while building: plain JS).
 *
 * This is the best case for the snapshot: it skips bin/cairn.mjs (ES module entry, freshness
 * check, thin client), which a real `cairn` would still need in front of it (a launcher, since
 * `--snapshot-blob` is a flag of the node command line, not of a script).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const entry = (script: string): string => `
const fs = require('fs'), path = require('path'), v8 = require('v8'), { builtinModules, createRequire } = require('module');
const file = ${JSON.stringify(script)};
let real = null;
const builtin = new Set(builtinModules);
const isBuiltin = (id) => id.startsWith('node:') || builtin.has(id.split('/')[0]);
const late = (id) => new Proxy(function lazy() {}, { get: (_, k) => real(id)[k], apply: (_, t, a) => Reflect.apply(real(id), t, a) });
const atBuild = createRequire(file);
const req = (id) => (isBuiltin(id) ? require(id) : id === 'sqlite-vec' ? atBuild(id) : late(id));
req.resolve = (id) => real.resolve(id);
const wrapper = (0, eval)(fs.readFileSync(file, 'latin1'));
const mod = { exports: {} };
wrapper(mod.exports, req, mod, file, path.dirname(file), (spec) => import(spec));
v8.startupSnapshot.setDeserializeMainFunction(async () => {
  real = createRequire(file);
  const argv = process.argv.slice(1);
  const code = await mod.exports.runSearchCli({ query: argv[1], stateDir: argv[argv.indexOf('--state-dir') + 1], json: argv.includes('--json') });
  process.exitCode = code;
  process.stdout.write('', () => process.exit(code));
});`;

/** Build the blob for the CLI script of `bundleDir` into `outDir`; its path. Throws when Node refuses. */
export function buildCliSnapshot(bundleDir: string, outDir: string): string {
  const entryFile = path.join(outDir, 'snapshot-entry.cjs');
  const blob = path.join(outDir, 'cairn-cli.blob');
  fs.writeFileSync(entryFile, entry(path.join(bundleDir, 'cairn-search.cjs')));
  const r = spawnSync(process.execPath, ['--snapshot-blob', blob, '--build-snapshot', entryFile], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`snapshot build failed: ${r.stderr.slice(-1000)}`);
  return blob;
}
