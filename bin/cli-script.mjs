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
 * A `require` for the script: commander requires node:child_process at its top for
 * executable subcommands, which Cairn has none of, and loading that built-in costs 4–9 ms;
 * it gets a stand-in that loads it on first use.
 */
function lazyRequire(file) {
  const req = createRequire(file);
  const late = (id) => new Proxy({}, { get: (_, key) => req(id)[key] });
  return (id) => (id === 'node:child_process' || id === 'child_process' ? late(id) : req(id));
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
