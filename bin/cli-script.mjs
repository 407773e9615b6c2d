// The CLI as one classic script with a V8 code cache (built by scripts/build-cli-script.mjs):
// how bin/cairn.mjs runs a one-shot `cairn search` when no engine answers it. Node 20 has no
// compile cache for ES modules (module.enableCompileCache came in Node 22), so the ESM
// bundle's ~45 chunks a search loads were resolved, read and compiled anew on every run;
// `vm.Script` takes `cachedData`, and one script skips the ES module loader altogether
// (docs/benchmarks.md, "CLI start-up without an engine").
//
// The cache sits beside the script and is written by the same build, so it belongs to it.
// V8 refuses a cache from another V8 version, other V8 flags, another source length or with
// a bad checksum: the script then compiles from its source as usual (same behaviour, slower).
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { createRequire } from 'node:module';

/** The scripts' file names in the bundle dir: the CLI, and the thin client's rules (each with `<name>.cache`). */
export const CLI_SCRIPT = 'cairn-cli.cjs';
export const THIN_RULES_SCRIPT = 'thin-rules.cjs';

/**
 * Built-ins the script requires at its top (or a bundled package's) that a search never uses:
 * commander's node:child_process (for executable subcommands, which Cairn has none of),
 * readline (interactive commands), assert (signal-exit, under the file lock), crypto (hashes
 * of what is indexed or written), worker_threads (whose loading brings perf_hooks). Loading
 * them cost 1–9 ms each; the script gets a stand-in that loads the module on first use.
 * Values a stand-in knows without loading its module: the worker modules ask at their top
 * whether they run as a worker, and this script runs on bin/cairn.mjs's main thread only.
 */
const LAZY = new Map([
  ['child_process', {}],
  ['readline', {}],
  ['assert', {}],
  ['crypto', {}],
  ['worker_threads', { isMainThread: true, workerData: null }],
]);

/** A `require` for the script that loads LAZY modules only when first used. */
function lazyRequire(file) {
  const req = createRequire(file);
  // A function target, so that a module which is itself a function (assert) can be called.
  const late = (id, known) =>
    new Proxy(function lazyModule() {}, {
      get: (_, key) => (Object.hasOwn(known, key) ? known[key] : req(id)[key]),
      apply: (_, self, args) => Reflect.apply(req(id), self, args),
    });
  return (id) => {
    const known = LAZY.get(id.startsWith('node:') ? id.slice(5) : id);
    return known ? late(id, known) : req(id);
  };
}

/**
 * Compile and run the script at `file` (with its code cache when there is one) and return
 * its exports; `status` says what V8 did with the cache: 'used', 'rejected' or 'none'.
 * `produce` instead returns the script itself too, for the build to write a cache from.
 */
export function loadCliScript(file, { cache = `${file}.cache`, produce = false } = {}) {
  let cachedData;
  try {
    if (cache) cachedData = fs.readFileSync(cache);
  } catch {
    // No cache: compile from the source.
  }
  // The build checked that the script is ASCII: latin1 is the same text, read without UTF-8 decoding.
  const script = new vm.Script(fs.readFileSync(file, 'latin1'), {
    filename: file,
    cachedData,
    // `import()` in the script (ESM-only packages: node-llama-cpp, the MCP SDK) as in a module.
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const status = cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} };
  script.runInThisContext()(module.exports, lazyRequire(file), module, file, path.dirname(file));
  return produce ? { exports: module.exports, status, script } : { exports: module.exports, status };
}
