// A one-shot `cairn search` as one classic script with a V8 code cache (built by
// scripts/build-cli-script.mjs from electron/cli/search-main.ts): how bin/cairn.mjs runs a
// search when no engine answers it. Node 20 has no
// compile cache for ES modules (module.enableCompileCache came in Node 22), so the ESM
// bundle's ~45 chunks a search loads were resolved, read and compiled anew on every run;
// `vm.Script` takes `cachedData`, and one script skips the ES module loader altogether
// (docs/benchmarks.md, "CLI start-up without an engine").
//
// The cache sits beside the script and is written by the same build, with checksums of the
// script and of itself (codeCacheFile). A cache that fails them, or that V8 refuses (another
// V8 version, other V8 flags), is not used: the script compiles from its source as usual
// (same behaviour, slower).
//
// This is the one code-cache loader: the vendored packages of the ESM bundle (zod, commander,
// json5: scripts/cli-vendor.mjs) load through it too, so every command (doctor,
// openclaw-bridge, …) gets the same checksum rule as search.
import fs from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';
import { isAscii } from 'node:buffer';

/** The scripts' file names in the bundle dir: the search, and the thin client's rules (each with `<name>.cache`). */
export const SEARCH_SCRIPT = 'cairn-search.cjs';
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
  const lazy = (id) => {
    const known = LAZY.get(id.startsWith('node:') ? id.slice(5) : id);
    return known ? late(id, known) : req(id);
  };
  lazy.resolve = req.resolve;
  return lazy;
}

/** A cache file: magic, CRC-32 of the script it was made from, CRC-32 of V8's data, the data. */
const MAGIC = 'CAIRNCC1';
const HEAD = MAGIC.length + 8;

/**
 * The code cache file for `source` (the script's bytes) holding V8's `data`. V8 itself checks
 * only its version, its flags and the source's length: a cache of another build of the same
 * length would be taken, and V8 (release builds) does not checksum the data, so a flipped
 * byte crashed Node inside its deserialiser. Hence the two checksums, checked before V8 sees
 * the data (zlib's native CRC-32: ~0.5 ms for both).
 */
export function codeCacheFile(source, data) {
  const head = Buffer.alloc(HEAD);
  head.write(MAGIC, 0, 'latin1');
  head.writeUInt32LE(zlib.crc32(source), MAGIC.length);
  head.writeUInt32LE(zlib.crc32(data), MAGIC.length + 4);
  return Buffer.concat([head, data]);
}

/** V8's data in the cache file `bytes` when it was made from `source` and is intact, else undefined. */
function cachedDataOf(bytes, source) {
  if (bytes.length <= HEAD || bytes.toString('latin1', 0, MAGIC.length) !== MAGIC) return undefined;
  if (bytes.readUInt32LE(MAGIC.length) !== zlib.crc32(source)) return undefined;
  const data = bytes.subarray(HEAD);
  return bytes.readUInt32LE(MAGIC.length + 4) === zlib.crc32(data) ? data : undefined;
}

/**
 * Compile and run the script at `file` (with its code cache when there is an intact one made
 * from this very script) and return its exports; `status` says what became of the cache:
 * 'used', 'rejected' (by our checks or by V8: another Node, other flags) or 'none'.
 * `produce` returns the script itself too, for the build to write a cache from.
 */
export function loadCliScript(file, { cache = `${file}.cache`, produce = false } = {}) {
  const source = fs.readFileSync(file);
  let bytes;
  try {
    if (cache) bytes = fs.readFileSync(cache);
  } catch {
    // No cache: compile from the source.
  }
  const cachedData = bytes && cachedDataOf(bytes, source);
  // The build made the CLI script ASCII: latin1 is the same text, without UTF-8 decoding (a
  // vendored package may hold UTF-8 in a regular expression literal).
  const script = new vm.Script(source.toString(isAscii(source) ? 'latin1' : 'utf8'), {
    filename: file,
    cachedData,
  });
  const status = bytes === undefined ? 'none' : !cachedData || script.cachedDataRejected ? 'rejected' : 'used';
  const module = { exports: {} };
  // The script's `import("pkg")` (an external package; the build rewrote them) is this module's:
  // vm's own hook for that is experimental in Node 20 and warns on stderr when used.
  script.runInThisContext()(module.exports, lazyRequire(file), module, file, path.dirname(file), (spec) => import(spec));
  return produce ? { exports: module.exports, status, script, source } : { exports: module.exports, status };
}
