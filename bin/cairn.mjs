#!/usr/bin/env node
// The `cairn` executable: runs the TypeScript CLI through tsx's loader, so it works right
// after `npm install` on a fresh clone with no build step. When `npm run build` has made a
// CLI bundle that is still fresh (no source edited since), that runs instead: it skips
// tsx's per-run compile, most of a short command's start-up (docs/benchmarks.md). A search
// the thin client did not answer runs the search alone as one code-cached script instead
// (bin/cli-script.mjs): Node 20 compiles every ES module anew on each start.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL, fileURLToPath } from 'node:url';
import { BUNDLE_DIR, freshCliBundle } from './cli-bundle.mjs';
import { nativeModuleProblem } from './native-check.mjs';
import { parseSearch, thinSearch } from './thin-client.mjs';
import { loadCliScript, SEARCH_SCRIPT, THIN_RULES_SCRIPT } from './cli-script.mjs';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
// Flushes stdout and stderr, then exits with `code` (see the end of this file for why).
const flushed = (stream) =>
  new Promise((resolve) => {
    stream.once('error', resolve);
    stream.write('', resolve);
  });
const exitFlushed = async (code) => {
  process.exitCode = code;
  await Promise.all([flushed(process.stdout), flushed(process.stderr)]);
  process.exit(code);
};
const bundle = freshCliBundle(root);
// Without a fresh bundle the TypeScript sources run through tsx (registered once, on demand).
let tsx;
const fromSources = async (rel) => {
  tsx ??= import('tsx/esm/api').then(({ register }) => register());
  await tsx;
  return import(rel);
};
// The thin client's rules are the engine's (electron/cli/thin-rules.ts), built into the bundle.
// As a code-cached script when the build made one (bin/cli-script.mjs), else its ES module.
const scriptIn = (name) => (bundle && process.env.CAIRN_CLI_SCRIPT !== '0' && fs.existsSync(path.join(root, BUNDLE_DIR, name)) ? path.join(root, BUNDLE_DIR, name) : null);
const loadThinRules = async () => {
  const script = scriptIn(THIN_RULES_SCRIPT);
  if (script) return loadCliScript(script).exports;
  return bundle ? import(pathToFileURL(path.join(root, BUNDLE_DIR, 'thin-rules.js')).href) : fromSources('../electron/cli/thin-rules.ts');
};
// `cairn search` when an engine is running for the state dir: asked there, nothing else loaded.
const thin = await thinSearch(process.argv.slice(2), root, loadThinRules);
if (thin !== null) await exitFlushed(thin);
// A Node that cannot load the native module fails here, whatever the command (bin/native-check.mjs).
const problem = nativeModuleProblem(root);
if (problem) {
  process.stderr.write(`${problem}\n`, () => process.exit(1));
  await new Promise(() => {});
}
// The search script is built with the bundle, from the same sources (the search command
// without commander and the other commands); CAIRN_CLI_SCRIPT=0 keeps to the ES modules.
const search = parseSearch(process.argv.slice(2));
const script = search ? scriptIn(SEARCH_SCRIPT) : null;
const runCli = async (argv) => (bundle ? await import(pathToFileURL(bundle).href) : await fromSources('../electron/cli/main.ts')).runCli(argv);
const code = script ? await loadCliScript(script).exports.runSearchCli(search) : await runCli(process.argv.slice(2));
// Exit only once stdout and stderr are flushed: to a pipe they are asynchronous, and
// process.exit() straight away cut `cairn get big.md | wc -c` at 64 KiB. An empty write's
// callback runs after every earlier write has been handed to the OS (or failed: EPIPE when
// the reader went away, as with `| head`). process.exit() then still ends a command whose
// engine left a handle open (a watcher, a worker).
await exitFlushed(code);
